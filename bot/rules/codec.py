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
from collections.abc import Callable
from functools import cache
from typing import Any, TypeVar, Union, get_args, get_origin, get_type_hints

T = TypeVar("T")

JSON = dict[str, Any] | list[Any] | str | int | float | bool | None
Decoder = Callable[[Any], Any]

_SCALARS = frozenset({str, int, float, bool, type(None)})


def to_data(value: Any, reuse: Reuse | None = None) -> Any:
    """Return `value` as JSON-compatible data (dataclasses become dicts, enums their values). With `reuse`,
    see `Reuse.encode`."""
    cls = type(value)
    encode = _ENCODERS.get(cls)
    if encode is None:
        encode = _ENCODERS[cls] = _encoder(cls)
    return encode(value, reuse)


class Reuse:
    """A memory for encoding successive versions of one value (a channel's encounter, command after
    command): `encode` returns the very data it made last time for each frozen dataclass instance and tuple
    the new version still holds. The rules core's values are immutable, so an instance always encodes the
    same; the unchanged parts of the new data are then the same objects as in the last data, which lets the
    store skip them when it validates and diffs. The data it returns is shared: never edit it in place."""

    __slots__ = ("_last", "_made")

    def __init__(self) -> None:
        # id(instance) -> (instance, data): holding the instance keeps its id from being reused
        self._last: dict[int, tuple[Any, Any]] = {}
        self._made: dict[int, tuple[Any, Any]] = {}

    def encode(self, value: Any) -> Any:
        """`to_data(value)`, reusing the data of the instances the last encoded value shared with it."""
        try:
            return to_data(value, self)
        finally:
            self._last, self._made = self._made, {}

    def _get(self, instance: Any) -> Any:
        key = id(instance)
        entry = self._made.get(key) or self._last.get(key)
        if entry is None or entry[0] is not instance:
            return None
        self._made[key] = entry
        return entry[1]

    def _put(self, instance: Any, data: Any) -> None:
        self._made[id(instance)] = (instance, data)


Encoder = Callable[[Any, Reuse | None], Any]
# Why plans: every command decodes and re-encodes its channel's encounter, so the work that depends only on a
# type (its fields, its resolved type hints, what to do with each) is planned once per type and cached (here
# and in `_decoder`); a value then costs one call per node.
#: What `to_data` does with a value of each type, planned on its first value of that type (what to do depends
#: only on the type).
_ENCODERS: dict[type, Encoder] = {}


def _as_is(value: Any, reuse: Reuse | None) -> Any:
    return value


def _encoder(cls: Any) -> Encoder:
    if cls in _SCALARS:
        return _as_is
    if issubclass(cls, enum.Enum):
        return lambda value, reuse: value.value
    if not issubclass(cls, type) and dataclasses.is_dataclass(cls):
        return _dataclass_encoder(cls)
    if issubclass(cls, tuple):  # immutable, as the frozen dataclasses are
        return _kept(_items)
    if issubclass(cls, list):
        return _items
    if issubclass(cls, frozenset | set):
        return lambda value, reuse: sorted(to_data(v, reuse) for v in value)
    if issubclass(cls, dict):
        return lambda value, reuse: {str(k): to_data(v, reuse) for k, v in value.items()}
    return _as_is


def _items(value: Any, reuse: Reuse | None) -> Any:
    return [to_data(v, reuse) for v in value]


def _kept(encode: Encoder) -> Encoder:
    """`encode` for an immutable type: with a `Reuse`, the data it made last time for the same instance."""

    def encode_kept(value: Any, reuse: Reuse | None) -> Any:
        if reuse is None:
            return encode(value, None)
        data = reuse._get(value)
        if data is None:
            data = encode(value, reuse)
            reuse._put(value, data)
        return data

    return encode_kept


#: A field without a default (`_dataclass_encoder`'s plan).
_REQUIRED: Any = object()


def _field_defaults(cls: Any) -> tuple[tuple[str, Any], ...]:
    """Each field's name and default (`_REQUIRED` when it has none); a factory's default is made once here
    (the rules core's factories make empty collections and default values, never anything that changes)."""
    plan = []
    for f in dataclasses.fields(cls):
        if f.default is not dataclasses.MISSING:
            default = f.default
        elif f.default_factory is not dataclasses.MISSING:
            default = f.default_factory()
        else:
            default = _REQUIRED
        plan.append((f.name, default))
    return tuple(plan)


def _dataclass_encoder(cls: Any) -> Encoder:
    """A dataclass becomes a dict of its fields, leaving out each field that holds its default (an equal
    value of the same type): decoding gives a missing field its default, so the data means the same, and the
    stored state is a third as large (most of an encounter's fields hold their defaults most of the time)."""
    plan = _field_defaults(cls)

    def fields_of(value: Any, reuse: Reuse | None) -> dict[str, Any]:
        data = {}
        for name, default in plan:
            item = getattr(value, name)
            if default is _REQUIRED or type(item) is not type(default) or item != default:
                data[name] = to_data(item, reuse)
        return data

    if not cls.__dataclass_params__.frozen:  # a mutable instance may encode differently next time
        return fields_of
    return _kept(fields_of)


def from_data(tp: Any, data: Any) -> Any:
    """Rebuild a value of type `tp` from `to_data` output; missing dataclass fields take their defaults."""
    return _decoder(tp)(data)


def load(cls: type[T], data: Any) -> T:
    """Typed wrapper of `from_data` for a dataclass."""
    result: T = from_data(cls, data)
    return result


# --- decoders, planned once per type ---------------------------------------------------------------------
@cache
def _decoder(tp: Any) -> Decoder:
    origin = get_origin(tp)
    if origin in (Union, types.UnionType):
        return _union(tp)
    if origin is typing.Literal:
        return _literal(get_args(tp))
    if origin is tuple:
        args = get_args(tp)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda data: tuple(item(v) for v in data)
        items = tuple(_decoder(a) for a in args)
        return lambda data: tuple(dec(v) for dec, v in zip(items, data, strict=True))
    if origin is list:
        (arg,) = get_args(tp)
        element = _decoder(arg)
        return lambda data: [element(v) for v in data]
    if origin in (frozenset, set):
        (arg,) = get_args(tp)
        member = _decoder(arg)
        return lambda data: origin(member(v) for v in data)
    if origin is dict:
        kt, vt = get_args(tp)
        key, val = _decoder(kt), _decoder(vt)
        return lambda data: {key(k): val(v) for k, v in data.items()}
    if tp is Any:
        return _same
    if isinstance(tp, type):
        if issubclass(tp, enum.Enum):
            return tp
        if dataclasses.is_dataclass(tp):
            return _dataclass(tp)
        return _scalar(tp)
    return _same


def _same(data: Any) -> Any:
    return data


def _union(tp: Any) -> Decoder:
    args = get_args(tp)
    optional = type(None) in args
    members = tuple(_decoder(a) for a in args if a is not type(None))

    def decode(data: Any) -> Any:
        if data is None and optional:
            return None
        errors: list[Exception] = []
        for member in members:
            try:
                return member(data)
            except (TypeError, ValueError, KeyError) as exc:
                errors.append(exc)
        raise ValueError(f"no member of {tp} accepts {data!r}: {errors}")

    return decode


def _literal(allowed: tuple[Any, ...]) -> Decoder:
    def decode(data: Any) -> Any:
        if data not in allowed:
            raise ValueError(f"{data!r} is not one of {allowed}")
        return data

    return decode


def _dataclass(tp: type) -> Decoder:
    # the field plan is made on first use, so a dataclass may refer to itself (or a later one) in its hints
    plan: list[tuple[str, Decoder]] | None = None

    def decode(data: Any) -> Any:
        nonlocal plan
        if not isinstance(data, dict):
            raise TypeError(f"{tp.__name__} needs a mapping, not {type(data).__name__}")
        if plan is None:
            hints = get_type_hints(tp)
            plan = [(f.name, _decoder(hints[f.name])) for f in dataclasses.fields(tp) if f.init]
        return tp(**{name: dec(data[name]) for name, dec in plan if name in data})

    return decode


def _scalar(tp: type) -> Decoder:
    def decode(data: Any) -> Any:
        if isinstance(data, bool) and tp is not bool:
            raise TypeError(f"expected {tp.__name__}, got bool")
        if tp is float and isinstance(data, int):
            return float(data)
        if isinstance(data, tp):
            return data
        raise TypeError(f"expected {tp.__name__}, got {type(data).__name__}")

    return decode
