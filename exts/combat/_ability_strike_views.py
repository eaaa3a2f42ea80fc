"""Renderer of a strike by ability (`/strike ability:`, `bot.rules.encounter.ability_strike`) and its one-line
event summary. Every name and card text goes through `bot.replies.inert`.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.replies import inert
from bot.rules.conditions import Duration
from bot.rules.encounter.ability_strike import AbilityStrike, Landed, Moved, Paid, TargetEffects
from bot.ui.combat import (
    CONTENT_MAX,
    DURATION_TEXT,
    SUMMARY_MAX,
    condition_words,
    dice_lines,
    situation_lines,
    strike_roll_line,
    strike_summary,
    target_line,
)

ARROW = "↳"
VILLAIN_LINE = "😈 Villain action: used for this encounter (one a round)"
COMPACT_EFFECTS = 80
"""A target's effects in one line of at most this many characters, when the reply turns compact."""


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def head_line(used: AbilityStrike) -> str:
    """`⚔️ **Keth** uses **Brutal Slam** (5/8/15 damage · Might · kit +0/+0/+4 · +1 from features · area)`."""
    plan, result = used.plan, used.strike
    parts: list[str] = []
    if result.damage is not None:
        parts.append(f"{result.damage.format()} damage")
    if result.surges:
        parts.append(f"{result.surges} surge{'s' if result.surges > 1 else ''}")
    if plan.characteristic is not None:
        parts.append(plan.characteristic.value.capitalize())
    if plan.kit is not None and result.damage is not None:
        parts.append("kit " + "/".join(f"+{n}" for n in plan.kit))
    if plan.bonus and result.damage is not None:
        parts.append(f"{plan.bonus:+d} from features")
    if plan.area:
        parts.append("area")
    details = f" ({' · '.join(parts)})" if parts else ""
    verb = "charges and strikes with" if used.charged else "uses"
    return f"⚔️ **{inert(result.attacker)}** {verb} **{inert(plan.ability.name)}**{details}"


def cost_line(paid: Paid) -> str:
    """`💠 3 Ferocity spent · 0 left` or `😈 3 Malice spent · 2 left`."""
    icon = "😈" if paid.what == "Malice" else "💠"
    return f"{icon} {paid.cost} {inert(paid.what)} spent · {paid.left} left"


def _landed_line(landed: Landed) -> str:
    effect = landed.effect
    if landed.added:
        words = ", ".join(condition_words(i) for i in landed.added)
    elif effect.conditions:
        duration = effect.duration if effect.duration is not None else Duration.UNTIL_REMOVED
        words = f"{', '.join(c.value for c in effect.conditions)} ({DURATION_TEXT[duration]})"
    else:
        words = inert(effect.unread)
    check = landed.check
    if check is None:
        already = "" if landed.added or not effect.conditions else " — already held for as long"
        return f"{ARROW} {words}{already}"
    test = effect.potency
    assert test is not None  # a check comes from the effect's potency
    letter = test.characteristic.letter
    head = f"{ARROW} {letter} < {check.potency}: {words}"
    if not check.lands:
        return f"{head} — resisted ({letter} {check.target_value})"
    if effect.conditions and not landed.added:
        return f"{head} — lands ({letter} {check.target_value}), already held for as long"
    by_hand = "" if effect.conditions else ", apply it by hand"
    return f"{head} — lands ({letter} {check.target_value}){by_hand}"


def _moved_line(moved: Moved) -> str:
    text = moved.movement.format()
    if moved.stability or moved.larger:
        text += f" → {moved.squares}"
        if moved.larger:
            text += " (larger, melee weapon)"
        text += f", stability {moved.stability}"
    return f"{ARROW} {text}"


def effect_lines(effects: TargetEffects) -> list[str]:
    """What the tier did to one target after the damage (nothing for a target the damage killed)."""
    if effects.dead:
        return []
    lines = [_landed_line(landed) for landed in effects.conditions]
    lines += [_moved_line(moved) for moved in effects.forced]
    lines += [f"{ARROW} {inert(text)}" for text in effects.rest]
    return lines


def ability_strike_reply(used: AbilityStrike, extra: Sequence[str] | None, hidden: Collection[str]) -> str:
    """The /strike ability: reply; `extra` is the `effect` option per tier, shown on each target's line; a
    target in `hidden` shows its state, not its Stamina.

    The reply: who uses which ability (its damage per tier, the characteristic, the kit bonus, the card's own
    damage bonus; a Charge names the free strike it makes), the roll line (`bot.ui.combat.strike_roll_line`),
    the damage dice a tier rolled (`bot.ui.combat.dice_lines`), a villain action marked used, the cost spent,
    then per target its line (`bot.ui.combat.target_line`) and under it what the tier did after the damage:
    conditions landed or resisted, forced movement after the size bonus and stability, and the rest of the
    tier's text verbatim. Past Discord's 2,000 characters the target lines turn compact and each target's
    effects share one clipped line."""
    result = used.strike
    top = [head_line(used), strike_roll_line(result), *situation_lines(result), *dice_lines(result)]
    if used.villain:
        top.append(VILLAIN_LINE)
    if used.paid is not None:
        top.append(cost_line(used.paid))
    if used.potency_raised is not None:
        top.append(f"2 surges raise the potency against **{inert(used.potency_raised)}**")
    body: list[str] = []
    for target, effects in zip(result.targets, used.effects, strict=True):
        effect = extra[target.tier - 1] if extra else None
        body.append(target_line(result, target, effect, hidden))
        body.extend(effect_lines(effects))
    full = "\n".join([*top, *body])
    if len(full) <= CONTENT_MAX:
        return full
    body = []
    for target, effects in zip(result.targets, used.effects, strict=True):
        body.append(target_line(result, target, None, hidden, compact=True))
        lines = [line.removeprefix(f"{ARROW} ") for line in effect_lines(effects)]
        if lines:
            body.append(_clip(f"{ARROW} {' · '.join(lines)}", COMPACT_EFFECTS))
    return _clip("\n".join([*top, *body]), CONTENT_MAX)


def ability_strike_summary(used: AbilityStrike) -> str:
    """`Keth strikes Goblin 1 (tier 3): 15 damage, Goblin 1 dies (Brutal Slam); Ogre is slowed; 3 Ferocity
    spent`."""
    name = f"Charge: {used.plan.ability.name}" if used.charged else used.plan.ability.name
    villain = ", villain action" if used.villain else ""
    parts = [f"{strike_summary(used.strike)} ({name}{villain})"]
    for effects in used.effects:
        landed = [i.condition.value for c in effects.conditions for i in c.added]
        if landed:
            parts.append(f"{effects.target} is {', '.join(landed)}")
    if used.paid is not None:
        parts.append(f"{used.paid.cost} {used.paid.what} spent")
    return _clip("; ".join(parts), SUMMARY_MAX)
