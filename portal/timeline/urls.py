from django.urls import path

from portal.timeline import views

app_name = "timeline"

urlpatterns = [
    path("<int:match_id>/timeline/", views.timeline, name="timeline"),
    path("<int:match_id>/notebook/", views.notebook, name="notebook"),
    path("<int:match_id>/notebook/notes/", views.note_save, name="note_save"),
    path("<int:match_id>/notebook/commentary/", views.commentary_save, name="commentary_save"),
]
