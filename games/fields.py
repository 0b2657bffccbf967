"""A JSONField that serialises with orjson: states, sheets and events are written and read on
every resolution, action and page, and orjson is several times faster than the standard
library on them. Same JSON out (keys that are not strings become strings, as ``json.dumps``
does), same Python values back.

``BoundedJSONFormField``: the form field for JSON typed by a person (the admin's editable JSON
fields), read within the site's bounds (``engine.jsontext.read_json``)."""

from __future__ import annotations

from typing import Any

import orjson
from django import forms
from django.db import models
from django.db.models.fields.json import KeyTransform
from django.forms.fields import InvalidJSONInput

from engine.jsontext import JSONLimitError, read_json
from games.words import sentence

OPTIONS = orjson.OPT_NON_STR_KEYS


def json_dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=OPTIONS)


class BoundedJSONFormField(forms.JSONField):
    """Django's JSON form field, refusing JSON past the bounds (nested too deeply: Django's
    own reading raised RecursionError) with a sentence."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and not self.disabled and value not in self.empty_values:
            try:
                read_json(value)
            except JSONLimitError as error:
                raise forms.ValidationError(sentence(error.text), code="invalid") from None
            except ValueError:
                pass  # not JSON: Django's own message
        return super().to_python(value)

    def bound_data(self, data: Any, initial: Any) -> Any:
        if isinstance(data, str) and not self.disabled:
            try:
                read_json(data)
            except JSONLimitError:
                return InvalidJSONInput(data)  # (shown again as typed)
            except ValueError:
                pass
        return super().bound_data(data, initial)


# The admins' editable JSON fields use the bounded form field (``formfield_overrides``).
BOUNDED_JSON = {models.JSONField: {"form_class": BoundedJSONFormField}}


class JSONField(models.JSONField):
    def formfield(self, **kwargs: Any) -> Any:
        return super().formfield(**{"form_class": BoundedJSONFormField, **kwargs})

    def get_placeholder(self, value: Any, compiler: Any, connection: Any) -> str:
        """The plain placeholder. Having one at all keeps PostgreSQL's ``bulk_create`` from
        sending each column as one array (``UNNEST``): psycopg escapes an array of JSON
        documents quote by quote in Python, which made inserting a batch's fifty phases
        ten times slower than the database's work."""
        return "%s"

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if self.encoder is not None:  # a custom encoder: the standard path
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        if connection.vendor == "postgresql":
            from psycopg.types.json import Jsonb

            return Jsonb(value, dumps=json_dumps)
        return json_dumps(value).decode()

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None or self.decoder is not None:
            return super().from_db_value(value, expression, connection)
        if isinstance(expression, KeyTransform) and not isinstance(value, str):
            return value
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return value
