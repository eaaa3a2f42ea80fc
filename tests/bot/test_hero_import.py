"""/hero import through SimCord: the three fixture heroes read into the roster with what
Forge Steel computes, re-imports updating in place, `use_state`, hostile files refused with nothing stored,
who may import, and the hero's abilities reaching the encounter. Attachments are downloaded from their URL,
here SimCord's CDN served on 127.0.0.1 (`tests/bot/files_kit.py`)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from simcord.env import Env

from bot.play import sheet_of
from bot.rules.characteristics import Characteristic
from bot.rules.hero import HeroSheet
from bot.store import ChannelKey, Hero
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table
from tests.bot.files_kit import CdnServer, fixture, oversized, refusal
from tests.content.forgesteel_files import invented_bytes, invented_expected

HEROES = invented_expected("expected-heroes.json")["heroes"]


async def heroes(table: Table) -> dict[str, Hero]:
    stored = await table.store.view(ChannelKey(table.guild.id, table.channel.id))
    return {h.name: h for h in stored.heroes.values()}


async def sheet(table: Table, name: str) -> HeroSheet:
    return sheet_of((await heroes(table))[name])


def upload(name: str, edit: Any = None) -> tuple[str, bytes]:
    """A fixture hero, its JSON changed by `edit(data)` when given."""
    if edit is None:
        return fixture(name)
    data = json.loads(invented_bytes(name))
    edit(data)
    return name, json.dumps(data).encode()


@pytest.mark.parametrize("want", HEROES, ids=[h["name"] for h in HEROES])
async def test_each_fixture_hero_imports_as_forge_steel_computes_it(
    table: Table, cdn_server: CdnServer, want: dict[str, Any]
) -> None:
    """ "Your import must reproduce every value for every fixture": Stamina, Recoveries,
    characteristics and every ability, on the stored roster sheet."""
    result = await table.alice.slash(table.channel, "hero import", file=fixture(want["file"]))
    text = kit.ok(result)
    assert text.startswith(f"{want['name']} joins the roster from Forge Steel.")
    stored = (await heroes(table))[want["name"]]
    got = sheet_of(stored)
    assert stored.owner_id == table.alice.id and not got.claimable
    assert (got.vitals.max_stamina, got.vitals.stamina) == (want["staminaMax"], want["staminaMax"])
    assert (got.vitals.max_recoveries, got.vitals.recovery_value) == (
        want["recoveries"],
        want["recoveryValue"],
    )
    assert {c.value: got.characteristics.get(c) for c in Characteristic} == want["characteristics"]
    assert [a.name for a in got.abilities] == [a["name"] for a in want["abilities"]]
    assert got.resource_name == want["heroicResource"] and got.level == want["level"]
    assert cdn_server.served  # read from the attachment's URL
    message = result.response or result.followups[0]
    embed = message.embeds[0]
    assert embed.title == want["name"]
    fields = {f.name: f.value for f in embed.fields}
    assert f"Abilities ({len(want['abilities'])})" in fields
    assert ("Not used" in fields) == bool(want["unchosenChoicesRemaining"])


async def test_the_import_card_says_stamina_once(table: Table, cdn_server: CdnServer) -> None:
    """Not "Stamina / Stamina: 33/33": the field's name says Stamina, its value the numbers."""
    result = await table.alice.slash(table.channel, "hero import", file=fixture("Ysolde.ds-hero"))
    message = result.response or result.followups[0]
    fields = {f.name: f.value for f in message.embeds[0].fields}
    assert fields["Stamina"] == "33/33 (healthy)"


async def test_an_open_choice_is_shown_as_not_used(table: Table, cdn_server: CdnServer) -> None:
    """ "The reply is the sheet the bot read, with warnings for what it couldn't use (a choice left open,
    ...)"."""
    result = await table.alice.slash(table.channel, "hero import", file=fixture("Brannoc.ds-hero"))
    message = result.response or result.followups[0]
    fields = {f.name: f.value or "" for f in message.embeds[0].fields}
    assert "Cairn Sense" in fields["Not used"] and "choice left open" in fields["Not used"]


async def test_re_import_updates_in_place_keeping_the_bots_state(table: Table, cdn_server: CdnServer) -> None:
    """ "Re-importing the same hero updates it in place. The state values in the file ... are taken only
    when the player says use_state:true." """
    await table.configure_director_role()
    kit.ok(await table.alice.slash(table.channel, "hero import", file=fixture("Marra.ds-hero")))
    kit.ok(await table.alice.slash(table.channel, "hero edit", current_stamina=50, recoveries_left=10))
    kit.ok(await table.director.slash(table.channel, "victories", award=2))
    first = (await heroes(table))["Marra"]

    def renamed_and_hurt(data: dict[str, Any]) -> None:
        data["name"] = "Marra the Bold"  # same Forge Steel id: still the same hero
        data["state"].update(staminaDamage=30, recoveriesUsed=4, victories=5, xp=40)

    text = kit.ok(
        await table.alice.slash(table.channel, "hero import", file=upload("Marra.ds-hero", renamed_and_hurt))
    )
    assert text.startswith("Marra is updated from Forge Steel.")
    after = await heroes(table)
    assert list(after) == ["Marra"] and after["Marra"].id == first.id
    kept = sheet_of(after["Marra"])
    assert (kept.vitals.stamina, kept.vitals.recoveries, kept.progress.victories) == (50, 10, 2)

    kit.ok(
        await table.alice.slash(
            table.channel, "hero import", file=upload("Marra.ds-hero", renamed_and_hurt), use_state=True
        )
    )
    played = await sheet(table, "Marra")
    assert (played.vitals.stamina, played.vitals.recoveries) == (70 - 30, 12 - 4)
    assert (played.progress.victories, played.progress.xp) == (5, 40)


async def test_a_hero_without_the_id_is_matched_by_name_for_the_same_player(
    table: Table, cdn_server: CdnServer, simcord_env: Env
) -> None:
    kit.ok(await table.alice.slash(table.channel, "hero create", name="Brannoc", stamina=20, recoveries=5))
    kit.ok(await table.alice.slash(table.channel, "hero import", file=fixture("Brannoc.ds-hero")))
    assert list(await heroes(table)) == ["Brannoc"]
    assert (await sheet(table, "Brannoc")).vitals.max_stamina == 30
    # another player's Brannoc of the same name is not theirs to overwrite
    text = refusal(
        simcord_env, await table.bob.slash(table.channel, "hero import", file=fixture("Brannoc.ds-hero"))
    )
    assert text == "Only Brannoc's player or the Director can import Brannoc again."


async def test_a_director_imports_for_a_player_or_for_anyone_to_claim(
    table: Table, cdn_server: CdnServer, simcord_env: Env
) -> None:
    """Permissions as for /hero create: a player imports only for themselves."""
    await table.configure_director_role()
    text = refusal(
        simcord_env,
        await table.alice.slash(
            table.channel, "hero import", file=fixture("Brannoc.ds-hero"), player=table.bob
        ),
    )
    role = f"<@&{table.director_role.id}>"
    assert (
        text
        == f"Only a server Director (the {role} role or Manage Server) can import a hero for another member."
    )
    kit.ok(
        await table.director.slash(
            table.channel, "hero import", file=fixture("Brannoc.ds-hero"), player=table.bob
        )
    )
    kit.ok(await table.director.slash(table.channel, "hero import", file=fixture("Ysolde.ds-hero")))
    stored = await heroes(table)
    assert stored["Brannoc"].owner_id == table.bob.id and not sheet_of(stored["Brannoc"]).claimable
    assert stored["Ysolde"].owner_id == table.director.id and sheet_of(stored["Ysolde"]).claimable


@pytest.mark.parametrize(
    ("file", "says"),
    [
        (oversized("huge.ds-hero"), "over 2 MB"),
        (("notes.ds-hero", b"my hero's backstory"), "isn't JSON"),
        (fixture("Bogling Slinger.ds-monster"), "use /monster import for it"),
        (("newer.ds-hero", json.dumps({"format": 99, "hero": {}}).encode()), "a newer Forge Steel"),
    ],
    ids=["over 2 MB", "not JSON", "a monster", "a newer format"],
)
async def test_hostile_files_are_refused_in_one_line_and_store_nothing(
    table: Table, cdn_server: CdnServer, simcord_env: Env, file: tuple[str, bytes], says: str
) -> None:
    """ "a file over 2 MB, not JSON, JSON of the wrong kind (a monster given to /hero import), or an unknown
    newer format each get a one-line refusal that says what to upload instead. Nothing is stored." """
    text = refusal(simcord_env, await table.alice.slash(table.channel, "hero import", file=file))
    assert says in text
    assert await heroes(table) == {}


async def test_an_imported_heros_abilities_reach_the_encounter(table: Table, cdn_server: CdnServer) -> None:
    """ "Heroes keep theirs on the roster sheet" and bring them into play, with the kit's damage bonus."""
    kit.ok(await table.alice.slash(table.channel, "hero import", file=fixture("Brannoc.ds-hero")))
    await kit.start(table)
    kit.ok(await table.alice.slash(table.channel, "encounter hero", name="Brannoc"))
    creature = (await kit.stored(table)).creature("Brannoc")
    assert [a.name for a in creature.abilities] == [a["name"] for a in HEROES[0]["abilities"]]
    assert [(b.name, b.tiers) for b in creature.kit_bonuses] == [("Wolfpelt", (1, 2, 3))]
    assert creature.stability == 2


async def test_a_hero_in_the_running_encounter_is_not_re_imported(
    table: Table, cdn_server: CdnServer, simcord_env: Env
) -> None:
    kit.ok(await table.alice.slash(table.channel, "hero import", file=fixture("Brannoc.ds-hero")))
    await kit.start(table)
    kit.ok(await table.alice.slash(table.channel, "encounter hero", name="Brannoc"))
    before = (await heroes(table))["Brannoc"].data
    text = refusal(
        simcord_env, await table.alice.slash(table.channel, "hero import", file=fixture("Brannoc.ds-hero"))
    )
    assert "is in the encounter" in text
    assert (await heroes(table))["Brannoc"].data == before
