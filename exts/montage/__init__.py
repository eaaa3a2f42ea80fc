"""Montage tests (/montage start | challenge add/remove/list | test | assist | reroll | next | outcome | end |
award | status | undo | log | import): the extension `exts.montage`. The montage runs as the channel's scene
(`bot.play.play_scene`, kind "montage"): `_cog` has the commands, `_service` the glue to the store and the
rules, `_views` the tracker (registered with the tracker service), the replies and the close button."""

from __future__ import annotations

from typing import Any

from bot.client import DrawSteelBot
from bot.play import scene_data
from bot.rules.montage import Montage
from bot.store import GuildSettings
from exts.montage._cog import MontageCog, on_close, on_reroll, on_undo
from exts.montage._views import KIND, MontageButton, scene_view, set_handler
from exts.tracker._service import SceneView, register_scene

__all__ = ["MontageCog", "setup"]


def render_scene(
    name: str, state: dict[str, Any], encounter_id: int, version: int, active: bool, _settings: GuildSettings
) -> SceneView:
    return scene_view(name, scene_data(state, Montage), encounter_id, version, active)


async def setup(bot: DrawSteelBot) -> None:
    register_scene(KIND, render_scene)
    set_handler("close", on_close)
    set_handler("reroll", on_reroll)
    set_handler("undo", on_undo)
    bot.add_dynamic_items(MontageButton)
    await bot.add_cog(MontageCog(bot))
