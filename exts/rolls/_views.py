"""The renderer of a power roll reply (`/roll`): its text, its embed, its buttons and their custom ids. The
rules come from `bot.rules.power` (Draw Steel, The Basics, "Power Rolls"; "Hero Tokens" for the reroll); the
contract labels `Dice: 7 + 9`, `Total: 18`, `Tier 3` and `Critical` stand each on its own line of the embed
and again, joined by " · ", in the message content. `RollCard` is the roll as the store keeps it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Literal, Protocol

import discord

from bot.embeds import Colour, Field, make_embed
from bot.replies import UserError, inert
from bot.rules.characteristics import CHARACTERISTIC_MAX, CHARACTERISTIC_MIN, Characteristic
from bot.rules.errors import RuleError
from bot.rules.power import Difficulty, NetEdge, PowerRoll, RollAction, RollKind
from bot.rules.situations import SITUATIONS, RollUse, Situation, situation_modifiers
from bot.ui.combat import NET_EDGE_TEXT

LABEL_MAX = 100
TIERS_MAX = 300
BONUS_LIMIT = 99
EDGES_MAX = 10
OUTCOMES_FIELD = "Outcomes"
ROLLER_FIELD = "Rolled by"
NOTES_FIELD = "Notes"
DEFAULT_TITLES = {RollKind.ABILITY: "Power roll", RollKind.TEST: "Test"}

#: The roll id; an older bot wrote the whole roll here, which still matches, to be told in one line that it
#: can't be read any more (`CardError`).
_STATE = r"[0-9A-Za-z:\-]{1,90}"
DOWNGRADE_TEMPLATE = rf"roll:dg:(?P<to>[12]):(?P<state>{_STATE})"
REROLL_TEMPLATE = rf"roll:rr:(?P<state>{_STATE})"

_KINDS = {RollKind.ABILITY: "a", RollKind.TEST: "t"}
_DIFFICULTIES = {Difficulty.EASY: "e", Difficulty.MEDIUM: "m", Difficulty.HARD: "h"}
_CARD = re.compile(
    r"(?P<d1>10|[1-9])-(?P<d2>10|[1-9])"
    r":(?P<bonus>-?[0-9]{1,2})"
    r":(?P<char>x|[MARIP]-?[0-9]{1,2})"
    r":(?P<edges>[0-9]{1,2}):(?P<banes>[0-9]{1,2})"
    r":(?P<auto>0|[1-3]{1,4})"
    r":(?P<kind>[at])(?P<difficulty>[emhx])"
    r":(?P<roller>[0-9]{1,20})"
    r":(?P<down>[0-2])(?P<rerolled>[01])"
    r"(?::(?P<action>[mntx])(?P<situations>[fhcvs]{0,5}))?"
)
_ACTIONS = {
    RollAction.MAIN: "m",
    RollAction.MANEUVER: "n",
    RollAction.TRIGGERED: "t",
    RollAction.FREE_STRIKE: "x",
}
_SITUATIONS = {
    Situation.FLANKING: "f",
    Situation.HIGH_GROUND: "h",
    Situation.COVER: "c",
    Situation.CONCEALMENT: "v",
    Situation.SQUEEZED: "s",
}


class CardError(UserError):
    """A roll button whose custom id can't be read (tampered with, or from an older bot)."""

    def __init__(self) -> None:
        super().__init__("This roll's buttons can't be read any more: make a new roll with /roll.")


@dataclass(frozen=True, slots=True)
class RollCard:
    """Everything a power roll reply shows, except its free text: what the buttons carry.

    `bonus` is the option `bonus` alone; the characteristic's score is kept apart so the reply can name it.
    `downgraded_to` is the tier the roller chose below the rolled one; `rerolled` is True once a hero token
    rerolled this test (one benefit per test: the new roll has no Reroll button). `auto_tiers` are the
    automatic tiers named (one per effect), `action` what the roll is made as (a critical needs a main
    action), `situations` the situations named (their edges and banes are added to `edges` and `banes`).
    """

    dice: tuple[int, int]
    roller_id: int
    bonus: int = 0
    characteristic: Characteristic | None = None
    characteristic_score: int = 0
    edges: int = 0
    banes: int = 0
    auto_tiers: tuple[int, ...] = ()
    kind: RollKind = RollKind.ABILITY
    difficulty: Difficulty | None = None
    downgraded_to: int | None = None
    rerolled: bool = False
    action: RollAction = RollAction.MAIN
    situations: tuple[Situation, ...] = ()

    @property
    def situation_counts(self) -> tuple[int, int]:
        """(edges, banes) the named situations give (`bot.rules.situations`; refused on a test they don't
        apply to)."""
        return situation_modifiers(self.situations, RollUse(test=self.kind is RollKind.TEST))

    @property
    def roll(self) -> PowerRoll:
        """The rules core's power roll; an ability roll made as a main action (the default) can be a critical
        hit."""
        edges, banes = self.situation_counts
        return PowerRoll(
            dice=self.dice,
            bonus=self.bonus + self.characteristic_score,
            edges=self.edges + edges,
            banes=self.banes + banes,
            auto_tiers=self.auto_tiers,
            kind=self.kind,
            main_action=self.kind is RollKind.ABILITY and self.action.main_action,
            downgraded_to=self.downgraded_to,
        )

    def downgrade(self, tier: int) -> RollCard:
        """The same roll with a lower tier chosen (the rules core refuses a tier that isn't lower)."""
        return replace(self, downgraded_to=self.roll.downgrade(tier).downgraded_to)

    def encode(self) -> str:
        """The compact form carried in the buttons' custom ids."""
        char = "x"
        if self.characteristic is not None:
            char = f"{self.characteristic.letter}{self.characteristic_score}"
        difficulty = "x" if self.difficulty is None else _DIFFICULTIES[self.difficulty]
        autos = "".join(str(t) for t in self.auto_tiers) or "0"
        text = (
            f"{self.dice[0]}-{self.dice[1]}:{self.bonus}:{char}:{self.edges}:{self.banes}"
            f":{autos}:{_KINDS[self.kind]}{difficulty}:{self.roller_id}"
            f":{self.downgraded_to or 0}{int(self.rerolled)}"
        )
        if self.action is RollAction.MAIN and not self.situations:
            return text  # the form older bots wrote
        return f"{text}:{_ACTIONS[self.action]}" + "".join(_SITUATIONS[s] for s in self.situations)

    @classmethod
    def decode(cls, text: str) -> RollCard:
        """Read `encode`'s form back; `CardError` when it isn't one."""
        match = _CARD.fullmatch(text)
        if match is None:
            raise CardError()
        char_text = match["char"]
        characteristic = None
        score = 0
        if char_text != "x":
            characteristic = next(c for c in Characteristic if c.letter == char_text[0])
            score = int(char_text[1:])
        kind = next(k for k, v in _KINDS.items() if v == match["kind"])
        difficulty = next((d for d, v in _DIFFICULTIES.items() if v == match["difficulty"]), None)
        numbers_ok = (
            CHARACTERISTIC_MIN <= score <= CHARACTERISTIC_MAX
            and -BONUS_LIMIT <= int(match["bonus"]) <= BONUS_LIMIT
            and int(match["edges"]) <= EDGES_MAX
            and int(match["banes"]) <= EDGES_MAX
        )
        if not numbers_ok:
            raise CardError()
        card = cls(
            dice=(int(match["d1"]), int(match["d2"])),
            roller_id=int(match["roller"]),
            bonus=int(match["bonus"]),
            characteristic=characteristic,
            characteristic_score=score,
            edges=int(match["edges"]),
            banes=int(match["banes"]),
            auto_tiers=tuple(int(t) for t in match["auto"] if t != "0"),
            kind=kind,
            difficulty=difficulty,
            downgraded_to=int(match["down"]) or None,
            rerolled=match["rerolled"] == "1",
            action=next((a for a, v in _ACTIONS.items() if v == match["action"]), RollAction.MAIN),
            situations=tuple(
                s for letter in match["situations"] or "" for s, v in _SITUATIONS.items() if v == letter
            ),
        )
        try:
            card.roll  # noqa: B018 - validates the combination (a downgrade below the rolled tier, ...)
        except RuleError:
            raise CardError() from None
        return card


@dataclass(frozen=True, slots=True)
class RollText:
    """The roll's free text, already made inert (safe to show): its label and its three tier outcomes."""

    label: str | None = None
    tiers: tuple[str, str, str] | None = None

    @classmethod
    def from_input(cls, label: str | None, tiers: str | None) -> RollText:
        """From the options as typed: whitespace collapsed, inert; `UserError` for over-long or bad text."""
        clean_label = " ".join((label or "").split())
        if len(clean_label) > LABEL_MAX:
            raise UserError(f"Keep the label to {LABEL_MAX} characters or fewer, e.g. label:Mind Spike.")
        clean_tiers = " ".join((tiers or "").split())
        if len(clean_tiers) > TIERS_MAX:
            raise UserError(
                f"Keep tiers to {TIERS_MAX} characters or fewer, e.g. tiers:2 damage; 5 damage; 7 damage."
            )
        parts: tuple[str, str, str] | None = None
        if clean_tiers:
            parts = _split_tiers(inert(clean_tiers))
            if parts is None:
                raise UserError(
                    "Give the three outcomes separated by semicolons, e.g. "
                    "tiers:2 damage; 5 damage; 7 damage."
                )
        return cls(inert(clean_label) if clean_label else None, parts)


def _split_tiers(text: str) -> tuple[str, str, str] | None:
    parts = [part.strip() for part in text.split(";")]
    if len(parts) != 3 or not all(parts):
        return None
    return parts[0], parts[1], parts[2]


class HasEmbeds(Protocol):
    """What `read_text` needs of a message (a `discord.Message`)."""

    @property
    def embeds(self) -> Sequence[discord.Embed]: ...


def read_text(message: HasEmbeds | None, kind: RollKind) -> RollText:
    """The label and tier outcomes a roll reply shows (its embed's title and Outcomes field)."""
    if message is None or not message.embeds:
        return RollText()
    embed = message.embeds[0]
    title = embed.title or ""
    label = title if title and title != DEFAULT_TITLES[kind] else None
    tiers = next((_split_tiers(f.value or "") for f in embed.fields if f.name == OUTCOMES_FIELD), None)
    return RollText(label, tiers)


# --- words --------------------------------------------------------------------------------------------------
def _signed(value: int) -> str:
    return f"{value:+d}"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def edge_words(card: RollCard) -> str | None:
    """What the edges and banes (the situations' included) did ("Rolling With Edges and Banes"): +2 / −2,
    tier +1 / −1 (`bot.ui.combat.NET_EDGE_TEXT`), or cancelled."""
    roll = card.roll
    e, b = roll.edges, roll.banes
    if not e and not b:
        return None
    given = " and ".join(x for x in (_count(e, "edge") if e else "", _count(b, "bane") if b else "") if x)
    net = roll.net
    if net is NetEdge.NONE:
        return f"{given} cancel out"
    effect = NET_EDGE_TEXT[net]
    if (e, b) in ((1, 0), (0, 1), (2, 0), (0, 2)):
        return effect
    return f"{given}: {effect}"


def modifier_words(card: RollCard) -> list[str]:
    """Every modifier of the roll, in order: characteristic, bonus or penalty, the situations by name
    (`flanking (edge)`), edges and banes."""
    words: list[str] = []
    if card.characteristic is not None:
        words.append(f"{card.characteristic.value.capitalize()} {_signed(card.characteristic_score)}")
    if card.bonus > 0:
        words.append(f"bonus {_signed(card.bonus)}")
    elif card.bonus < 0:
        words.append(f"penalty {_signed(card.bonus)}")
    words.extend(f"{s.value} ({SITUATIONS[s].effect})" for s in card.situations)
    edges = edge_words(card)
    if edges:
        words.append(edges)
    return words


def outcome_words(card: RollCard) -> str | None:
    """A test's outcome at its difficulty (or at each difficulty when none was given)."""
    roll = card.roll
    if card.kind is not RollKind.TEST:
        return None
    if card.difficulty is not None:
        return f"{roll.outcome(card.difficulty).value} ({card.difficulty.value})"
    return ", ".join(f"{d.value}: {roll.outcome(d).value}" for d in Difficulty)


def notes(card: RollCard) -> list[str]:
    """Why the tier is what it is, when it isn't just the total."""
    roll = card.roll
    out: list[str] = []
    natural = roll.natural
    if natural >= 19:
        if roll.critical:
            kept = ", kept after the downgrade" if card.downgraded_to is not None else ""
            out.append(f"Natural {natural}: tier 3 and a critical hit, you get an extra main action{kept}.")
        elif card.kind is RollKind.ABILITY:
            out.append(
                f"Natural {natural}: tier 3; no critical hit, which needs a main action ({card.action})."
            )
        elif card.downgraded_to is not None:
            out.append(f"Natural {natural}, downgraded: the lower tier's outcome is chosen.")
        else:
            out.append(f"Natural {natural}: tier 3 and a success with a reward.")
        if card.auto_tiers:
            out.append("A natural 19 or 20 beats the automatic outcome.")
    elif roll.automatic_tier is not None:
        out.append(
            f"Automatic outcome: tier {roll.automatic_tier}, whatever the total, edges, banes and bonuses."
        )
    elif card.auto_tiers:
        named = ", ".join(str(t) for t in card.auto_tiers)
        out.append(f"Automatic outcomes {named} differ: they cancel, and none applies.")
    if roll.edges > 2 or roll.banes > 2:
        out.append("More than 2 edges or banes count as 2.")
    return out


# --- the reply ----------------------------------------------------------------------------------------------
def summary(card: RollCard) -> list[str]:
    """The contract labels in order: `Dice: 7 + 9`, `Total: 18`, `Tier 3`, then `Critical` and the rest."""
    roll = card.roll
    dice = " + ".join(str(d) for d in roll.kept)
    parts = [f"Dice: {dice}", f"Total: {roll.total}", f"Tier {roll.tier}"]
    if roll.critical:
        parts.append("Critical")
    if roll.natural < 19 and roll.automatic_tier is not None:
        parts.append("automatic")
    if card.downgraded_to is not None:
        parts.append(f"downgraded from tier {roll.undowngraded_tier}")
    outcome = outcome_words(card)
    if outcome and card.difficulty is not None:
        parts.append(outcome)
    return parts


def render_roll(
    card: RollCard, text: RollText, roller: str, note: str | None = None
) -> tuple[str, discord.Embed]:
    """The reply's one-line content and its embed. `roller` is the roller's display name (made inert here);
    `note` an extra line (e.g. the hero token a reroll spent)."""
    roll = card.roll
    who = inert(roller)
    title = text.label or DEFAULT_TITLES[card.kind]
    lines = [f"Dice: {' + '.join(str(d) for d in roll.kept)}"]
    modifiers = modifier_words(card)
    lines.append(f"Modifiers: {', '.join(modifiers) if modifiers else 'none'}")
    lines.append(f"Total: {roll.total}")
    lines.append(f"Tier {roll.tier}")
    if card.downgraded_to is not None:
        lines.append(f"Downgraded from tier {roll.undowngraded_tier}")
    if roll.critical:
        lines.append("Critical")
    if roll.natural < 19 and roll.automatic_tier is not None:
        lines.append("Automatic outcome")
    outcome = outcome_words(card)
    if outcome:
        lines.append(f"Result: {outcome}")
    if text.tiers is not None:
        lines.append(f"Outcome: **{text.tiers[roll.tier - 1]}**")
    fields = [Field(ROLLER_FIELD, who, inline=True)]
    if text.tiers is not None:
        fields.append(Field(OUTCOMES_FIELD, "; ".join(text.tiers)))
    extra = notes(card)
    if card.rerolled:
        extra.append(note or "Rerolled with a hero token (the new roll stands).")
    elif note:
        extra.append(note)
    if extra:
        fields.append(Field(NOTES_FIELD, "\n".join(extra)))
    colour = Colour.WARNING if roll.critical else Colour.HEROES if card.kind is RollKind.TEST else Colour.INFO
    embed = make_embed(title, "\n".join(lines), colour=colour, fields=fields)
    content = f"🎲 {who} · {title} · " + " · ".join(summary(card))
    return content, embed


# --- buttons ------------------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ButtonSpec:
    """One button of the reply: what it says, its custom id, its style, and what it does (`tier` is the
    downgrade's tier; None for the reroll)."""

    label: str
    custom_id: str
    tier: int | None = None
    style: Literal["secondary", "primary"] = "secondary"


def downgrade_id(roll_id: int, tier: int) -> str:
    return f"roll:dg:{tier}:{roll_id}"


def reroll_id(roll_id: int) -> str:
    return f"roll:rr:{roll_id}"


def roll_buttons(card: RollCard, roll_id: int) -> list[ButtonSpec]:
    """The reply's buttons for the roll kept as `roll_id`: "Downgrade to tier N" for each lower tier, and
    "Reroll (hero token)" on a test not yet rerolled."""
    buttons = [
        ButtonSpec(f"Downgrade to tier {tier}", downgrade_id(roll_id, tier), tier)
        for tier in range(card.roll.tier - 1, 0, -1)
    ]
    if card.kind is RollKind.TEST and not card.rerolled:
        buttons.append(ButtonSpec("Reroll (hero token)", reroll_id(roll_id), None, "primary"))
    return buttons
