"""Plain-data codec for the rules core's frozen dataclasses.

`to_data` turns a dataclass tree (dataclasses, enums, tuples, lists, dicts with
string keys, scalars, None) into JSON-compatible data; `from_data` rebuilds it
from the type hints. The store keeps encounter state as this data, so the rules
core never imports the store and the store never knows the rules' shapes.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")

JSON = dict[str, Any] | list[Any] | str | int | float | bool | None


def to_data(value: Any) -> Any:
    """Return `value` as JSON-compatible data (dataclasses become dicts, enums their values)."""
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, (tuple, list)):
        return [to_data(v) for v in value]
    if isinstance(value, (frozenset, set)):
        return sorted(to_data(v) for v in value)
    if isinstance(value, dict):
        return {str(k): to_data(v) for k, v in value.items()}
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return get_type_hints(cls)


def from_data(tp: Any, data: Any) -> Any:
    """Rebuild a value of type `tp` from `to_data` output; missing dataclass fields take their defaults."""
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        args = get_args(tp)
        if data is None and type(None) in args:
            return None
        errors: list[Exception] = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return from_data(arg, data)
            except (TypeError, ValueError, KeyError) as exc:
                errors.append(exc)
        raise ValueError(f"no member of {tp} accepts {data!r}: {errors}")
    if origin is typing.Literal:
        if data not in get_args(tp):
            raise ValueError(f"{data!r} is not one of {get_args(tp)}")
        return data
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_data(args[0], v) for v in data)
        return tuple(from_data(a, v) for a, v in zip(args, data, strict=True))
    if origin is list:
        (arg,) = get_args(tp)
        return [from_data(arg, v) for v in data]
    if origin in (frozenset, set):
        (arg,) = get_args(tp)
        return origin(from_data(arg, v) for v in data)
    if origin is dict:
        kt, vt = get_args(tp)
        return {from_data(kt, k): from_data(vt, v) for k, v in data.items()}
    if tp is Any:
        return data
    if isinstance(tp, type):
        if issubclass(tp, enum.Enum):
            return tp(data)
        if dataclasses.is_dataclass(tp):
            if not isinstance(data, dict):
                raise TypeError(f"{tp.__name__} needs a mapping, not {type(data).__name__}")
            hints = _hints(tp)
            kwargs = {
                f.name: from_data(hints[f.name], data[f.name])
                for f in dataclasses.fields(tp)
                if f.name in data and f.init
            }
            return tp(**kwargs)
        if isinstance(data, bool) and tp is not bool:
            raise TypeError(f"expected {tp.__name__}, got bool")
        if tp is float and isinstance(data, int):
            return float(data)
        if isinstance(data, tp):
            return data
        raise TypeError(f"expected {tp.__name__}, got {type(data).__name__}")
    return data


def load(cls: type[T], data: Any) -> T:
    """Typed wrapper of `from_data` for a dataclass."""
    result: T = from_data(cls, data)
    return result
