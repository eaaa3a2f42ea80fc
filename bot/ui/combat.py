"""Renderers of the combat action replies (/strike, /stamina, /recover, /condition, /save, /malice) and the
one-line event summaries a Director reads in the transcript.

Pure functions from the rules core's results to text, every name through `bot.replies.inert`, with the
contract labels (`Dice: 7 + 9`, `Total: 18`, `Tier 3`, `Critical`, `Stamina: 12/30`). Every reply that shows
Stamina takes `hidden` (no default): the creatures whose exact Stamina players don't see
(`bot.ui.format.hidden_stamina`), shown by their state instead.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from bot.replies import inert
from bot.rules.conditions import ConditionInstance, Duration
from bot.rules.damage import DamageType, Step
from bot.rules.encounter import Encounter
from bot.rules.encounter.bleeding import Bleed
from bot.rules.encounter.harm import Healing, Hit, SaveResult, StrikeResult, StrikeTarget
from bot.rules.encounter.rescue import RescueResult
from bot.rules.power import NetEdge, PowerRoll, shared_roll
from bot.rules.situations import SITUATIONS
from bot.rules.squads import Squad
from bot.rules.stamina import Vitals
from bot.rules.turns import ActionKind
from bot.ui.format import stamina_text, state_label

SUMMARY_MAX = 1900
CONTENT_MAX = 2000
COMPACT_NAME = 40
COMPACT_EFFECT = 120
DURATION_TEXT = {
    Duration.EOT: "until the end of its next turn (EoT)",
    Duration.END_OF_FIRST_ROUND: "until the end of the first round",
    Duration.SAVE: "save ends",
    Duration.ENCOUNTER: "until the end of the encounter",
    Duration.UNTIL_REMOVED: "until removed",
}
# what a roll's net edges and banes do (Draw Steel, The Basics, "Rolling With Edges and Banes")
NET_EDGE_TEXT = {
    NetEdge.EDGE: "edge (+2)",
    NetEdge.DOUBLE_EDGE: "double edge (tier +1)",
    NetEdge.BANE: "bane (−2)",
    NetEdge.DOUBLE_BANE: "double bane (tier −1)",
}


def _clip(text: str) -> str:
    return text if len(text) <= SUMMARY_MAX else text[: SUMMARY_MAX - 1] + "…"


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"−{-value}"


# --- rolls -----------------------------------------------------------------------------------------------
def roll_parts(roll: PowerRoll, tier: bool = True) -> list[str]:
    """The roll's parts: `Dice: 7 + 9`, the bonus, edges and banes, `Total: 18`, `Tier 3` (left out without
    `tier`), `Critical`."""
    parts = [f"Dice: {' + '.join(str(d) for d in roll.kept)}"]
    if roll.bonus:
        parts.append(f"bonus {_signed(roll.bonus)}")
    if roll.net in NET_EDGE_TEXT:
        parts.append(NET_EDGE_TEXT[roll.net])
    parts.append(f"Total: {roll.total}")
    if tier:
        parts.append(f"Tier {roll.tier}")
    if roll.critical:
        parts.append("Critical")
    return parts


def roll_line(roll: PowerRoll) -> str:
    """`Dice: 7 + 9 · bonus +2 · Total: 18 · Tier 3 · Critical`."""
    return " · ".join(roll_parts(roll))


# --- Stamina and damage ----------------------------------------------------------------------------------
def squad_stamina(squad: Squad) -> str:
    """A minion squad's shared pool as `Stamina: 5/12`."""
    return f"Stamina: {squad.pool}/{squad.minion_stamina * (len(squad.alive) + len(squad.dead))}"


def vitals_text(vitals: Vitals, hidden: bool) -> str:
    """`Stamina: 12/30 · winded` (the state left out when healthy); only the state when `hidden` (a monster
    whose exact Stamina players don't see: `bot.ui.format.hidden_stamina`)."""
    state = state_label(vitals)
    if hidden:
        return state
    return stamina_text(vitals) if state == "healthy" else f"{stamina_text(vitals)} · {state}"


def _step_notes(steps: Sequence[Step]) -> list[str]:
    return [s.note for s in steps if s.name not in ("Stamina", "squad pool") and s.note]


def damage_words(amount: int, dtype: DamageType) -> str:
    """`9 fire damage` / `9 damage`."""
    return f"{amount} damage" if dtype is DamageType.UNTYPED else f"{amount} {dtype.value} damage"


def hit_text(hit: Hit, surge_bonus: int, hidden: bool) -> str:
    """`9 fire damage (of 6: fire weakness 3) · Stamina: 1/10 · winded`, or for minions the pool and the
    dead; `surge_bonus` is named in the parentheses (`of 15 with surges +6`); `hidden`: the state, not the
    Stamina."""
    text = damage_words(hit.dealt, hit.dtype)
    notes = _step_notes(hit.steps)
    if hit.dealt != hit.incoming or notes or surge_bonus:
        surges = f" with surges +{surge_bonus}" if surge_bonus else ""
        text += f" (of {hit.incoming}{surges}" + (": " + inert(", ".join(notes)) if notes else "") + ")"
    if hit.squad_after is not None:
        if not hidden:
            text += f" · {squad_stamina(hit.squad_after)}"
        if hit.killed:
            names = ", ".join(inert(n) for n in hit.killed)
            text += f" · {len(hit.killed)} minion{'s' if len(hit.killed) > 1 else ''} killed: {names}"
        if hit.squad_after.defeated:
            text += " · squad defeated"
        return text
    if hit.after is not None:
        text += f" · {vitals_text(hit.after, hidden)}"
    return text


def _hit_summary(hit: Hit) -> str:
    text = damage_words(hit.dealt, hit.dtype)
    if hit.squad_after is not None:
        if hit.killed:
            count = len(hit.killed)
            text += f", {count} minion{'s' if count > 1 else ''} die ({', '.join(hit.killed)})"
        return text
    if hit.killed:
        return f"{text}, {hit.target} dies"
    if hit.knocked_out:
        return f"{text}, {hit.target} is knocked out"
    if hit.after is not None and hit.after.dying and not (hit.before is not None and hit.before.dying):
        return f"{text}, {hit.target} is dying"
    if hit.after is not None and hit.after.winded and not (hit.before is not None and hit.before.winded):
        return f"{text}, {hit.target} is winded"
    return text


def damage_reply(hit: Hit, hidden: Collection[str]) -> str:
    """`**Goblin 1** takes 9 damage · Stamina: 1/10 · winded`; `hidden`: whose Stamina shows as a state."""
    return f"**{inert(hit.target)}** takes {hit_text(hit, 0, hit.target in hidden)}"


def damage_summary(hit: Hit) -> str:
    return _clip(f"{hit.target} takes {_hit_summary(hit)}")


def bleed_reply(bled: Bleed, hidden: Collection[str]) -> str:
    """`🩸 **Ash** bleeds: loses 7 Stamina (d6 4 + level 3) · Stamina: -7/30 · dying`."""
    text = (
        f"🩸 **{inert(bled.target)}** bleeds: loses {bled.lost} Stamina (d6 {bled.roll} + level {bled.level})"
    )
    secret = bled.target in hidden
    if bled.squad_after is not None:
        if not secret:
            text += f" · {squad_stamina(bled.squad_after)}"
        if bled.killed:
            text += f" · minion killed: {', '.join(inert(n) for n in bled.killed)}"
        return text
    if bled.after is not None:
        text += f" · {vitals_text(bled.after, secret)}"
    return text


def bleed_summary(bled: Bleed) -> str:
    dies = f", {', '.join(bled.killed)} dies" if bled.killed else ""
    return _clip(
        f"{bled.target} bleeds: loses {bled.lost} Stamina (d6 {bled.roll} + level {bled.level}){dies}"
    )


def dying_warnings(encounter: Encounter, creature_ids: Collection[str], named: str = "") -> list[str]:
    """At the start of a turn, a line per dying hero acting: what bleeding costs them (Draw Steel, Combat,
    "Dying and Death": "you are bleeding"; Heroes, "Bleeding": a main action, a triggered action, or a test
    or ability roll using Might or Agility costs 1d6 + level Stamina once resolved) and where they die. The
    creature `named` (whose turn the message's first line names already) is not named again."""
    lines = []
    for creature in encounter.creatures:
        vitals = creature.vitals
        if creature.id in creature_ids and vitals.dying:
            who = "🩸 Dying" if creature.id == named else f"🩸 **{inert(creature.id)}** is dying"
            lines.append(
                f"{who} ({stamina_text(vitals)}) and bleeding: a main action, a triggered action, or a Might "
                f"or Agility test or ability roll costs 1d6 + {creature.level} Stamina once it is resolved; "
                f"death comes at {vitals.death_at} Stamina."
            )
    return lines


def rescue_reply(result: RescueResult, pool: int, hidden: Collection[str]) -> str:
    """`🛡️ **Ash** spends 2 hero tokens and regains 10 Stamina before the damage · Stamina: 8/30 · ...`."""
    secret = result.creature_id in hidden
    return (
        f"🛡️ **{inert(result.creature_id)}** spends 2 hero tokens and regains {result.regain} Stamina before "
        f"the damage · {vitals_text(result.after, secret)}"
        + ("" if secret else f" (was {result.before.stamina})")
        + f" · Hero tokens left: {pool}"
    )


def rescue_summary(result: RescueResult) -> str:
    return _clip(
        f"{result.creature_id} spent 2 hero tokens to regain {result.regain} Stamina before the damage: "
        f"Stamina {result.before.stamina} → {result.after.stamina}"
    )


# --- strikes ---------------------------------------------------------------------------------------------
def headline_roll(result: StrikeResult) -> PowerRoll:
    """The roll a strike's headline shows: with the edges and banes that apply to every target (a restrained
    attacker's bane among them: `bot.rules.power.shared_roll`)."""
    return shared_roll(result.roll, [t.roll for t in result.targets])


def strike_roll_line(result: StrikeResult) -> str:
    """A strike's headline roll: `Dice: 7 + 9 · bane (−2) · Total: 14 · Tier 2`, its edges and banes those
    every target has; its tier that of the targets whose lines show no total of their own (those with just
    these edges and banes), left out when there is none or they differ, so it is never a tier no target got;
    downgraded when theirs were."""
    shown = headline_roll(result)
    plain = [t for t in result.targets if (t.roll.edges, t.roll.banes) == (shown.edges, shown.banes)]
    tiers = {t.tier for t in plain}
    parts = roll_parts(shown, tier=False)
    if len(tiers) == 1:
        tier = tiers.pop()
        before = {t.roll.undowngraded_tier for t in plain}
        down = f" (downgraded from {before.pop()})" if len(before) == 1 and before != {tier} else ""
        parts.insert(len(parts) - (1 if shown.critical else 0), f"Tier {tier}{down}")
    return " · ".join(parts)


def target_line(
    result: StrikeResult,
    target: StrikeTarget,
    effect: str | None,
    hidden: Collection[str],
    compact: bool = False,
) -> str:
    """`**Goblin 1** — Tier 3: 9 fire damage · Stamina: 1/10` (its own total when its edges and banes differ
    from the headline's, `headline_roll`; Defend's and Aid Attack's reasons; the tier it was downgraded from;
    `compact`: the name clipped, no
    damage steps, no effect)."""
    own = target.roll
    name = (
        target.target
        if not compact or len(target.target) <= COMPACT_NAME
        else target.target[:COMPACT_NAME] + "…"
    )
    head = f"**{inert(name)}** — Tier {own.tier}"
    shown = headline_roll(result)
    extra = []
    if (own.edges, own.banes) != (shown.edges, shown.banes):
        extra.append(f"Total: {own.total}")
        if own.net in NET_EDGE_TEXT:
            extra.append(NET_EDGE_TEXT[own.net])
    # why this target's edges and banes are what they are, even when the headline shows them
    extra.extend(inert(reason) for reason in target.reasons)
    if own.downgraded_to is not None:
        extra.append(f"downgraded from tier {own.undowngraded_tier}")
    if extra:
        head += f" ({', '.join(extra)})"
    parts = [head]
    hit = target.hit
    secret = target.target in hidden
    if hit is not None and compact:
        left = squad_stamina(hit.squad_after) if hit.squad_after is not None and not secret else None
        left = left or (vitals_text(hit.after, secret) if hit.after is not None else "")
        killed = f" · {len(hit.killed)} killed" if hit.squad_after is not None and hit.killed else ""
        parts.append(f"{damage_words(hit.dealt, hit.dtype)}{' · ' + left if left else ''}{killed}")
    elif hit is not None:
        parts.append(hit_text(hit, target.surge_bonus, secret))
    if hit is None and target.pool is not None and target.amount:
        parts.append(f"{target.amount} damage, to {inert(target.pool)}'s pool with the others")
    if effect and not compact:
        parts.append(f"effect: {inert(effect)}")
    return ": ".join(parts[:2]) + ("" if len(parts) < 3 else f" · {parts[2]}")


def strike_reply(result: StrikeResult, effects: Sequence[str] | None, hidden: Collection[str]) -> str:
    """The /strike reply: who strikes with what, the roll line, then one line per target (each with its
    tier's effect; a target in `hidden` shows its state, not its Stamina). Past Discord's 2,000 characters
    it turns compact: no damage steps, and each reached tier's effect once at the end (clipped)."""
    head = f"⚔️ **{inert(result.attacker)}** strikes"
    if result.damage is not None:
        head += f" ({inert(result.damage.format())}"
        head += f", {result.surges} surge{'s' if result.surges > 1 else ''})" if result.surges else ")"
    lines = [head, strike_roll_line(result), *situation_lines(result), *dice_lines(result)]
    for target in result.targets:
        effect = effects[target.tier - 1] if effects else None
        lines.append(target_line(result, target, effect, hidden))
    full = "\n".join(lines)
    if len(full) <= CONTENT_MAX:
        return full
    compact = (target_line(result, t, None, hidden, compact=True) for t in result.targets)
    lines = [head, strike_roll_line(result), *situation_lines(result), *dice_lines(result), *compact]
    if effects:
        for tier in sorted({t.tier for t in result.targets}):
            text = effects[tier - 1]
            text = text if len(text) <= COMPACT_EFFECT else text[: COMPACT_EFFECT - 1] + "…"
            lines.append(f"Tier {tier} effect: {inert(text)}")
    return "\n".join(lines)


def situation_lines(result: StrikeResult) -> list[str]:
    """`Situations: flanking (edge), cover (bane)` when the strike named any (`bot.rules.situations`)."""
    if not result.situations:
        return []
    named = ", ".join(f"{s.value} ({SITUATIONS[s].effect})" for s in result.situations)
    return [f"Situations: {named}"]


def dice_lines(result: StrikeResult) -> list[str]:
    """`🎲 Tier 2 damage: 2d6 [3, 5] + 14 = 22`: each tier whose damage dice the strike rolled, once (every
    target at that tier took that roll)."""
    rolled = {t.tier: t.rolled for t in result.targets if t.rolled is not None}
    return [f"🎲 Tier {tier} damage: {rolled[tier].format()}" for tier in sorted(rolled)]


def strike_summary(result: StrikeResult) -> str:
    """`Ash strikes Goblin 1 (tier 3): 9 fire damage, Goblin 1 dies; Goblin 2 (tier 2): 6 fire damage`; a
    tier's damage dice as rolled: `Goblin 1 (tier 2, rolled 2d6 [3, 5] + 14 = 22): 22 damage`."""
    parts = []
    for target in result.targets:
        rolled = f", rolled {target.rolled.format()}" if target.rolled is not None else ""
        down = f", downgraded from {target.roll.undowngraded_tier}" if target.roll.downgraded_to else ""
        text = f"{target.target} (tier {target.tier}{down}{rolled})"
        if target.hit is not None:
            text += f": {_hit_summary(target.hit)}"
        elif target.pool is not None and target.amount:
            text += f": {target.amount} damage to {target.pool}'s pool"
        parts.append(text)
    surges = f" ({result.surges} surge{'s' if result.surges > 1 else ''} spent)" if result.surges else ""
    return _clip(f"{result.attacker} strikes " + "; ".join(parts) + surges)


# --- healing, temporary Stamina, set, Catch Breath -------------------------------------------------------
def healing_reply(change: Healing, verb: str, hidden: Collection[str]) -> str:
    """`**Ash** regains 5 Stamina · Stamina: 20/30` (verb: "regains 5 Stamina", "catches their breath");
    a creature in `hidden` shows its state, not its Stamina."""
    secret = change.target in hidden
    was = f" (was {change.before.stamina})" if change.before.stamina != change.after.stamina else ""
    return f"**{inert(change.target)}** {verb} · {vitals_text(change.after, secret)}{'' if secret else was}"


def temporary_verb(change: Healing, amount: int) -> str:
    """What gaining `amount` temporary Stamina did: "gains 5 temporary Stamina", or, with some already, which
    stays: "keeps 5 temporary Stamina (the higher of 5 and 3)" (Draw Steel, Combat, "Temporary Stamina":
    "you get whichever amount of temporary Stamina is greater, rather than adding the two pools together")."""
    had, now = change.before.temporary, change.after.temporary
    if had == 0:
        return f"gains {amount} temporary Stamina"
    return f"keeps {now} temporary Stamina (the higher of {max(amount, had)} and {min(amount, had)})"


def catch_breath_reply(change: Healing, cost: ActionKind, hidden: Collection[str]) -> str:
    """`**Ash** catches their breath (1 Recovery) · Stamina: 20/30`; in the games without maneuvers (teams,
    fast/slow: `cost` is their action, `bot.rules.turns.maneuver_kind`) it says what it cost."""
    text = healing_reply(change, "catches their breath (1 Recovery)", hidden)
    if cost is ActionKind.ACTION:
        text += "\nThis game has no maneuvers, so Catch Breath costs an action."
    return text


def healing_summary(change: Healing, verb: str) -> str:
    return _clip(f"{change.target} {verb}: Stamina {change.before.stamina} → {change.after.stamina}")


# --- conditions and saves --------------------------------------------------------------------------------
def condition_words(instance: ConditionInstance) -> str:
    """`slowed (save ends)` (the label made inert: a custom condition's name is user text)."""
    return f"{inert(instance.label)} ({DURATION_TEXT[instance.duration]})"


def condition_reply(target: str, instance: ConditionInstance | None, label: str) -> str:
    if instance is None:
        return f"**{inert(target)}** is already {inert(label)} for at least as long: nothing changes."
    source = f" by {inert(instance.source_id)}" if instance.source_id else ""
    return f"**{inert(target)}** is {condition_words(instance)}{source}."


def save_reply(result: SaveResult) -> str:
    """`🎲 Ogre saves against slowed: d10 7 — success, slowed ends.`"""
    verdict = f"success, {inert(result.label)} ends" if result.success else "fails (needs 6 or higher)"
    label = inert(result.label)
    return f"🎲 **{inert(result.target)}** saves against {label}: d10 **{result.roll}** — {verdict}."


def save_summary(result: SaveResult) -> str:
    verdict = "ends it" if result.success else "fails"
    return _clip(f"{result.target} saves against {result.label}: d10 {result.roll}, {verdict}")


# --- Malice ----------------------------------------------------------------------------------------------
def malice_reply(value: int, change: int = 0) -> str:
    """`😈 Malice: 7` (with `(+3)` / `(−2)` after a change)."""
    return f"😈 Malice: **{value}**" + (f" ({_signed(change)})" if change else "")


# --- Defend and Aid Attack -------------------------------------------------------------------------------
def defend_reply(creature: str) -> str:
    """`🛡️ **Ash** defends: ability rolls against them have a double bane until the start of their next
    turn.` (Draw Steel, Combat, "Defend")."""
    return (
        f"🛡️ **{inert(creature)}** defends: ability rolls against them have a double bane until the start of "
        "their next turn (none while they have someone taunted)."
    )


def aid_reply(aider: str, enemy: str) -> str:
    """`🤝 **Ash** aids the attack on **Goblin 1**: ...` (Draw Steel, Combat, "Aid Attack")."""
    return (
        f"🤝 **{inert(aider)}** aids the attack on **{inert(enemy)}**: the next ability roll an ally makes "
        f"against them before the start of {inert(aider)}'s next turn gains an edge."
    )


def baseline_words(encounter: Encounter, creature_id: str) -> list[str]:
    """What the tracker shows beside a creature while its Defend or Aid Attack lasts: `defending`,
    `aiding vs Goblin 1` (`bot.rules.encounter.baseline`; names inert)."""
    words: list[str] = []
    entry = next((e for e in encounter.turns.entries if creature_id in e.creature_ids), None)
    if entry is not None and entry.id in encounter.defending:
        words.append("🛡️ defending")
    present = {c.id for c in encounter.creatures}
    words.extend(
        f"🤝 aiding vs {inert(a.enemy)}"
        for a in encounter.aids
        if a.aider == creature_id and a.enemy in present
    )
    return words
