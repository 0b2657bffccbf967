"""Migration operations of the project's own.

``AlterLabels`` changes what people read of a model's fields (verbose names, help texts, the
labels of choices) and nothing the database holds. Django's ``AlterField`` would do the same, but
each one renders the model and every model related to it again (for a field that points at the
user model, nearly all of them): the fourteen "field_labels" migrations, 500 such fields, took
two thirds of a fresh database's migration time (about 100 s of CPU of 150). This operation
replaces a model's fields in the migration state and renders nothing.
"""

from __future__ import annotations

from django.db import models
from django.db.migrations.operations.base import Operation

# What a field may differ in and still hold the same column, index and constraint.
LABEL_ATTRIBUTES = frozenset({"verbose_name", "help_text", "choices", "error_messages",
                              "validators", "blank", "editable"})


def _without_labels(field: models.Field) -> tuple:
    path, args, kwargs = field.deconstruct()[1:]
    return path, args, {key: value for key, value in kwargs.items()
                        if key not in LABEL_ATTRIBUTES}


class AlterLabels(Operation):
    """``AlterLabels("match", fields=[("status", models.CharField(...)), ...])``: the fields'
    new definitions, which differ from the old ones only in LABEL_ATTRIBUTES (anything else is
    refused: that needs an ``AlterField``)."""

    reduces_to_sql = False
    reversible = True

    def __init__(self, model_name: str, fields: list[tuple[str, models.Field]]) -> None:
        self.model_name = model_name
        self.fields = fields

    def deconstruct(self):
        return (self.__class__.__qualname__, [],
                {"model_name": self.model_name, "fields": self.fields})

    def state_forwards(self, app_label, state):
        model_key = app_label, self.model_name.lower()
        fields = state.models[model_key].fields
        for name, field in self.fields:
            old = fields[name]
            if _without_labels(old) != _without_labels(field):
                raise ValueError(f"AlterLabels on {app_label}.{self.model_name}.{name} changes "
                                 f"more than labels: use AlterField")
            if state._relations is not None:
                fields.pop(name)
                if old.is_relation:
                    state.resolve_model_field_relations(model_key, name, old)
                fields[name] = field
                if field.is_relation:
                    state.resolve_model_field_relations(model_key, name, field)
            else:
                fields[name] = field
        # Models already rendered keep their old labels, which no database operation reads:
        # rendering again (this model and every model related to it) is what made AlterField
        # slow. A later operation that changes the model renders it from these fields.

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        """Nothing to do: labels live in Python alone."""

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        """Nothing to undo."""

    def describe(self):
        return f"Alter the labels of {len(self.fields)} field(s) of {self.model_name}"

    @property
    def migration_name_fragment(self):
        return f"alter_{self.model_name.lower()}_labels"
