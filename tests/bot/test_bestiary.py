"""The server bestiary through SimCord: /monster import | add | list | show | remove, hostile files,
/encounter add monster:, /encounter import. Attachments are downloaded from their URL, here
SimCord's CDN served on 127.0.0.1 (`tests/bot/files_kit.py`)."""

from __future__ import annotations

import json

import pytest
from simcord.env import Env

from bot.content.forgesteel.encounter import SLOTS_MAX
from bot.content.forgesteel.files import MAX_BYTES
from bot.store.bestiary import MONSTERS_MAX
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table
from tests.bot.files_kit import CdnServer, fixture, oversized, refusal

BOGLING_IDS = {f"bogling-{n}" for n in range(1, 8)}


def reply(result: object) -> str:
    """A deferred command's public reply (the followup filling the "thinking…" message)."""
    return kit.ok(result)  # type: ignore[arg-type]


async def names(table: Table) -> list[str]:
    return [e.name for e in await table.store.monster_index(table.guild.id)]


@pytest.fixture
async def directed(table: Table) -> Table:
    await table.configure_director_role()
    return table


async def test_the_bogling_group_and_the_cinder_wyrm_import(directed: Table, cdn_server: CdnServer) -> None:
    """ "Monsters from a group keep their group's name"."""
    d = directed.director
    text = reply(await d.slash(directed.channel, "monster import", file=fixture("Bogling.ds-monster-group")))
    assert text == (
        "📖 Bestiary (Bogling): added Bogling Slinger, Bogling Cleaver, Bogling Stabber, Bogling Brawler, "
        "Bogling Chief, Bogling Matriarch, Mire Toad."
    )
    text = reply(await d.slash(directed.channel, "monster import", file=fixture("Cinder Wyrm.ds-monster")))
    assert text == "📖 Bestiary: added Cinder Wyrm."
    index = await directed.store.monster_index(directed.guild.id)
    assert {e.source_id for e in index} == BOGLING_IDS | {"wyrm-cinder-1"}
    assert all(e.group == "Bogling" for e in index if e.name != "Cinder Wyrm")
    assert len(cdn_server.served) == 2  # downloaded from the attachment's URL


async def test_re_import_updates_in_place_and_a_lone_member_keeps_its_group(
    directed: Table, cdn_server: CdnServer
) -> None:
    d = directed.director
    reply(await d.slash(directed.channel, "monster import", file=fixture("Bogling.ds-monster-group")))
    text = reply(
        await d.slash(directed.channel, "monster import", file=fixture("Bogling Slinger.ds-monster"))
    )
    assert text == "📖 Bestiary: updated Bogling Slinger."
    slinger = await directed.store.find_monster(directed.guild.id, "bogling slinger")
    assert slinger is not None and slinger.group == "Bogling" and slinger.source_id == "bogling-1"
    assert len(await names(directed)) == 7


@pytest.mark.parametrize(
    ("upload", "says"),
    [
        (oversized("huge.ds-monster"), "over 2 MB"),
        (("notes.ds-monster", b"these are my goblin notes"), "isn't JSON"),
        (fixture("Brannoc.ds-hero"), "That's a Forge Steel hero (use /hero import for it)"),
        (fixture("Bog Ambush.ds-encounter"), "use /encounter import for it"),
        (("newer.ds-monster", json.dumps({"format": 99, "creature": {}}).encode()), "a newer Forge Steel"),
        (("list.ds-monster", b"[1, 2, 3]"), "isn't a Forge Steel export"),
    ],
)
async def test_hostile_files_get_one_line_refusals_and_store_nothing(
    directed: Table, cdn_server: CdnServer, simcord_env: Env, upload: tuple[str, bytes], says: str
) -> None:
    """ "a file over 2 MB, not JSON, JSON of the wrong kind ..., or an unknown newer format each get a
    one-line refusal that says what to upload instead. Nothing is stored." """
    text = refusal(
        simcord_env, await directed.director.slash(directed.channel, "monster import", file=upload)
    )
    assert says in text and ".ds-monster" in text
    assert await names(directed) == []


async def test_a_file_declared_over_the_limit_is_not_even_downloaded(
    directed: Table, cdn_server: CdnServer, simcord_env: Env
) -> None:
    text = refusal(
        simcord_env,
        await directed.director.slash(directed.channel, "monster import", file=oversized("huge.ds-monster")),
    )
    assert "over 2 MB" in text and cdn_server.served == []


@pytest.mark.parametrize("chunked", [False, True])
async def test_a_body_larger_than_declared_is_cut_off_at_the_limit(
    directed: Table, cdn_server: CdnServer, simcord_env: Env, chunked: bool
) -> None:
    """The download is capped whatever the attachment declared (and whether the server says its length)."""
    cdn_server.body = b" " * (MAX_BYTES + 1)
    cdn_server.chunked = chunked
    text = refusal(
        simcord_env,
        await directed.director.slash(
            directed.channel, "monster import", file=fixture("Bogling Slinger.ds-monster")
        ),
    )
    assert "over 2 MB" in text
    assert await names(directed) == []


async def test_only_server_directors_change_the_bestiary(
    directed: Table, cdn_server: CdnServer, simcord_env: Env
) -> None:
    """ "The bestiary belongs to the server. Only server Directors change it." """
    a = directed.alice
    text = refusal(
        simcord_env,
        await a.slash(directed.channel, "monster import", file=fixture("Bogling.ds-monster-group")),
    )
    role = f"<@&{directed.director_role.id}>"
    assert text == f"Only a server Director (the {role} role or Manage Server) can change the bestiary."
    assert cdn_server.served == []  # refused before reading the file
    refusal(simcord_env, await a.slash(directed.channel, "monster add", name="Bandit", stamina=20))
    reply(await directed.director.slash(directed.channel, "monster add", name="Bandit", stamina=20))
    refusal(simcord_env, await a.slash(directed.channel, "monster remove", monster="Bandit"))
    assert await names(directed) == ["Bandit"]
    # reading is anyone's (the answer only theirs)
    shown = await a.slash(directed.channel, "monster show", monster="bandit")
    assert shown.response is not None and shown.response.ephemeral
    assert shown.response.embeds[0].title == "Bandit"


async def test_add_show_list_remove_and_autocomplete(
    directed: Table, cdn_server: CdnServer, simcord_env: Env
) -> None:
    d = directed.director
    text = reply(
        await d.slash(
            directed.channel,
            "monster add",
            name="Bandit Chief",
            stamina=80,
            level=3,
            organization="leader",
            characteristics="M2 A1 R0 I1 P2",
            free_strike=4,
            immunity="fire 3",
            weakness="holy 2",
            stability=2,
            group="Bandits",
        )
    )
    assert text == "📖 Bestiary (Bandits): added Bandit Chief."
    reply(await d.slash(directed.channel, "monster import", file=fixture("Cinder Wyrm.ds-monster")))
    shown = await d.slash(directed.channel, "monster show", monster="Bandit Chief")
    assert shown.response is not None
    embed = shown.response.embeds[0]
    assert embed.description is not None and "Level 3 Leader" in embed.description
    assert "**Stamina** 80" in embed.description and "**Free Strike** 4" in embed.description
    assert "immunity fire 3; weakness holy 2" in embed.description
    wyrm = (await d.slash(directed.channel, "monster show", monster="cinder wyrm")).response
    assert wyrm is not None
    fields = {f.name: f.value for f in wyrm.embeds[0].fields}
    breath = fields["Cinder Breath (Main action · Signature)"]
    assert "**12-16** 10 fire damage; M<2 weakened \\(save ends\\)" in breath
    assert "Power Roll +3" in breath and "**≤11** 6 fire damage" in breath and "**17+**" in breath
    listed = await d.slash(directed.channel, "monster list")
    assert listed.response is not None and listed.response.ephemeral
    assert [f.name for f in listed.response.embeds[0].fields] == ["Bandits", "Other monsters"]
    offered = await d.autocomplete(directed.channel, "monster show", "monster", "chi")
    assert [c["value"] for c in offered] == ["Bandit Chief"] and offered[0][
        "name"
    ] == "Bandit Chief · Bandits"
    assert reply(await d.slash(directed.channel, "monster remove", monster="bandit chief")) == (
        "🗑️ Bandit Chief left the bestiary."
    )
    refusal(simcord_env, await d.slash(directed.channel, "monster remove", monster="Bandit Chief"))
    refusal(simcord_env, await d.slash(directed.channel, "monster show", monster="Bandit Chief"))
    assert await names(directed) == ["Cinder Wyrm"]


async def test_a_full_bestiary_refuses_in_one_line(
    directed: Table, cdn_server: CdnServer, simcord_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.store import bestiary

    monkeypatch.setattr(bestiary, "MONSTERS_MAX", 5)
    text = refusal(
        simcord_env,
        await directed.director.slash(
            directed.channel, "monster import", file=fixture("Bogling.ds-monster-group")
        ),
    )
    assert f"at most {MONSTERS_MAX} monsters" in text and await names(directed) == []


# --- into the encounter -------------------------------------------------------------------------------------


async def _boglings_and_wyrm(table: Table) -> None:
    d = table.director
    reply(await d.slash(table.channel, "monster import", file=fixture("Bogling.ds-monster-group")))
    reply(await d.slash(table.channel, "monster import", file=fixture("Cinder Wyrm.ds-monster")))
    await kit.start(table)


async def test_bogling_slingers_come_in_as_a_squad(directed: Table, cdn_server: CdnServer) -> None:
    """ "minions become one squad per group of `count` with the shared pool"."""
    await _boglings_and_wyrm(directed)
    offered = await directed.director.autocomplete(directed.channel, "encounter add", "monster", "sling")
    assert [c["value"] for c in offered] == ["Bogling Slinger"]
    text = kit.ok(
        await directed.director.slash(directed.channel, "encounter add", monster="Bogling Slinger", count=4)
    )
    assert "Bogling Slinger 1, Bogling Slinger 2, Bogling Slinger 3, Bogling Slinger 4 as the squad" in text
    assert "Bogling Slinger squad" in text and "the Director's side" in text
    encounter = await kit.stored(directed)
    squad = encounter.squad("Bogling Slinger squad")
    assert squad is not None and len(squad.alive) == 4 and squad.pool == 4 * squad.minion_stamina
    slinger = encounter.creature("Bogling Slinger 1")
    assert slinger.abilities[0].name == "Free Strike" and len(slinger.abilities) > 1
    assert encounter.side_of("Bogling Slinger 1").id == "director"


async def test_the_cinder_wyrm_gets_two_turns_and_its_stat_block(
    directed: Table, cdn_server: CdnServer
) -> None:
    await _boglings_and_wyrm(directed)
    kit.ok(await directed.director.slash(directed.channel, "encounter add", monster="Cinder Wyrm"))
    encounter = await kit.stored(directed)
    assert encounter.entry_of("Cinder Wyrm").turns_per_round == 2
    wyrm = encounter.creature("Cinder Wyrm")
    assert wyrm.vitals.max_stamina == 220 and wyrm.stability == 4
    assert {a.name for a in wyrm.abilities} >= {"Free Strike", "Cinder Breath", "Ember Rain"}


async def test_encounter_add_monster_refusals(
    directed: Table, cdn_server: CdnServer, simcord_env: Env
) -> None:
    await _boglings_and_wyrm(directed)
    text = refusal(
        simcord_env, await directed.director.slash(directed.channel, "encounter add", monster="Goblin King")
    )
    assert "no monster called Goblin King" in text
    text = refusal(
        simcord_env, await directed.alice.slash(directed.channel, "encounter add", monster="Bogling Slinger")
    )
    assert text == "Only the Director can add monsters from the bestiary."
    text = refusal(
        simcord_env, await directed.director.slash(directed.channel, "encounter add", name="Goblin")
    )
    assert "monster:" in text
    text = refusal(
        simcord_env,
        await directed.director.slash(
            directed.channel, "encounter add", monster="Bogling Slinger", stamina=5, immunity="fire 2"
        ),
    )
    assert text == "A stat block brings its own stamina, immunity: leave them out with monster:."
    assert (await kit.stored(directed)).creatures == ()


async def test_bog_ambush_imports_after_the_group(
    directed: Table, cdn_server: CdnServer, simcord_env: Env
) -> None:
    """ "Its slots name monsters by id. The bot resolves them in the bestiary, so the group must be imported
    first, or uploaded with the encounter. It says exactly which ids it couldn't resolve." """
    d = directed.director
    await kit.start(directed)
    text = refusal(
        simcord_env,
        await d.slash(directed.channel, "encounter import", file=fixture("Bog Ambush.ds-encounter")),
    )
    assert "`bogling-3`, `bogling-1`, `bogling-2`, `bogling-5`" in text
    assert (await kit.stored(directed)).creatures == ()
    reply(await d.slash(directed.channel, "monster import", file=fixture("Bogling.ds-monster-group")))
    text = reply(await d.slash(directed.channel, "encounter import", file=fixture("Bog Ambush.ds-encounter")))
    assert text.startswith("📥 **Bog Ambush**")
    assert "Bogling Stabber 1, Bogling Stabber 2, Bogling Stabber 3\n" in text
    encounter = await kit.stored(directed)
    assert {s.id for s in encounter.squads} == {"Bogling Slinger squad", "Bogling Cleaver squad"}
    assert encounter.has("Bogling Chief")


async def test_bog_ambush_with_its_group_uploaded_beside_it(directed: Table, cdn_server: CdnServer) -> None:
    await kit.start(directed)
    reply(
        await directed.director.slash(
            directed.channel,
            "encounter import",
            file=fixture("Bog Ambush.ds-encounter"),
            group=fixture("Bogling.ds-monster-group"),
        )
    )
    assert len((await kit.stored(directed)).creatures) == 3 + 4 + 4 + 1
    assert await names(directed) == []  # the group uploaded with it is used, not stored


def _many_slots(count: int) -> bytes:
    """A `.ds-encounter` (kept under 2 MB) whose every slot names a monster id no bestiary holds."""
    tree = json.loads(fixture("Bog Ambush.ds-encounter")[1])
    slot = {"monsterID": "", "count": 1}
    tree["groups"] = [{"faction": "Enemy", "slots": [{**slot, "monsterID": f"m{n}"} for n in range(count)]}]
    return json.dumps(tree, separators=(",", ":")).encode()


async def test_an_encounter_naming_more_slots_than_an_encounter_holds_is_refused(
    directed: Table, cdn_server: CdnServer, simcord_env: Env
) -> None:
    """40,000 unknown monster ids went into one database query past PostgreSQL's 32,767 parameters and
    failed as an unexpected error. The slots are capped while the file is read: one line, nothing stored."""
    await kit.start(directed)
    upload = ("Horde.ds-encounter", _many_slots(40_000))
    assert len(upload[1]) < MAX_BYTES
    text = refusal(
        simcord_env, await directed.director.slash(directed.channel, "encounter import", file=upload)
    )
    assert text == (
        f"That encounter has more than {SLOTS_MAX} monster slots, and an encounter holds at most 100 "
        "creatures: split it in Forge Steel and import each part."
    )
    assert (await kit.stored(directed)).creatures == ()


async def test_encounter_import_refuses_hostile_files_and_players(
    directed: Table, cdn_server: CdnServer, simcord_env: Env
) -> None:
    await kit.start(directed)
    text = refusal(
        simcord_env,
        await directed.director.slash(
            directed.channel, "encounter import", file=fixture("Bogling.ds-monster-group")
        ),
    )
    assert "use /monster import for it" in text
    text = refusal(
        simcord_env,
        await directed.alice.slash(
            directed.channel, "encounter import", file=fixture("Bog Ambush.ds-encounter")
        ),
    )
    assert text == "Only the Director can import an encounter's monsters."
    assert (await kit.stored(directed)).creatures == ()


async def test_monster_add_reads_the_size_or_refuses_one_that_names_none(
    directed: Table, simcord_env: Env
) -> None:
    """Size and Space: sizes are 1T, 1S, 1M, 1L, then 2, 3 ...: forced movement compares them, so a stat
    block's size must name one ("BIG VERSUS LITTLE")."""
    d = directed.director
    text = refusal(
        simcord_env, await d.slash(directed.channel, "monster add", name="Ogre", stamina=40, size="big")
    )
    assert text == "A size is 1T, 1S, 1M, 1L or a number of squares from 2, e.g. size: 2."
    assert await names(directed) == []
    reply(await d.slash(directed.channel, "monster add", name="Ogre", stamina=40, size=" 1l "))
    ogre = await directed.store.find_monster(directed.guild.id, "ogre")
    assert ogre is not None and ogre.data["size"] == "1L"


async def test_a_monster_brought_in_under_its_own_name_is_named_once(directed: Table) -> None:
    """Not "Goblin Assassin (Goblin Assassin) joined the Director's side.": the stat block is named after the
    creatures only when they took another name."""
    d = directed.director
    reply(await d.slash(directed.channel, "monster add", name="Goblin Assassin", stamina=20, free_strike=2))
    await kit.start(directed)
    one = reply(await d.slash(directed.channel, "encounter add", monster="Goblin Assassin"))
    assert one == "➕ Goblin Assassin joined the Director's side."
    two = reply(await d.slash(directed.channel, "encounter add", monster="Goblin Assassin", count=2))
    assert two == "➕ Goblin Assassin 2, Goblin Assassin 3 joined the Director's side."
    renamed = reply(await d.slash(directed.channel, "encounter add", monster="Goblin Assassin", name="Knife"))
    assert renamed == "➕ Knife (Goblin Assassin) joined the Director's side."
