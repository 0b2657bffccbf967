"""How the competitions' pages refuse: a ServiceError becomes a 4xx page, never a 500."""

from __future__ import annotations

from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from games.services import ServiceError
from games.words import problem_line


def refuse(request: HttpRequest, error: ServiceError) -> HttpResponse:
    status = error.status
    template = "partials/error.html" if getattr(request, "htmx", False) else "error.html"
    return render(request, template, {"status": status, "error": error.message,
                                      "problems": [problem_line(p) for p in error.problems]},
                  status=status)


def done(request: HttpRequest, url: str) -> HttpResponse:
    if getattr(request, "htmx", False):
        response = HttpResponse()
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def form_errors(form: Form) -> str:
    """A form's errors as one sentence per problem, each field's named by its label."""
    parts = []
    for name, errors in form.errors.items():
        text = " ".join(errors)
        field = form.fields.get(name)
        parts.append(f"{field.label or name.replace('_', ' ').capitalize()}: {text}"
                     if field is not None and name != "__all__" else text)
    return " ".join(parts)
