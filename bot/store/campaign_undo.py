"""What an encounter's undo may do to the campaign's values (the hero-token pool and the roster), which other
channels and commands change too: they are taken back as a difference, or only while unchanged since, never
restored to an old value over what changed meanwhile (docs/store.md, *Undo*).

`guarded` writes a change's campaign parts at commit; `reverted` is undo's side: the encounter's part
reverted as `patch.revert` does, the campaign's as above, or `CannotUndo` with the reason in one line.
"""

from __future__ import annotations

import hashlib
from typing import Any

import orjson

from bot.store import validate
from bot.store.errors import CannotUndo
from bot.store.patch import Patch, revert

#: The parts of a channel's snapshot its campaign owns (the rest is the channel's encounter).
CAMPAIGN = ("tokens", "heroes")


def fingerprint(hero: dict[str, Any] | None) -> str | None:
    """A roster hero's row (owner, name, data) in a few bytes; None for no hero. Keys are sorted: equal rows
    give equal fingerprints whatever order their dicts were built in."""
    if hero is None:
        return None
    encoded = orjson.dumps(hero, option=orjson.OPT_SORT_KEYS)
    return hashlib.blake2b(encoded, digest_size=16).hexdigest()


def guarded(patch: Patch | None, after: dict[str, Any]) -> Patch | None:
    """An encounter change's patch (`diff(before, after)` of two snapshots) with its campaign parts in the
    form undo can apply over later changes: the pool as the difference the change made (`{"delta": old -
    new}`), the roster's node as `diff` gives it plus a fingerprint of each hero it touched as the change left
    it (None: removed), `{"d": {hero_id: node}, "after": {hero_id: fingerprint}}`."""
    nodes = None if patch is None else patch.get("d")
    if not nodes or not any(part in nodes for part in CAMPAIGN):
        return patch
    nodes = dict(nodes)
    if "tokens" in nodes:
        nodes["tokens"] = {"delta": nodes["tokens"]["="] - after["tokens"]}
    if "heroes" in nodes:
        touched = nodes["heroes"]["d"]
        left = {hero_id: fingerprint(after["heroes"].get(hero_id)) for hero_id in touched}
        nodes["heroes"] = {"d": touched, "after": left}
    return {"d": nodes}


def touches_encounter(patch: Patch | None) -> bool:
    """Whether a change (its patch) changed the channel's encounter: only such changes are the encounter's
    to undo."""
    return patch is not None and "encounter" in patch.get("d", {})


def reverted(snap: dict[str, Any], patch: Patch | None, seq: int) -> dict[str, Any]:
    """`snap` (the channel as it is now, not modified) with change #`seq`'s `patch` taken back: the encounter
    exactly, the pool by the difference, the heroes it touched only if unchanged since; else `CannotUndo`."""
    nodes = dict((patch or {}).get("d", {}))
    campaign = {part: nodes.pop(part) for part in CAMPAIGN if part in nodes}
    restored = dict(revert(snap, {"d": nodes} if nodes else None))
    if "tokens" in campaign:
        restored["tokens"] = _pool(snap["tokens"], campaign["tokens"], seq)
    if "heroes" in campaign:
        restored["heroes"] = _roster(snap["heroes"], campaign["heroes"], seq)
    return restored


def _pool(tokens: int, node: dict[str, Any], seq: int) -> int:
    if "delta" not in node:  # a change saved with the pool's old value only
        raise CannotUndo(
            f"Change #{seq} can't be undone: it set the hero-token pool outright, which may have changed "
            "since (a server Director sets it with /tokens)."
        )
    pool = tokens + int(node["delta"])
    if pool < 0:
        raise CannotUndo(
            f"Change #{seq} can't be undone: it would take {-int(node['delta'])} hero token(s) back, "
            f"and the pool has {tokens}."
        )
    if pool > validate.TOKEN_LIMIT:
        raise CannotUndo(f"Change #{seq} can't be undone: the hero-token pool would pass its limit.")
    return pool


def _roster(heroes: dict[str, Any], node: dict[str, Any], seq: int) -> dict[str, Any]:
    left = node.get("after")
    if left is None:  # a change saved without what it left
        raise CannotUndo(
            f"Change #{seq} can't be undone: it changed the roster, which may have changed since."
        )
    for hero_id, expected in left.items():
        now = heroes.get(hero_id)
        if fingerprint(now) != expected:
            name = "a hero" if now is None else now["name"]
            raise CannotUndo(
                f"Change #{seq} can't be undone: {name} changed on the roster since "
                "(a sheet edit, a claim, another channel's fight); fix the sheet with /hero edit instead."
            )
    restored: dict[str, Any] = revert(heroes, {"d": node["d"]})
    return restored
