"""/hero create | edit | show | claim through SimCord: what is stored, what replies show, who may do what,
and a one-line ephemeral refusal (nothing stored) for bad input on every option."""

from __future__ import annotations

from typing import Any

import pytest
from simcord import ChannelHandle, MemberActor

from bot.client import DrawSteelBot
from bot.play import sheet_of
from bot.rules.characteristics import Characteristics
from bot.rules.damage import DamageModifier
from bot.store import ChannelKey, Hero
from tests.bot.conftest import Table


def embed_text(result: Any) -> str:
    """Everything a reply shows: content, embed titles, descriptions and fields."""
    message = result.response
    assert message is not None
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or ""]
        parts += [f"{f.name}: {f.value}" for f in embed.fields]
    return "\n".join(parts)


async def heroes(table: Table, channel: ChannelHandle | None = None) -> dict[str, Hero]:
    where = channel or table.channel
    stored = await table.store.view(ChannelKey(table.guild.id, where.id))
    return {h.name: h for h in stored.heroes.values()}


async def create(table: Table, who: MemberActor, **options: Any) -> Any:
    base: dict[str, Any] = {"name": "Ash", "stamina": 30, "recoveries": 8}
    return await who.slash(table.channel, "hero create", **{**base, **options})


def pinged(table: Table, result: Any) -> bool:
    """Whether the reply pings anyone (a user, a role or everyone)."""
    message = result.response
    assert message is not None
    stored = table.env.backend.get_message(message.channel_id, message.id)
    return bool(stored.ping_user_ids or stored.ping_role_ids or stored.mention_everyone)


def refused(result: Any, *words: str) -> None:
    assert result.ephemeral, "a refusal is ephemeral"
    text = result.response.content if result.response is not None else result.followups[0].content
    assert "\n" not in text
    for word in words:
        assert word in text, text


async def test_create_stores_the_sheet_and_shows_it(table: Table) -> None:
    result = await create(
        table,
        table.alice,
        characteristics="M2 A1 R0 I-1 P1",
        immunity="fire 5, all 2",
        weakness="cold 3",
        level=2,
        resource="wrath",
        resource_gain="1d3",
    )
    assert not result.ephemeral
    assert result.response.content == "Ash joins the roster. Stamina: 30/30"
    shown = embed_text(result)
    assert "Stamina: 30/30" in shown and "Recoveries: 8/8" in shown
    fields = result.response.embeds[0].fields
    assert not [f for f in fields if f.value.casefold().startswith(f.name.casefold())]  # each label said once
    assert "M2 A1 R0 I-1 P1" in shown and "fire 5, all 2" in shown and "cold 3" in shown
    assert "Victories: 0 · XP: 0" in shown and "Level 2" in shown and "wrath" in shown
    hero = (await heroes(table))["Ash"]
    assert hero.owner_id == table.alice.id
    sheet = sheet_of(hero)
    assert sheet.characteristics == Characteristics(2, 1, 0, -1, 1)
    assert sheet.modifiers.immunities == (DamageModifier("fire", 5), DamageModifier("all", 2))
    assert sheet.modifiers.weaknesses == (DamageModifier("cold", 3),)
    assert (sheet.level, sheet.resource_name, sheet.resource_gain, sheet.claimable) == (
        2,
        "wrath",
        "1d3",
        False,
    )


async def test_names_are_cleaned_and_unique_ignoring_case(table: Table) -> None:
    await create(table, table.alice, name="  Ash   the  Bold ")
    assert "Ash the Bold" in await heroes(table)
    refused(await create(table, table.bob, name="ash THE bold"), "already a hero named")
    assert len(await heroes(table)) == 1


async def test_a_thread_shares_its_channels_roster(table: Table) -> None:
    """ "The roster ... live[s] in the campaign": a channel with all its threads."""
    await create(table, table.alice)
    result = await table.alice.slash(table.thread, "hero show")
    assert "Ash" in embed_text(result)
    refused(
        await table.alice.slash(table.thread, "hero create", name="Ash", stamina=20, recoveries=6),
        "already a hero named",
    )
    await table.alice.slash(table.thread, "hero create", name="Bree", stamina=20, recoveries=6)
    assert set(await heroes(table, table.thread)) == set(await heroes(table)) == {"Ash", "Bree"}


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"name": "   "}, ("Give a name",)),
        ({"name": "x" * 65}, ("at most 64",)),
        ({"characteristics": "banana"}, ()),
        ({"characteristics": "M11"}, ("out of range",)),
        ({"immunity": "fire lots"}, ("fire 5, all 2",)),
        ({"weakness": "cold all"}, ("number",)),
        ({"resource_gain": "lots"}, ("1d3",)),
        ({"resource": "   "}, ("heroic resource",)),
    ],
)
async def test_create_bad_input_is_refused_and_stores_nothing(
    table: Table, options: dict[str, Any], words: tuple[str, ...]
) -> None:
    refused(await create(table, table.alice, **options), *words)
    assert await heroes(table) == {}


async def test_discord_enforces_the_number_ranges(table: Table) -> None:
    """Numbers out of range never reach the bot: Discord's client refuses them (the rules check them too:
    tests/rules/test_hero.py)."""
    bot = table.env.bot
    assert isinstance(bot, DrawSteelBot)
    hero = next(c for c in bot.tree.get_commands() if c.name == "hero")
    create_cmd = next(o for o in hero.to_dict(bot.tree)["options"] if o["name"] == "create")
    ranges = {o["name"]: (o.get("min_value"), o.get("max_value")) for o in create_cmd["options"]}
    assert ranges["stamina"] == (1, 999) and ranges["recoveries"] == (0, 99) and ranges["level"] == (1, 10)


async def test_a_player_cant_create_a_hero_for_someone_else(table: Table) -> None:
    refused(await create(table, table.alice, player=table.bob), "Only a server Director")
    assert await heroes(table) == {}
    await create(table, table.alice, player=table.alice)  # naming yourself is fine
    assert (await heroes(table))["Ash"].owner_id == table.alice.id


async def test_director_creates_for_a_member_or_for_nobody(table: Table) -> None:
    await table.configure_director_role()
    await create(table, table.director, name="Bo", player=table.bob)
    result = await create(table, table.director, name="Cy")
    assert "open to claim" in embed_text(result)
    stored = await heroes(table)
    assert stored["Bo"].owner_id == table.bob.id and not sheet_of(stored["Bo"]).claimable
    assert stored["Cy"].owner_id == table.director.id and sheet_of(stored["Cy"]).claimable


async def test_edit_by_owner_changes_only_given_fields(table: Table) -> None:
    await create(table, table.alice, characteristics="M2")
    result = await table.alice.slash(
        table.channel, "hero edit", stamina=24, level=3, weakness="fire 2", new_name="Ashe"
    )
    assert "Stamina: 24/24" in embed_text(result)
    sheet = sheet_of((await heroes(table))["Ashe"])
    assert sheet.vitals.max_stamina == 24 and sheet.level == 3
    assert sheet.characteristics.might == 2  # unchanged
    assert sheet.modifiers.weaknesses == (DamageModifier("fire", 2),)
    await table.alice.slash(table.channel, "hero edit", hero="ashe", current_stamina=5, recoveries_left=2)
    shown = embed_text(await table.alice.slash(table.channel, "hero show", hero="Ashe"))
    assert "Stamina: 5/24" in shown and "Recoveries: 2/8" in shown and "winded" in shown


async def test_a_player_cant_edit_anothers_hero_but_the_director_can(table: Table) -> None:
    await table.configure_director_role()
    await create(table, table.alice)
    refused(await table.bob.slash(table.channel, "hero edit", hero="Ash", stamina=99), "Only Ash's player")
    assert sheet_of((await heroes(table))["Ash"]).vitals.max_stamina == 30
    await table.director.slash(table.channel, "hero edit", hero="Ash", stamina=35)
    assert sheet_of((await heroes(table))["Ash"]).vitals.max_stamina == 35


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({}, ("at least one field",)),
        ({"hero": "Nobody", "level": 2}, ("No hero named Nobody",)),
        ({"current_stamina": 31}, ("Current Stamina",)),
        ({"recoveries_left": 9}, ("Recoveries left",)),
        ({"characteristics": "Z9"}, ()),
        ({"immunity": "banana 3"}, ()),
        ({"new_name": "a\x07b"}, ("control characters",)),
        ({"resource_gain": "d"}, ("1d3",)),
    ],
)
async def test_edit_bad_input(table: Table, options: dict[str, Any], words: tuple[str, ...]) -> None:
    await create(table, table.alice)
    before = (await heroes(table))["Ash"].data
    refused(await table.alice.slash(table.channel, "hero edit", **options), *words)
    assert (await heroes(table))["Ash"].data == before


async def test_rename_onto_another_hero_is_refused(table: Table) -> None:
    await create(table, table.alice)
    await create(table, table.alice, name="Bo")
    refused(await table.alice.slash(table.channel, "hero edit", hero="Bo", new_name="ASH"), "already a hero")
    assert set(await heroes(table)) == {"Ash", "Bo"}


async def test_edit_without_a_hero_of_your_own(table: Table) -> None:
    refused(await table.bob.slash(table.channel, "hero edit", level=2), "You have no hero")


async def test_show_the_roster_and_one_hero(table: Table) -> None:
    await create(table, table.alice)
    await create(table, table.bob, name="Bo", stamina=20, recoveries=6)
    roster = embed_text(await table.bob.slash(table.channel, "hero show"))
    assert "Ash" in roster and "Bo" in roster and "Stamina: 30/30" in roster and "Stamina: 20/20" in roster
    assert f"<@{table.alice.id}>" in roster
    one = embed_text(await table.bob.slash(table.channel, "hero show", hero="ash"))
    assert "Bo" not in one.split("\n")[1] and "Stamina: 30/30" in one
    refused(await table.bob.slash(table.channel, "hero show", hero="Cy"), "No hero named Cy")


async def test_hostile_names_render_inert(table: Table) -> None:
    await create(table, table.alice, name="@everyone **Ash**")
    result = await table.alice.slash(table.channel, "hero show")
    shown = embed_text(result)
    assert "@everyone" not in shown and "\\*\\*Ash\\*\\*" in shown
    assert not pinged(table, result)


async def test_claim_an_open_hero(table: Table) -> None:
    await table.configure_director_role()
    await create(table, table.director, name="Cy")
    result = await table.alice.slash(table.channel, "hero claim", hero="cy")
    assert f"now played by <@{table.alice.id}>" in embed_text(result)
    assert not pinged(table, result)
    hero = (await heroes(table))["Cy"]
    assert hero.owner_id == table.alice.id and not sheet_of(hero).claimable
    # once claimed, nobody else can take it, and it is not open any more
    refused(await table.bob.slash(table.channel, "hero claim", hero="Cy"), "belongs to another player")
    refused(await table.alice.slash(table.channel, "hero claim", hero="Cy"), "already yours")
    assert (await heroes(table))["Cy"].owner_id == table.alice.id


async def test_a_player_cant_claim_anothers_hero_or_give_heroes_away(table: Table) -> None:
    await table.configure_director_role()
    await create(table, table.alice)
    await create(table, table.director, name="Cy")
    refused(await table.bob.slash(table.channel, "hero claim", hero="Ash"), "belongs to another player")
    given = await table.bob.slash(table.channel, "hero claim", hero="Cy", player=table.alice)
    refused(given, "Only a server Director")
    stored = await heroes(table)
    assert stored["Ash"].owner_id == table.alice.id and stored["Cy"].owner_id == table.director.id


async def test_director_reassigns_and_takes_back(table: Table) -> None:
    await table.configure_director_role()
    await create(table, table.alice)
    await table.director.slash(table.channel, "hero claim", hero="Ash", player=table.bob)
    assert (await heroes(table))["Ash"].owner_id == table.bob.id
    result = await table.director.slash(table.channel, "hero claim", hero="Ash")
    assert "open to claim" in embed_text(result)
    await table.alice.slash(table.channel, "hero claim", hero="Ash")
    assert (await heroes(table))["Ash"].owner_id == table.alice.id


async def test_a_director_held_hero_is_edited_by_directors_only(table: Table) -> None:
    await table.configure_director_role()
    await create(table, table.director, name="Cy")
    refused(await table.alice.slash(table.channel, "hero edit", hero="Cy", level=2), "Only a server Director")


async def test_autocomplete_offers_roster_names(table: Table) -> None:
    await create(table, table.alice)
    await create(table, table.alice, name="Bo")
    choices = await table.alice.autocomplete(table.channel, "hero show", "hero", "a")
    assert [c["value"] for c in choices] == ["Ash"]


async def test_a_claimed_hero_changes_hands_in_the_running_encounter(table: Table) -> None:
    from bot.play import encounter_of
    from tests.bot.test_tokens import start_encounter

    await table.configure_director_role()
    await create(table, table.director, name="Cy")
    await start_encounter(table)
    await table.alice.slash(table.channel, "hero claim", hero="Cy")
    stored = await table.store.view(ChannelKey(table.guild.id, table.channel.id))
    assert encounter_of(stored).creature("Cy").owner_id == table.alice.id


async def test_show_during_an_encounter_gives_the_stamina_the_hero_has_there(table: Table) -> None:
    from tests.bot.test_tokens import start_encounter

    await create(table, table.alice, name="Ash", stamina=30)
    await create(table, table.bob, name="Bo", stamina=20)
    before = embed_text(await table.alice.slash(table.channel, "hero show", hero="Ash"))
    assert "Stamina: 30/30" in before and "in the encounter" not in before
    await start_encounter(table)
    await table.director.slash(table.channel, "stamina damage", target="Ash", amount=7)
    one = embed_text(await table.alice.slash(table.channel, "hero show", hero="Ash"))
    assert "Stamina (in the encounter): 23/30 (healthy)" in one and "Stamina: Stamina" not in one
    roster = embed_text(await table.alice.slash(table.channel, "hero show"))
    assert "Ash (level 1, in the encounter)" in roster and "Stamina: 23/30" in roster
    assert "Stamina: 20/20" in roster
    stored = (await heroes(table))["Ash"]
    assert stored.data["vitals"]["stamina"] == 30  # the sheet itself catches up when the encounter ends


async def test_renaming_a_hero_in_the_running_encounter_renames_their_creature(table: Table) -> None:
    """ "Renaming a hero renames its creature in the running encounter too"."""
    from bot.play import encounter_of
    from tests.bot.test_tokens import start_encounter

    await create(table, table.alice, name="Ash")
    await start_encounter(table)
    edited = await table.alice.slash(table.channel, "hero edit", hero="Ash", new_name="Ashe")
    assert not edited.ephemeral
    assert set(await heroes(table)) == {"Ashe"}
    stored = await table.store.view(ChannelKey(table.guild.id, table.channel.id))
    assert "Ashe" in {c.id for c in encounter_of(stored).creatures}
    assert "Ash" not in {c.id for c in encounter_of(stored).creatures}


async def test_an_edit_during_the_encounter_applies_there_too_and_keeps_the_wounds(table: Table) -> None:
    from bot.play import encounter_of
    from tests.bot.test_tokens import start_encounter

    await create(table, table.alice, name="Ash", stamina=30)
    await start_encounter(table)
    await table.director.slash(table.channel, "stamina damage", target="Ash", amount=7)
    edited = await table.alice.slash(
        table.channel, "hero edit", hero="Ash", stamina=36, characteristics="M3 A1 R0 I0 P1"
    )
    assert not edited.ephemeral
    stored = await table.store.view(ChannelKey(table.guild.id, table.channel.id))
    ash = encounter_of(stored).creature("Ash")
    assert (ash.vitals.max_stamina, ash.vitals.stamina, ash.characteristics.might) == (36, 23, 3)
    sheet = (await heroes(table))["Ash"].data
    assert sheet["vitals"]["max_stamina"] == 36 and sheet["characteristics"]["might"] == 3
    asked = await table.director.slash(table.channel, "encounter end")
    assert asked.response is not None
    await table.director.click(asked.response.message, label="End the encounter")  # written back
    shown = embed_text(await table.alice.slash(table.channel, "hero show", hero="Ash"))
    assert "Stamina: 23/36" in shown and "in the encounter" not in shown  # the edit and the wounds kept


def test_a_long_roster_fits_one_embed() -> None:
    from bot.rules.hero import new_sheet
    from exts.heroes._views import HeroView, roster_embed, victories_embed

    heroes = [HeroView(f"{'<@123>*' * 8}{n}", 10**17 + n, new_sheet(999, 99)) for n in range(40)]
    for embed in (roster_embed(heroes), victories_embed(heroes)):
        assert len(embed) <= 6000 and len(embed.fields) <= 25
        assert "<@123>" not in (embed.description or "") + "".join(f.name or "" for f in embed.fields)
    assert "15 more not shown" in (roster_embed(heroes).footer.text or "")
