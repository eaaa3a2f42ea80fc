"""What a player may see: with `show_monster_stamina` off, players' copies of
/encounter log hold no Director creature's exact Stamina, the encounter's Director gets the full log
ephemerally, and /encounter status private:true gives the Director an exact tracker only they see."""

from __future__ import annotations

import dataclasses
import json
import re
from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from simcord import MemberActor

from bot.store import Event
from exts.encounter._views import players_summary, players_view
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table

GOBLIN_NUMBERS = re.compile(r"Goblin 1 [^\n]*Stamina (?:set to )?-?\d+")


async def fight(table: Table) -> None:
    """The party against two goblins; Goblin 1 is hurt, healed and set, Ash is hurt and healed."""
    await table.store.update_settings(table.guild.id, show_monster_stamina=False)
    await kit.ready(table)
    director = table.director
    for command, options in (
        ("stamina damage", {"target": "Goblin 1", "amount": 3}),
        ("stamina heal", {"target": "Goblin 1", "amount": 1}),
        ("stamina set", {"target": "Goblin 1", "amount": 4}),
        ("stamina damage", {"target": "Ash", "amount": 5}),
        ("stamina heal", {"target": "Ash", "amount": 2}),
    ):
        kit.ok(await director.slash(table.channel, command, **options))
    kit.ok(await director.slash(table.channel, "encounter undo"))  # an undo of Ash's heal


async def log_of(member: MemberActor, table: Table) -> tuple[Any, str, dict[str, Any]]:
    result = await member.slash(table.channel, "encounter log")
    message = result.followups[0] if result.followups else result.response
    assert message is not None
    files = {a.filename.rsplit(".", 1)[1]: (await a.read()).decode() for a in message.attachments}
    return message, files["md"], json.loads(files["json"])


async def test_players_log_hides_the_director_creatures_stamina(table: Table) -> None:
    """ "`/encounter log` shows players no Director creature's exact Stamina, neither in the
    Markdown nor in the JSON nor in the undo patches." """
    await fight(table)
    message, markdown, data = await log_of(table.alice, table)

    assert not message.ephemeral and "Stamina is hidden" in message.content
    assert "Goblin 1 regains 1 Stamina: Stamina hidden" in markdown
    assert "Goblin 1 has Stamina set: Stamina hidden" in markdown
    assert not GOBLIN_NUMBERS.search(markdown)
    summaries = "\n".join(e["summary"] for e in data["events"])
    assert not GOBLIN_NUMBERS.search(summaries) and "Stamina hidden" in summaries
    assert all(e["patch"] is None for e in data["events"])
    assert data["encounter"]["state"] == {}
    # the heroes' Stamina stays: players see it on the tracker anyway
    assert "Ash regains 2 Stamina: Stamina 25 → 27" in markdown
    assert "Undo #" in markdown and "Ash regains 2 Stamina: Stamina 25 → 27" in summaries


async def test_the_director_gets_the_full_log_ephemerally(table: Table) -> None:
    """ "The encounter's Director gets the full log, delivered ephemerally." """
    await fight(table)
    message, markdown, data = await log_of(table.director, table)

    assert message.ephemeral and "only you see it" in message.content
    assert "Goblin 1 has Stamina set to 4: Stamina 8 → 4" in markdown
    assert any(e["patch"] for e in data["events"]) and data["encounter"]["state"]


async def test_with_stamina_shown_everyone_gets_the_full_public_log(table: Table) -> None:
    await kit.ready(table)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=3))
    kit.ok(await table.director.slash(table.channel, "stamina heal", target="Goblin 1", amount=1))
    message, markdown, data = await log_of(table.alice, table)
    assert not message.ephemeral and "hidden" not in message.content
    assert "Goblin 1 regains 1 Stamina: Stamina 7 → 8" in markdown
    assert any(e["patch"] for e in data["events"])


async def test_the_directors_private_tracker_shows_exact_stamina(table: Table) -> None:
    """ "The Director also gets `/encounter status private:true`, an ephemeral tracker with exact
    numbers. Today hiding Stamina hides it from the Director too." """
    await fight(table)
    public = kit.tracker(table.channel).embeds[0]
    assert "4/10" not in str(public.to_dict())  # the channel's tracker hides Goblin 1's Stamina

    result = await table.director.slash(table.channel, "encounter status", private=True)
    assert result.ephemeral and result.response is not None
    shown = str(result.response.embeds[0].to_dict())
    assert "4/10" in shown and "Only you see this" in shown
    refused = kit.refused(await table.alice.slash(table.channel, "encounter status", private=True))
    assert refused == "Only the Director can see the private tracker."


async def test_a_line_is_attributed_by_the_creatures_id_not_by_its_text(table: Table) -> None:
    """A player's creature named "Goblin 1 regains" no longer makes the players' log show Goblin 1's
    Stamina: whose Stamina a line shows is the creature id in the event, not the longest name it starts
    with."""
    await table.store.update_settings(table.guild.id, show_monster_stamina=False)
    await kit.ready(table)
    pet = {"name": "Goblin 1 regains", "stamina": 12, "player": table.alice}
    await kit.add(table, **pet)
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Goblin 1", amount=3))
    kit.ok(await table.director.slash(table.channel, "stamina heal", target="Goblin 1", amount=1))
    kit.ok(await table.director.slash(table.channel, "stamina damage", target="Goblin 1 regains", amount=5))
    kit.ok(await table.director.slash(table.channel, "stamina heal", target="Goblin 1 regains", amount=2))
    kit.ok(await table.director.slash(table.channel, "encounter undo"))

    _, markdown, data = await log_of(table.alice, table)

    assert "Goblin 1 regains 1 Stamina: Stamina hidden" in markdown
    assert not GOBLIN_NUMBERS.search(markdown.replace("Goblin 1 regains regains", ""))
    assert "Goblin 1 regains regains 2 Stamina: Stamina 7 → 9" in markdown  # the player's own creature
    assert "Undo #" in markdown and markdown.count("Stamina 7 → 9") == 2  # its undo follows it
    summaries = [e["summary"] for e in data["events"]]
    assert "Goblin 1 regains 1 Stamina: Stamina hidden" in summaries


# --- the players' view, pure ------------------------------------------------------------------------------
# --- the players' view, pure ------------------------------------------------------------------------------
def event(summary: str, kind: str = "stamina.heal", details: dict[str, Any] | None = None) -> Event:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    return Event(1, 2, 3, 4, at, kind, summary, details or {}, {"d": {"x": {"=": 9}}}, None, None)


def test_players_summary_fails_closed() -> None:
    """Numbers stay only where the event says whose they are and that players saw them."""
    seen = event("Ash regains 2 Stamina: Stamina 1 → 3", details={"stamina_of": "Ash", "players_see": True})
    assert players_view([seen])(seen).summary.endswith("1 → 3")
    for details in ({}, {"stamina_of": "Ogre", "players_see": False}, {"players_see": True}):
        secret = event("Ogre has Stamina set to 9: Stamina 3 → 9", details=details)
        assert players_view([secret])(secret).summary == "Ogre has Stamina set: Stamina hidden"


def test_an_undo_follows_the_event_it_undoes() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    shown = {"stamina_of": "Ash", "players_see": True}
    healed = Event(1, 2, 3, 4, at, "stamina.heal", "Ash regains 2 Stamina: Stamina 1 → 3", shown, {}, None, 4)
    undo = Event(1, 2, 4, 4, at, "undo", "Undo #3: Ash regains 2 Stamina: Stamina 1 → 3", {}, {}, 3, None)
    forged = dataclasses.replace(undo, details=shown, undoes=9)  # an undo's own details don't count
    hide = players_view([healed, undo, forged])
    assert hide(undo).summary.endswith("1 → 3") and hide(undo).patch is None
    assert hide(forged).summary.endswith("Stamina hidden")


@settings(deadline=None, max_examples=60)
@given(
    name=st.text(
        st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=20
    ),
    before=st.integers(-99, 999),
    after=st.integers(-99, 999),
    undo=st.booleans(),
)
def test_a_hidden_creatures_summaries_keep_no_stamina_number(
    name: str, before: int, after: int, undo: bool
) -> None:
    """Whatever its name, a creature players may not see keeps no exact Stamina in its log summaries."""
    name = " ".join(name.split()) or "Ogre"
    for verb in ("regains 3 Stamina", f"has Stamina set to {after}", "gains 2 temporary Stamina"):
        summary = f"{'Undo #3: ' if undo else ''}{name} {verb}: Stamina {before} → {after}"
        redacted = players_summary(summary, shown=False)
        assert not re.search(r"Stamina (set to )?-?\d", redacted.removeprefix("Undo #3: ")[len(name) :])
