"""Structural diff of JSON data, used as the undo patch of every event.

`diff(a, b)` is `None` when `a` and `b` are identical (types included: `1`, `1.0` and `True` differ), else a
compact patch holding only what `a` had where it differs; `revert(b, diff(a, b))` rebuilds `a` exactly. The
patch format: docs/store.md, *Undo*.
"""

from __future__ import annotations

import marshal
import math
from typing import Any

Patch = dict[str, Any]


def _identical(a: dict[str, Any] | list[Any], b: Any) -> bool:
    """A quick, sound test that two containers are strictly the same (types included: `1`, `1.0` and `True`
    differ), mostly in C: `==`, which stops at the first difference and skips shared objects; then, for equal
    containers, `_strict`. False means "not known to be identical" (say, equal dicts in another order): the
    caller then compares item by item. Without this, diffing a 12-creature encounter walks every value in
    Python."""
    if a is b:
        return True
    if a != b:
        return False
    return _strict(a, b)


def _strict(a: Any, b: Any) -> bool:
    """For `a == b`: whether they are also strictly the same. Parts the two share (the same objects, as
    `codec.Reuse` makes them) are skipped; what is left is compared by its `marshal` encodings, which tell
    `1`, `1.0`, `True` and `-0.0` apart (and may differ for equal data by dict order or string interning:
    then False, "not known"). Where nothing below is shared, that is one encoding of each, in C."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        pairs = [(value, b[key]) for key, value in a.items()]
    elif isinstance(a, list):
        pairs = list(zip(a, b, strict=True))
    else:
        return _encoded_alike(a, b)
    apart = [(x, y) for x, y in pairs if x is not y]
    if len(apart) == len(pairs) and pairs:
        return _encoded_alike(a, b)
    return all(_strict(x, y) for x, y in apart)


def _encoded_alike(a: Any, b: Any) -> bool:
    try:
        return marshal.dumps(a) == marshal.dumps(b)
    except ValueError:  # not plain data
        return False


def _same(a: Any, b: Any) -> bool:
    """Strict structural equality: equal values of identical types all the way down."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict | list) and _identical(a, b):
        return True
    if isinstance(a, dict):
        if a.keys() != b.keys():
            return False
        return all(_same(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return _same_scalar(a, b)


def _same_scalar(a: Any, b: Any) -> bool:
    """Equal scalars of one type; `0.0` and `-0.0` differ."""
    return bool(a == b) and (type(a) is not float or math.copysign(1.0, a) == math.copysign(1.0, b))


def diff(a: Any, b: Any) -> Patch | None:
    """The patch that turns `b` back into `a`, or None when they are the same."""
    if type(a) is not type(b):
        return {"=": a}
    if isinstance(a, dict | list) and _identical(a, b):
        return None
    if isinstance(a, dict):
        nodes: dict[str, Any] = {}
        for key, old in a.items():
            if key not in b:
                nodes[key] = {"-": old}
            elif old is not (new := b[key]):  # a shared part needs no call
                sub = diff(old, new)
                if sub is not None:
                    nodes[key] = sub
        for key in b:
            if key not in a:
                nodes[key] = {"+": 0}
        return {"d": nodes} if nodes else None
    if isinstance(a, list):
        if len(a) == len(b):
            items: dict[str, Any] = {}
            for index, (x, y) in enumerate(zip(a, b, strict=True)):
                if x is not y:
                    sub = diff(x, y)
                    if sub is not None:
                        items[str(index)] = sub
            return {"l": items} if items else None
        start = 0
        limit = min(len(a), len(b))
        while start < limit and _same(a[start], b[start]):
            start += 1
        end = 0
        while end < limit - start and _same(a[len(a) - 1 - end], b[len(b) - 1 - end]):
            end += 1
        return {"r": [start, a[start : len(a) - end], len(b) - start - end]}
    if _same_scalar(a, b):
        return None
    return {"=": a}


def revert(b: Any, patch: Patch | None) -> Any:
    """Apply `patch` (from `diff(a, b)`) to `b` and return `a`; `b` itself is not modified."""
    if patch is None:
        return b
    if "=" in patch:
        return patch["="]
    if "d" in patch:
        if not isinstance(b, dict):
            raise ValueError("patch expects a mapping")
        result = dict(b)
        for key, node in patch["d"].items():
            if "-" in node:
                result[key] = node["-"]
            elif "+" in node:
                del result[key]
            else:
                result[key] = revert(b[key], node)
        return result
    if "l" in patch:
        if not isinstance(b, list):
            raise ValueError("patch expects a list")
        items = list(b)
        for index, node in patch["l"].items():
            items[int(index)] = revert(items[int(index)], node)
        return items
    if "r" in patch:
        if not isinstance(b, list):
            raise ValueError("patch expects a list")
        start, old, count = patch["r"]
        return [*b[:start], *old, *b[start + count :]]
    raise ValueError(f"unknown patch node {sorted(patch)}")
