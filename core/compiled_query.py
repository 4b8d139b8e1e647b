"""Querysets whose SQL is built once per process and database connection, then run with other
values: the requests a club night sends by the thousand (a table's page by its token, its
seats, its result versions) spent more time in the ORM building the same SQL again than in the
database answering it (a quarter of the web workers' CPU under the 100-table load bench).

    _SEATS = CompiledQuery(lambda table_id: Seat.objects.filter(table_id=table_id)
                           .select_related("player").order_by("seat_number"), table_id=int)
    seats = _SEATS.run(table_id=7)  # a list of Seat, as list(queryset) gives

`build` gets a placeholder for each named value, the first time only; the rows come back as
the queryset would give them (model instances with their select_related objects, or values),
through Django's own iterables. Values reach the database as given (no field's conversion
runs on them): an int for an integer or key column, a str for a text one. A value may be a
filter's operand only (not a list for `__in`,
not a slice bound), and the queryset must be final (sliced and ordered as it is to run)."""

from __future__ import annotations

import copy
import weakref
from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import QuerySet
from django.db.models.sql.compiler import SQLCompiler

# Placeholders no real value takes (an id this negative, text with NULs), found again among
# the compiled parameters.
_INT_PLACEHOLDER = -(2**62)
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _placeholder(kind: type, index: int) -> object:
    if kind is int:
        return _INT_PLACEHOLDER - index
    if kind is str:
        return f"\x00compiled-query-value-{index}\x00"
    raise TypeError(f"a compiled query's values are int or str, not {kind.__name__}")


class _Prepared:
    """Stands in for the queryset's Query: its compiler answers with the SQL built once and
    this run's parameters; everything else is the original Query's."""

    def __init__(self, query: Any, compiler: SQLCompiler, sql: str, params: tuple) -> None:
        self._query, self._compiler, self._sql, self._params = query, compiler, sql, params

    def get_compiler(self, using: str | None = None, connection: Any = None,
                     elide_empty: bool = True) -> SQLCompiler:
        compiler = copy.copy(self._compiler)
        sql, params = self._sql, self._params
        compiler.as_sql = lambda *args, **kwargs: (sql, params)  # type: ignore[method-assign]  # this copy only
        return compiler

    def chain(self, klass: type | None = None) -> _Prepared:
        return self

    def __getattr__(self, name: str) -> Any:
        return getattr(self._query, name)


class _Compiled:
    """One connection's compiled form: the queryset, its compiler set up, its SQL, and where
    each named value goes among the parameters."""

    def __init__(self, queryset: QuerySet, names: list[str], placeholders: list[object]) -> None:
        compiler = queryset.query.get_compiler(using=queryset.db)
        sql, params = compiler.as_sql()
        self.query, self.compiler, self.sql = queryset.query, compiler, sql
        self.params = tuple(params)
        self.slots: list[tuple[int, str]] = []
        for position, param in enumerate(self.params):
            for name, placeholder in zip(names, placeholders, strict=True):
                if type(param) is type(placeholder) and param == placeholder:
                    self.slots.append((position, name))
        missing = set(names) - {name for _, name in self.slots}
        if missing:
            raise ValueError(f"the compiled query does not use {sorted(missing)} as values")

        # Cloned once, here: a clone of the template below (`all()`) copies no Query (`_Prepared.chain`).
        self.template = queryset.all()
        # Not through the `query` setter: it would turn a values_list queryset's rows into dicts.
        vars(self.template)["_query"] = _Prepared(self.query, compiler, sql, self.params)

    def run(self, values: dict[str, object]) -> list:
        params = list(self.params)
        for position, name in self.slots:
            params[position] = values[name]
        queryset = self.template.all()
        vars(queryset)["_query"] = _Prepared(self.query, self.compiler, self.sql, tuple(params))
        return list(queryset)


class CompiledQuery[M]:
    """A queryset built by `build(**placeholders)`, compiled once per database connection.
    `kinds` names each value and its type (int or str)."""

    def __init__(self, build: Callable[..., QuerySet[Any, M]], **kinds: type) -> None:
        self._build, self._kinds = build, kinds
        self._alias: str | None = None  # the database the queryset reads, known once built
        self._by_connection: weakref.WeakKeyDictionary[Any, _Compiled] = weakref.WeakKeyDictionary()

    def run(self, **values: object) -> list[M]:
        if set(values) != set(self._kinds):
            raise TypeError(f"a compiled query takes {sorted(self._kinds)}, not {sorted(values)}")
        for name, value in values.items():
            if type(value) is not self._kinds[name]:
                raise TypeError(f"{name} must be {self._kinds[name].__name__}")
        if any(type(v) is int and not _INT64_MIN <= v <= _INT64_MAX for v in values.values()):
            return []  # no column holds it (as the ORM answers an integer lookup out of range)
        compiled = self._compiled()
        return compiled.run(values)

    def _compiled(self) -> _Compiled:
        if self._alias is not None:
            compiled = self._by_connection.get(connections[self._alias])
            if compiled is not None:
                return compiled
        names = list(self._kinds)
        placeholders = [_placeholder(kind, n) for n, kind in enumerate(self._kinds.values())]
        queryset = self._build(**dict(zip(names, placeholders, strict=True)))
        compiled = _Compiled(queryset, names, placeholders)
        self._alias = queryset.db
        self._by_connection[connections[self._alias]] = compiled
        return compiled

