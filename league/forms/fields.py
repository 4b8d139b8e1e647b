"""What the league's forms share."""

from typing import Any, cast

from django import forms
from django.db.models import QuerySet


def offer(field: forms.Field, queryset: QuerySet[Any]) -> None:
    """Offer only `queryset` in a model choice field declared on the form."""
    cast(forms.ModelChoiceField, field).queryset = queryset
