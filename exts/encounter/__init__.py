"""Running an encounter (/encounter start | add | hero | remove | surprise | begin | status | undo | log |
end, and its objective and villain subgroups): the extension `exts.encounter`. `_cog` has the commands,
`_options` reads options and autocompletes, `_controls` answers the persistent buttons (who goes first, the
end confirmation, the award of its Victories, Undo), `_record` posts the status and log, `_views` renders the
log, `_objectives` adds the objective and villain subgroups.
"""

from __future__ import annotations

from bot.client import DrawSteelBot
from exts.encounter import _objectives
from exts.encounter._cog import EncounterCog
from exts.encounter._controls import on_award, on_end_cancelled, on_end_confirmed, on_first, on_undo
from exts.encounter._record import refresh_private
from exts.tracker._controls import DYNAMIC_ITEMS, set_handler

__all__ = ["EncounterCog", "setup"]


async def setup(bot: DrawSteelBot) -> None:
    set_handler("first", on_first)
    set_handler("endok", on_end_confirmed)
    set_handler("endno", on_end_cancelled)
    set_handler("award", on_award)
    set_handler("undo", on_undo)
    set_handler("view", refresh_private)
    bot.add_dynamic_items(*DYNAMIC_ITEMS)
    await bot.add_cog(EncounterCog(bot))
    await _objectives.setup(bot)  # its subgroups join the encounter cog's group
