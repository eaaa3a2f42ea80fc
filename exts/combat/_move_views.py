"""Renderer of the /move replies: a collision and the damage each creature took.

`💥 **Goblin 1** slams into **Goblin 2** with 3 squares of forced movement left` then one line per creature
(`bot.ui.combat.damage_reply`); every name goes through `bot.replies.inert`.
"""

from __future__ import annotations

from collections.abc import Collection

from bot.replies import inert
from bot.rules.encounter.slam import SlamResult
from bot.rules.forced import Into
from bot.ui.combat import damage_reply, damage_summary


def _squares(count: int) -> str:
    return f"{count} square{'s' if count != 1 else ''}"


def slam_head(name: str, result: SlamResult, other: str | None) -> str:
    left = f"with {_squares(result.remaining)} of forced movement left"
    if result.into is Into.CREATURE:
        into = f"**{inert(other)}**" if other else "a creature"
        return f"💥 **{inert(name)}** slams into {into} {left}: each takes {result.slam.other_damage} damage"
    if result.material is None:
        return f"💥 **{inert(name)}** slams into an object {left}: 2 + 1 per square"
    thick = f"{_squares(result.thickness)} of {result.material.value}"
    text = (
        f"💥 **{inert(name)}** is hurled into {thick} {left}: breaks {_squares(result.slam.squares_broken)}"
    )
    if result.slam.remaining:
        text += f", {_squares(result.slam.remaining)} of forced movement still to use"
    return text


def slam_reply(name: str, result: SlamResult, other: str | None, hidden: Collection[str]) -> str:
    """The head line, then each creature's damage."""
    return "\n".join([slam_head(name, result, other), *(damage_reply(h, hidden) for h in result.hits)])


def slam_summary(name: str, result: SlamResult) -> str:
    return f"{name} slammed ({result.into.value}, {result.remaining} left): " + "; ".join(
        damage_summary(h) for h in result.hits
    )
