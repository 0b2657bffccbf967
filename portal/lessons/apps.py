from django.apps import AppConfig


class LessonsConfig(AppConfig):
    name = "portal.lessons"
    label = "lessons"
    verbose_name = "Lessons"
