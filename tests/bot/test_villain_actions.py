"""Villain actions through SimCord: a stat block's, each used once per encounter; the Director's secret
(their private tracker, never the channel's), a strike with one marks it used, one a round, and the Director
reminded at a turn's end once a round.

Draw Steel: Monsters, "Villain Actions": "Each villain action can be used only once per encounter, and no more
than one villain action can be used per round"; "A creature can use a villain action at the end of any other
creature's turn during combat."
"""

from __future__ import annotations

import json

from simcord import MemberActor

from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table
from tests.bot.files_kit import CdnServer, fixture

NAMES = ("Ember Rain", "Smoke Veil", "Cinder Storm")
REMINDER = "😈 Director: a villain action is still unused this round."


def player(table: Table, who: str) -> MemberActor:
    """Who plays `who`: Ash's player alice, Bree's bob, the Director for the wyrm."""
    return {"Ash": table.alice, "Bree": table.bob}.get(who, table.director)


async def wyrm_fight(table: Table, heroes: tuple[str, ...] = ("Ash", "Bree")) -> None:
    """The Cinder Wyrm (a solo, three villain actions) against `heroes` (Ash, Bree: 30 Stamina each, played
    by alice and bob); heroes first."""
    await table.configure_director_role()
    d = table.director
    kit.ok(await d.slash(table.channel, "monster import", file=fixture("Cinder Wyrm.ds-monster")))
    await kit.start(table)
    for hero in heroes:
        kit.ok(
            await d.slash(table.channel, "encounter add", name=hero, stamina=30, player=player(table, hero))
        )
    kit.ok(await d.slash(table.channel, "encounter add", monster="Cinder Wyrm"))
    await kit.begin(table, first="heroes")


async def turn(table: Table, who: str) -> str:
    """`who` takes a turn and ends it (the Director for the wyrm): the turn end's reply."""
    actor = player(table, who)
    kit.ok(await actor.slash(table.channel, "turn act", combatant=who))
    return kit.ok(await actor.slash(table.channel, "turn end"))


async def test_villain_actions_are_on_the_directors_private_tracker_only(
    table: Table, cdn_server: CdnServer
) -> None:
    await wyrm_fight(table)
    public = kit.body(kit.tracker(table.channel))
    assert "Cinder Wyrm" in public
    assert not any(name in public for name in NAMES)
    assert "**Cinder Wyrm**: ⬜ Ember Rain · ⬜ Smoke Veil · ⬜ Cinder Storm" in await kit.private_status(
        table
    )


async def test_the_stat_blocks_villain_actions_are_used_once(table: Table, cdn_server: CdnServer) -> None:
    """A solo's three villain actions come from the bestiary; each is used once per encounter."""
    await wyrm_fight(table, heroes=("Ash",))
    d = table.director
    offered = await d.autocomplete(table.channel, "encounter villain use", "creature", "cin")
    assert [c["value"] for c in offered] == ["Cinder Wyrm"]
    assert "**Cinder Wyrm**: ⬜ Ember Rain · ⬜ Smoke Veil · ⬜ Cinder Storm" in await kit.private_status(
        table
    )
    result = await d.slash(
        table.channel, "encounter villain use", creature="Cinder Wyrm", action="smoke veil"
    )
    used = kit.ok(result)
    assert used == "😈 **Cinder Wyrm** uses the villain action **Smoke Veil** (once per encounter)."
    assert result.followups and result.followups[-1].ephemeral
    assert result.followups[-1].content == (
        "😈 Left for Cinder Wyrm: Ember Rain, Cinder Storm. Only you see this."
    )
    assert "**Cinder Wyrm**: ⬜ Ember Rain · ✅ Smoke Veil · ⬜ Cinder Storm" in await kit.private_status(
        table
    )
    again = kit.refused(
        await d.slash(table.channel, "encounter villain use", creature="Cinder Wyrm", action="Smoke Veil")
    )
    assert again == "Cinder Wyrm has already used Smoke Veil this encounter: each is once per encounter."


async def test_a_strike_with_a_villain_action_marks_it_used(table: Table, cdn_server: CdnServer) -> None:
    """`/strike ability:Ember Rain` marks it used (no second command); the reply names no other villain
    action; a second villain action this round is refused, and the first again is refused for good."""
    await wyrm_fight(table)
    d = table.director
    text = kit.ok(
        await d.slash(
            table.channel, "strike", attacker="Cinder Wyrm", ability="Ember Rain", targets="Ash, Bree"
        )
    )
    assert "😈 Villain action: used for this encounter (one a round)" in text
    assert "Smoke Veil" not in text and "Cinder Storm" not in text
    enc = await kit.stored(table)
    assert enc.villains["Cinder Wyrm"].used == ("Ember Rain",)
    assert "**Cinder Wyrm**: ✅ Ember Rain · ⬜ Smoke Veil · ⬜ Cinder Storm" in await kit.private_status(
        table
    )
    second = kit.refused(
        await d.slash(table.channel, "encounter villain use", creature="Cinder Wyrm", action="Smoke Veil")
    )
    assert second == "A villain action was already used this round: one a round, so wait for the next round."
    again = kit.refused(
        await d.slash(table.channel, "strike", attacker="Cinder Wyrm", ability="Ember Rain", targets="Ash")
    )
    assert again == "Cinder Wyrm has already used Ember Rain this encounter: each is once per encounter."


async def test_the_director_is_reminded_once_a_round(table: Table, cdn_server: CdnServer) -> None:
    """Ash's turn ends: the Director is reminded (naming no villain action); the rest of the round's turns
    (the solo's two, Bree's) end without it. In round 2 Ash's turn end reminds again; in round 3 the
    Director uses one during Ash's turn, and Ash's turn end doesn't remind."""
    await wyrm_fight(table)
    first = await turn(table, "Ash")
    assert REMINDER in first
    assert not any(name in first for name in NAMES)
    assert REMINDER not in await turn(table, "Cinder Wyrm")
    assert REMINDER not in await turn(table, "Bree")
    rolled_over = await turn(table, "Cinder Wyrm")
    assert REMINDER not in rolled_over and "🔔 Round 2 begins." in rolled_over
    assert REMINDER in await turn(table, "Ash")
    for who in ("Cinder Wyrm", "Bree", "Cinder Wyrm"):
        assert REMINDER not in await turn(table, who)
    assert (await kit.stored(table)).turns.round == 3
    kit.ok(await table.alice.slash(table.channel, "turn act", combatant="Ash"))
    kit.ok(
        await table.director.slash(
            table.channel, "encounter villain use", creature="Cinder Wyrm", action="Smoke Veil"
        )
    )
    assert REMINDER not in kit.ok(await table.alice.slash(table.channel, "turn end"))


async def test_a_named_villain_action_stays_out_of_the_players_log_and_the_undo(table: Table) -> None:
    """`/encounter villain name` answers the Director alone; the log's lines players download and the public
    reply of its undo say that a villain action was named, never which."""
    await table.configure_director_role()
    await kit.ready(table)
    named = await table.director.slash(
        table.channel, "encounter villain name", creature="Goblin 1", action="Secret Plan"
    )
    assert named.ephemeral
    result = await table.alice.slash(table.channel, "encounter log")
    message = result.followups[0] if result.followups else result.response
    assert message is not None and message.attachments
    files = {a.filename.rsplit(".", 1)[1]: (await a.read()).decode() for a in message.attachments}
    summaries = [event["summary"] for event in json.loads(files["json"])["events"]]
    assert "Goblin 1 has a villain action more (the Director's private tracker names it)" in summaries
    assert "Secret Plan" not in files["md"] and not [s for s in summaries if "Secret Plan" in s]
    undone = kit.ok(await table.director.slash(table.channel, "encounter undo"))
    assert "Secret Plan" not in undone


async def test_a_solos_turn_end_names_it_once_when_it_picks_itself_again(
    table: Table, cdn_server: CdnServer
) -> None:
    """Draw Steel: Monsters, "Solo Monsters": a solo takes two turns a round. Ash alone against the wyrm: once
    Ash has acted, the end of the wyrm's first turn leaves the Director picking the wyrm again; the turn
    change names it once (its pick line says "the one named above")."""
    await wyrm_fight(table, heroes=("Ash",))
    await turn(table, "Ash")

    text = await turn(table, "Cinder Wyrm")

    assert text.count("Cinder Wyrm") == 1, text
    assert "Next: the Director picks who acts with /turn act: the one named above" in text
