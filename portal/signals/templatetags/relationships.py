"""The profile's "Declared relationships" section: ``{% relationships_panel user %}``."""

from __future__ import annotations

from typing import Any

from django import template
from django.db.models import Q

from portal.signals.models import Relationship

register = template.Library()


@register.inclusion_tag("signals/profile_section.html", takes_context=True)
def relationships_panel(context: template.Context, user: Any) -> dict[str, Any]:
    from portal.signals.views import RelationshipForm

    rows = [{"pk": r.pk, "other": r.second if r.first_id == user.pk else r.first,
             "kind": r.get_kind_display(), "declared_at": r.declared_at}
            for r in Relationship.objects.filter(Q(first_id=user.pk) | Q(second_id=user.pk))
            .select_related("first", "second")]
    return {"rows": rows, "form": RelationshipForm(), "request": context.get("request"),
            "csrf_token": context.get("csrf_token")}
