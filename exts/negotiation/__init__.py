"""Negotiations (/negotiation start | import | argue | discover | offer | close | status | undo | log): the
extension `exts.negotiation`. The negotiation runs as the channel's scene (`bot.play.play_scene`, kind
"negotiation"): `_cog` has the commands and the buttons' handlers, `_service` the glue to the store and the
rules, `_views` the players' and the Director's views, the replies, the tracker (registered with the tracker
service by kind) and the buttons.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from bot.client import DrawSteelBot
from bot.play import scene_data
from bot.store import GuildSettings
from exts.negotiation._cog import NegotiationCog, on_close, on_lie, on_pick, on_reveal
from exts.negotiation._views import KIND, NegotiationButton, Scene, scene_view, set_handler
from exts.tracker._service import SceneView, register_scene

__all__ = ["NegotiationCog", "setup"]


def render_scene(
    name: str, state: dict[str, Any], encounter_id: int, version: int, active: bool, settings: GuildSettings
) -> SceneView:
    """The tracker shows Interest and Patience as the server's setting says now, not as it was at the
    negotiation's last step."""
    scene = dataclasses.replace(scene_data(state, Scene), numbers=settings.negotiation_numbers)
    return scene_view(name, scene, encounter_id, version, active)


async def setup(bot: DrawSteelBot) -> None:
    register_scene(KIND, render_scene)
    set_handler("close", on_close)
    set_handler("lie", on_lie)
    set_handler("reveal", on_reveal)
    set_handler("pick", on_pick)
    bot.add_dynamic_items(NegotiationButton)
    await bot.add_cog(NegotiationCog(bot))
