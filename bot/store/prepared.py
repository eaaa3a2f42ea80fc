"""The statements every command's write runs, executed on SQLite without SQLAlchemy's per-statement work.

`Prepared` compiles its statement once per dialect with SQLAlchemy's own bind processors (so it stores
exactly what `Connection.execute` would) and runs it on `sqlite3` inside the transaction SQLAlchemy began; on
PostgreSQL `execute` is plain `Connection.execute`. Why: docs/store.md, *Performance notes*.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy.engine import Connection, Dialect
from sqlalchemy.exc import DBAPIError
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import UpdateBase

#: Dialects (engines) whose compiled form a statement keeps.
KEPT_DIALECTS = 4


@dataclass(frozen=True, slots=True)
class _Compiled:
    sql: str
    names: tuple[str, ...]  # the parameters, in the statement's positional order
    processors: tuple[Callable[[Any], Any] | None, ...]


@dataclass(eq=False, slots=True)
class Prepared:
    """A statement with named bind parameters (`keys`: the columns an INSERT's parameters name)."""

    statement: UpdateBase  # an INSERT or UPDATE
    keys: tuple[str, ...] = ()
    _compiled: dict[int, tuple[Dialect, _Compiled]] = field(default_factory=dict)

    def compiled(self, dialect: Dialect) -> _Compiled:
        """Its SQL, parameter order and bind processors for `dialect` (an engine's own, whose JSON
        serializer the processors use)."""
        kept = self._compiled.get(id(dialect))
        if kept is not None and kept[0] is dialect:
            return kept[1]
        compiler = self.statement.compile(dialect=dialect, column_keys=list(self.keys) or None)
        assert isinstance(compiler, SQLCompiler) and compiler.positiontup is not None
        names = tuple(compiler.positiontup)
        processors = tuple(
            compiler.binds[name].type.dialect_impl(dialect).bind_processor(dialect) for name in names
        )
        compiled = _Compiled(compiler.string, names, processors)
        if len(self._compiled) >= KEPT_DIALECTS:  # a process opens one store; tests open many
            self._compiled.clear()
        self._compiled[id(dialect)] = (dialect, compiled)
        return compiled


def execute(connection: Connection, prepared: Prepared, params: Mapping[str, Any]) -> int:
    """Run `prepared` with `params` in `connection`'s open transaction; the number of rows it matched.
    Driver errors are raised as SQLAlchemy's (`IntegrityError`, `OperationalError`, ...), as
    `Connection.execute` raises them."""
    dialect = connection.dialect
    if dialect.driver != "pysqlite":
        return int(connection.execute(prepared.statement, dict(params)).rowcount)
    compiled = prepared.compiled(dialect)
    values = tuple(
        params[name] if process is None else process(params[name])
        for name, process in zip(compiled.names, compiled.processors, strict=True)
    )
    return on_driver(connection, compiled.sql, values)


def on_driver(connection: Connection, sql: str, values: tuple[Any, ...] = ()) -> int:
    """Run `sql` on a pysqlite connection's own `sqlite3` connection (the number of rows it matched), its
    errors raised as SQLAlchemy's."""
    driver = connection.connection.dbapi_connection
    assert driver is not None
    try:
        return int(driver.execute(sql, values).rowcount)
    except sqlite3.Error as error:
        raise DBAPIError.instance(sql, values, error, sqlite3.Error, dialect=connection.dialect) from error
