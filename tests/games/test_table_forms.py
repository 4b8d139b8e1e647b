"""The table page's forms are drawn by Jinja2 (`games.forms.TABLE_FORM_RENDERER`), for speed:
their markup is the one Django's template engine draws, whitespace and how an apostrophe is
escaped aside."""

import re
from types import SimpleNamespace

from django.forms.renderers import DjangoTemplates

from games.forms import (
    TABLE_FORM_RENDERER,
    CodeForm,
    ConfirmForm,
    LogMappingForm,
    LogUploadForm,
    SheetForm,
)
from handfoot.rules import PRESETS

SIDES = [SimpleNamespace(side=0, label="Side 1"), SimpleNamespace(side=1, label="Side 2")]


def markup(form_class, renderer, *args, **kwargs) -> str:
    kwargs.setdefault("initial", {}).setdefault("idempotency_key", "k" * 32)
    form = form_class(*args, renderer=renderer, **kwargs)
    parts = [str(form)] + [str(bound) + str(bound.label_tag()) + str(bound.errors)
                           for bound in form]
    html = "".join(parts).replace("&#39;", "&#x27;")  # Jinja2's escape of ', Django's
    return re.sub(r">\s+", ">", re.sub(r"\s+<", "<", html))


def drawn_alike(form_class, *args, **kwargs) -> None:
    by_django = markup(form_class, DjangoTemplates(), *args, **kwargs)
    by_jinja = markup(form_class, TABLE_FORM_RENDERER, *args, **kwargs)
    assert by_jinja == by_django
    assert "<input" in by_jinja or "<select" in by_jinja


def test_the_table_forms_are_drawn_by_the_table_renderer():
    for form in (CodeForm(), ConfirmForm(), LogUploadForm(),
                 SheetForm(sides=SIDES, rules=PRESETS["classic"])):
        assert form.renderer is TABLE_FORM_RENDERER


def test_a_new_sheet_is_drawn_as_django_draws_it():
    drawn_alike(SheetForm, sides=SIDES, rules=PRESETS["classic"], saved_rounds=[1, 3])


def test_a_refused_sheet_shows_what_was_typed_and_its_errors_as_django_draws_them():
    typed = {"idempotency_key": "k" * 32, "round": "9", "ended_by": "went_out",
             "side0_clean_books": "-1", "side1_clean_books": "<b>2</b>"}
    form = SheetForm(typed, sides=SIDES, rules=PRESETS["classic"], renderer=TABLE_FORM_RENDERER)
    assert not form.is_valid() and form.errors
    drawn_alike(SheetForm, typed, sides=SIDES, rules=PRESETS["classic"])
    assert "&lt;b&gt;2&lt;/b&gt;" in markup(SheetForm, TABLE_FORM_RENDERER, typed,
                                            sides=SIDES, rules=PRESETS["classic"])


def test_the_other_table_forms_are_drawn_as_django_draws_them():
    drawn_alike(CodeForm, {"code": "ab-cd"})
    drawn_alike(ConfirmForm, {"version": "0"})
    drawn_alike(LogUploadForm)
    options = [SimpleNamespace(turn=0, players=[(1, 0, "Ann"), (2, 1, "Bo")], dealer="Ann")]
    drawn_alike(LogMappingForm, options=options)
