"""The tracker's controls: persistent buttons (Act / End turn / Undo / Save) and the select menu of who may
act, each carrying the encounter id and the channel's state version in its custom id (Act, End turn, Save
and the select also the moment they were made for: `moment`); plus the buttons of the who-goes-first choice,
of the end-of-encounter confirmation and of the Director's private tracker. The tracker service attaches
`tracker_view` to every tracker message; the features register what a press does (`set_handler`). The
custom ids: docs/architecture.md, "The tracker message".
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.error_hook import guarded
from bot.replies import fail
from bot.rules.encounter import Encounter, saves
from bot.rules.encounter.rescue import RESCUE_COST, Rescue, live_rescues
from bot.rules.turns import Controller, Phase, current, eligible, picking
from bot.ui.persistent import NUMBER, ActionButton, PersistentView, Presses, number

#: What a press does (the exts register it in their `setup`); the select passes the chosen entry id.
PRESSES = Presses(lambda _action: "This control isn't available right now: use the slash command instead.")
set_handler = PRESSES.set
SELECT_MAX = 25
RESCUES_SHOWN = 5
LABEL_MAX = 100

#: A press's moment (`moment`) in its custom id: `~` and 8 hex digits after the version.
MOMENT = r"(?:~(?P<moment>[0-9a-f]{8}))?"
BUTTON_TEMPLATE = (
    rf"enc:(?P<action>act|end|undo|save|me|tsave|first|endok|endno|award|rescue|view):(?P<eid>{NUMBER})"
    rf":(?P<ver>{NUMBER}){MOMENT}(?::(?P<arg>.*))?"
)
SELECT_TEMPLATE = rf"enc:pick:(?P<eid>{NUMBER}):(?P<ver>{NUMBER}){MOMENT}"

LABELS = {"act": "Act", "end": "End turn", "undo": "Undo", "save": "Save", "me": "My hero"}


def moment(encounter: Encounter, action: str) -> str:
    """What a press of `action` depends on, as 8 hex digits: End turn, the turn in progress (round, its place
    in the round, whose); Act and the select, the pick under way (round, turns taken, who picks); Save, the
    saves owed. A press made for another moment than the encounter's now is stale; any other change since
    (a strike in the same turn) leaves it good."""
    turns = encounter.turns
    if action == "end":
        cur = current(turns)
        parts: tuple[object, ...] = (turns.round, len(turns.turns), cur.entry if cur is not None else None)
    elif action == "save":
        owed = saves.due(encounter)
        parts = tuple((s.creature_id, s.condition.value, s.custom_text, s.extra) for s in owed)
    else:
        pick = picking(turns)
        who = None if pick is None else (pick.controller.value, pick.sides, pick.speed, pick.group)
        parts = (turns.phase.value, turns.round, len(turns.turns), who)
    return hashlib.blake2b(repr((action, parts)).encode(), digest_size=4).hexdigest()


def press_moment(interaction: discord.Interaction[Any]) -> str | None:
    """The moment (`moment`) the pressed control was made for; None for one made before controls carried
    it (its version is all there is to judge it by)."""
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id") or "")
    found = re.fullmatch(BUTTON_TEMPLATE, custom_id) or re.fullmatch(SELECT_TEMPLATE, custom_id)
    return None if found is None else found["moment"]


class ControlButton(ActionButton, template=BUTTON_TEMPLATE):
    """One tracker (or choice) button; its custom id says what it does and for which state."""

    prefix = "enc"
    presses = PRESSES
    labels = LABELS


class PickSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=SELECT_TEMPLATE):
    """The select menu of who may act now."""

    def __init__(
        self, encounter_id: int, version: int, options: list[str] | None = None, at: str = ""
    ) -> None:
        choices = [discord.SelectOption(label=o[:LABEL_MAX], value=o[:LABEL_MAX]) for o in options or ["-"]]
        when = f"~{at}" if at else ""
        super().__init__(
            discord.ui.Select(
                custom_id=f"enc:pick:{encounter_id}:{version}{when}",
                placeholder="Who acts now?",
                options=choices[:SELECT_MAX],
                min_values=1,
                max_values=1,
            )
        )
        self.encounter_id, self.version = encounter_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> PickSelect:
        return cls(number(match["eid"]), number(match["ver"]), at=match["moment"] or "")

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        data: dict[str, Any] = dict(interaction.data or {})
        values: list[Any] = list(data.get("values") or [])
        if not values:
            fail("Pick a combatant from the menu.")
        await PRESSES.press(interaction, "pick", self.encounter_id, self.version, str(values[0]))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (ControlButton, PickSelect)


def tracker_view(encounter_id: int, version: int, encounter: Encounter) -> discord.ui.View:
    """The controls for a tracker showing `encounter` at channel `version`: Act / End turn / Undo / Save / My
    hero and, while somebody may be picked, the select of who may act (at most 25)."""
    view = PersistentView()
    turns = encounter.turns
    running = turns.phase is Phase.IN_ROUND
    in_turn = current(turns) is not None
    acts = moment(encounter, "act")
    primary = discord.ButtonStyle.primary
    view.add_item(ControlButton("act", encounter_id, version, style=primary, disabled=not running, at=acts))
    view.add_item(
        ControlButton("end", encounter_id, version, disabled=not in_turn, at=moment(encounter, "end"))
    )
    view.add_item(ControlButton("undo", encounter_id, version))
    saving = moment(encounter, "save")
    view.add_item(ControlButton("save", encounter_id, version, disabled=not turns.conditions, at=saving))
    view.add_item(ControlButton("me", encounter_id, version))  # a late player's card, seen only by them
    who = list(eligible(turns))[:SELECT_MAX]
    if running and not in_turn and who:
        view.add_item(PickSelect(encounter_id, version, who, at=acts))
    add_rescues(view, encounter_id, version, encounter)
    return view


def act_choice_view(
    encounter_id: int, version: int, choices: Sequence[tuple[int, str]], at: str = ""
) -> discord.ui.View:
    """A bare Act with several of the caller's creatures able to act: one button each (`choices`: the
    creature's place in the turn order, which the button's id carries, and its name; `at`: the pick's
    `moment`)."""
    view = PersistentView()
    for index, name in choices[:SELECT_MAX]:
        style = discord.ButtonStyle.primary
        view.add_item(ControlButton("act", encounter_id, version, str(index), label=name, style=style, at=at))
    return view


def rescue_label(rescue: Rescue, several: bool) -> str:
    """ "Spend 2 hero tokens: regain 10 first" (with the hero's name first when several are offered)."""
    label = f"Spend {RESCUE_COST} hero tokens: regain {rescue.regain} first"
    return f"{rescue.creature_id}: {label}" if several else label


def rescue_arg(rescue: Rescue) -> str:
    """What a rescue button's custom id carries after the version: the offer's name (`offer_key`)."""
    return f"{rescue.version}.{rescue.ordinal}"


def offer_key(arg: str) -> tuple[int, int]:
    """The offer a rescue button names (`rescue_arg`): its damage's version and ordinal (`ForgedId` for
    anything else, a button from an older bot's too)."""
    version, _, ordinal = arg.partition(".")
    return number(version), number(ordinal)


def add_rescues(
    view: discord.ui.View, encounter_id: int, version: int, encounter: Encounter, damage: int | None = None
) -> bool:
    """Add a button per hero-token rescue still open (`bot.rules.encounter.rescue`: until answered or the
    hero's next turn starts); only the offers of the damage committed as version `damage` when given (a
    damage's reply); True when there was one."""
    live = [r for r in live_rescues(encounter) if damage is None or r.version == damage][:RESCUES_SHOWN]
    for rescue in live:
        label = rescue_label(rescue, len(live) > 1)
        view.add_item(
            ControlButton(
                "rescue",
                encounter_id,
                version,
                rescue_arg(rescue),
                label=label,
                style=discord.ButtonStyle.success,
            )
        )
    return bool(live)


def rescue_view(encounter_id: int | None, version: int, encounter: Encounter) -> discord.ui.View | None:
    """A damage reply's buttons: the hero-token rescues that damage (committed as `version`) offers (None
    when there are none)."""
    if encounter_id is None:
        return None
    view = PersistentView()
    return view if add_rescues(view, encounter_id, version, encounter, damage=version) else None


def first_choice_view(encounter_id: int, version: int, encounter: Encounter) -> discord.ui.View:
    """Buttons for the winner of the d10 roll: which side goes first."""
    view = PersistentView()
    for side in encounter.turns.sides:
        label = "Heroes go first" if side.controller is Controller.PLAYERS else "Director goes first"
        view.add_item(ControlButton("first", encounter_id, version, side.id, label=label))
    return view


def end_confirm_view(encounter_id: int, version: int, victory: bool) -> discord.ui.View:
    """Confirm or cancel ending the encounter."""
    view = PersistentView()
    view.add_item(
        ControlButton(
            "endok",
            encounter_id,
            version,
            "1" if victory else "0",
            label="End the encounter",
            style=discord.ButtonStyle.danger,
        )
    )
    view.add_item(ControlButton("endno", encounter_id, version, label="Keep playing"))
    return view


def award_view(encounter_id: int, version: int, heroes: int) -> discord.ui.View:
    """Under an end summary whose Victories wait (`Encounter.unawarded`): a server Director awards them."""
    view = PersistentView()
    label = f"Award {heroes} Victor{'y' if heroes == 1 else 'ies'}"
    view.add_item(
        ControlButton("award", encounter_id, version, label=label, style=discord.ButtonStyle.success)
    )
    return view


def private_view(encounter_id: int, version: int) -> discord.ui.View:
    """Under the Director's private tracker: Refresh shows the encounter as it is now."""
    view = PersistentView()
    view.add_item(ControlButton("view", encounter_id, version, label="Refresh"))
    return view


def token_save_view(encounter_id: int, version: int) -> discord.ui.View:
    """On a failed save's reply: the hero's player spends a hero token to succeed instead
    (Draw Steel, The Basics, "Spending Hero Tokens")."""
    view = PersistentView()
    view.add_item(
        ControlButton(
            "tsave",
            encounter_id,
            version,
            label="Spend a hero token: succeed instead",
            style=discord.ButtonStyle.success,
        )
    )
    return view
