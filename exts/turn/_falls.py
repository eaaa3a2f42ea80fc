"""A hero's fall in play by post: the hero's player is pinged, in the reply to the change that left the hero
dying, dead or unconscious (`fall_ping`), with the hero-token rescue still open to them
(`bot.rules.encounter.rescue`); `joined` puts it in one message with the pick ping the same reply carries.
"""

from __future__ import annotations

from bot.replies import inert
from bot.rules.encounter import Encounter
from bot.rules.encounter.rescue import RESCUE_COST, rescue_of
from bot.ui.format import grave_state, stamina_text
from exts.turn._pings import Mover, Ping


def fall_ping(before: Encounter, after: Encounter, mover: Mover | None = None) -> Ping | None:
    """The ping for the players whose heroes the change from `before` to `after` left dying, dead or
    unconscious, saying the rescue still open to them; never `mover`, who reads the reply (None when nobody
    is to be told)."""
    users: list[int] = []
    lines: list[str] = []
    was = {c.id: grave_state(c.vitals) for c in before.creatures}
    for hero in after.heroes():
        state = grave_state(hero.vitals)
        owner = hero.owner_id
        if not state or was.get(hero.id, state) == state or owner is None:
            continue
        if mover is not None and owner == mover.user_id:
            continue
        name = inert(hero.id)
        line = f"<@{owner}> — **{name}** is {state[0]} ({stamina_text(hero.vitals)})."
        offer = rescue_of(after, hero.id)
        if offer is not None:
            line += (
                f" Spend {RESCUE_COST} hero tokens to regain {offer.regain} Stamina before that damage: the "
                f"button on its reply or on the tracker, until {name}'s next turn starts."
            )
        users.append(owner)
        lines.append(line)
    if not lines:
        return None
    return Ping("\n".join(lines), tuple(dict.fromkeys(users)), ())


def joined(first: Ping | None, second: Ping | None) -> Ping | None:
    """One ping saying `first` then `second`, pinging everyone either pings."""
    if first is None or second is None:
        return first or second
    users = tuple(dict.fromkeys((*first.user_ids, *second.user_ids)))
    roles = tuple(dict.fromkeys((*first.role_ids, *second.role_ids)))
    return Ping(f"{first.content}\n{second.content}", users, roles)
