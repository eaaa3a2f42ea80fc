"""What players see of an encounter's log while Director creatures' Stamina is hidden (`show_monster_stamina`
off): no Director creature's exact Stamina, neither in an event's summary nor in its undo patch.

An event whose summary shows exact Stamina (`Goblin regains 5 Stamina: Stamina 3 → 8`, `has Stamina set to
20`) names in its details whose it is, by creature id, and whether players could see it then
(`stamina_details`, from the command that made it); the players' copy keeps the numbers only if they could (an
undo's: as the event it undoes). Any other event loses them, so the log fails closed: the summary's text
never decides (a creature may be named "Goblin 1 regains"). Undo patches hold whole states: players get none.
"""

from __future__ import annotations

from bot.ui.format import players_see_numbers, players_summary, players_view

__all__ = ["players_see_numbers", "players_summary", "players_view"]
