"""Running an encounter (/encounter start | add | hero | remove | surprise | begin | status | undo | log |
end): the extension `cogs.encounter`.

Modules: `cog` (the commands), `options` (reading options, autocomplete), `controls` (the persistent
buttons: who goes first, the end confirmation, the award of its Victories, Undo).
"""

from __future__ import annotations

from bot.client import DrawSteelBot
from bot.ui.tracker_controls import DYNAMIC_ITEMS, set_handler
from cogs.encounter.cog import EncounterCog
from cogs.encounter.controls import on_award, on_end_cancelled, on_end_confirmed, on_first, on_undo

__all__ = ["EncounterCog", "setup"]


async def setup(bot: DrawSteelBot) -> None:
    set_handler("first", on_first)
    set_handler("endok", on_end_confirmed)
    set_handler("endno", on_end_cancelled)
    set_handler("award", on_award)
    set_handler("undo", on_undo)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(EncounterCog(bot))
