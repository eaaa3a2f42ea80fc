"""What the reminders say (`exts.reminders._service`): the nudge to the side that hasn't picked, the note to
the
Director about who is waited on, and the argument timer's buttons for the Director.

The buttons are persistent (`ArgumentPick`, a `DynamicItem` answered by `bot.ui.persistent`): the custom id
`arg:<encounter id>:<wait>:<index>` names the encounter, the wait they were offered for
(`exts.reminders._service`'
turn key) and the candidate; what a press does is the handler a cog registers with `set_pick_handler`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

from bot.durations import duration_text
from bot.error_hook import guarded
from bot.replies import fail
from bot.ui.persistent import NUMBER, PersistentView, number
from exts.turn._pings import Ping

PickHandler = Callable[[discord.Interaction[Any], int, str, int], Awaitable[None]]
"""`handler(interaction, encounter_id, turn_key, index)`."""

_HANDLER: list[PickHandler] = []
BUTTONS_MAX = 25
LABEL_MAX = 80
TEMPLATE = rf"arg:pick:(?P<eid>{NUMBER}):(?P<wait>[0-9a-f]{{1,32}}):(?P<index>{NUMBER})"


def set_pick_handler(handler: PickHandler) -> None:
    """Register what pressing an argument-timer button does (the reminders cog, in its `setup`)."""
    _HANDLER[:] = [handler]


def nudge(ping: Ping, waited: int) -> Ping:
    """The side that must pick, pinged once more (the same members), after `waited` seconds."""
    return Ping(
        f"⏰ Still waiting after {duration_text(waited)}: {ping.content}", ping.user_ids, ping.role_ids
    )


def director_note(
    director_id: int, waited_on: Sequence[str], what: str, waited: int, link: str | None
) -> Ping:
    """The encounter's Director told who is waited on (only the Director is pinged: the others are named)."""
    who = ", ".join(waited_on) or "you"
    text = (
        f"⏰ <@{director_id}> — still no pick after {duration_text(waited)}: {what}. Waiting on {who}. "
        "Move on with /turn skip, or pick someone out of order with /turn act."
    )
    if link is not None:
        text += f" [Jump to the tracker]({link})"
    return Ping(text, (director_id,), ())


def scene_note(director_id: int, waited_on: Sequence[str], hint: str, waited: int, link: str | None) -> Ping:
    """A scene's Director (a montage's) told who hasn't acted yet (only the Director is pinged)."""
    who = ", ".join(waited_on) or "nobody"
    text = f"⏰ <@{director_id}> — still waiting after {duration_text(waited)} on {who}. {hint}".rstrip()
    if link is not None:
        text += f" [Jump to the tracker]({link})"
    return Ping(text, (director_id,), ())


def argument_prompt(director_id: int, waited: int) -> Ping:
    """The argument timer ran out: the Director picks (buttons below)."""
    text = (
        f"⏳ <@{director_id}> — the players haven't agreed who goes next within {duration_text(waited)}: "
        "the Director picks one."
    )
    return Ping(text, (director_id,), ())


def argument_view(encounter_id: int, turn_key: str, candidates: Sequence[str]) -> discord.ui.View:
    """One button per creature the players may pick (at most 25)."""
    view = PersistentView()
    for index, name in enumerate(candidates[:BUTTONS_MAX]):
        view.add_item(ArgumentPick(encounter_id, turn_key, index, label=name))
    return view


class ArgumentPick(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A button of the argument timer: the Director picks this candidate."""

    def __init__(self, encounter_id: int, turn_key: str, index: int, *, label: str = "Pick") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:LABEL_MAX],
                style=discord.ButtonStyle.primary,
                custom_id=f"arg:pick:{encounter_id}:{turn_key}:{index}",
            )
        )
        self.encounter_id, self.turn_key, self.index = encounter_id, turn_key, index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> ArgumentPick:
        return cls(number(match["eid"]), match["wait"], number(match["index"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        if not _HANDLER:
            fail("This control isn't available right now: use /turn act instead.")
        await _HANDLER[0](interaction, self.encounter_id, self.turn_key, self.index)
