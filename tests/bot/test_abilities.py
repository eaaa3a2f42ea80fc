"""/ability add | edit | remove | show | list through SimCord: hand-entered cards on the roster
sheet, the parsed tiers shown beside the text, who may change a hero's cards, the limits refused in one
line, autocomplete, and the cards reaching the hero's creature in the running encounter."""

from __future__ import annotations

from typing import Any

import pytest
from simcord.env import Env

from bot.play import sheet_of
from bot.rules.ability import ActionType, PowerRollSpec
from bot.rules.characteristics import Characteristic
from bot.rules.hero import HeroSheet
from bot.store import ChannelKey
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table
from tests.bot.test_heroes import create

MIND_SPIKE: dict[str, Any] = {
    "name": "Mind Spike",
    "action": "main",
    "characteristic": "reason",
    "keywords": "Magic, Psionic, Ranged, Strike",
    "tiers": "2 + R damage; 4 + R damage; 6 + R damage",
}
PSI_HOOK: dict[str, Any] = {
    "name": "Psi Hook",
    "action": "main",
    "characteristic": "reason",
    "tiers": "3 + R psychic damage; M < [weak] slowed (save ends) | 5 + R damage; pull 2 | "
    "7 + R damage; the target glows softly",
}


async def sheet(table: Table, name: str = "Ash") -> HeroSheet:
    stored = await table.store.view(ChannelKey(table.guild.id, table.channel.id))
    hero = stored.hero_named(name)
    assert hero is not None
    return sheet_of(hero)


async def by_alice(ash: Table, command: str, **options: Any) -> str:
    """Alice's `/command options` in #combat: the public reply."""
    return kit.ok(await ash.alice.slash(ash.channel, command, **options))


@pytest.fixture
async def ash(table: Table) -> Table:
    """Alice plays Ash (R 2); the Director role is configured."""
    await table.configure_director_role()
    kit.ok(await create(table, table.alice, characteristics="M1 A0 R2 I0 P1"))  # Ash, 30 Stamina
    return table


async def test_the_issues_example_adds_a_card(ash: Table) -> None:
    """ "/ability add name:Mind Spike action:main characteristic:reason keywords:Magic, Psionic, Ranged,
    Strike tiers:2 + R damage; 4 + R damage; 6 + R damage"."""
    result = await ash.alice.slash(ash.channel, "ability add", **MIND_SPIKE, distance="Ranged 10")
    assert kit.ok(result) == "Mind Spike is now one of Ash's abilities (1)."
    (card,) = (await sheet(ash)).abilities
    assert (card.name, card.action, card.keywords, card.distance) == (
        "Mind Spike",
        ActionType.MAIN,
        ("Magic", "Psionic", "Ranged", "Strike"),
        "Ranged 10",
    )
    assert card.power_roll == PowerRollSpec(
        (Characteristic.REASON,), ("2 + R damage", "4 + R damage", "6 + R damage")
    )


async def test_show_gives_each_tier_as_written_and_as_read(ash: Table) -> None:
    """ "/ability show (the card as an embed with the parsed tiers ...)": what the parser understood, and
    anything it didn't shown verbatim ("never dropped and never guessed")."""
    await by_alice(ash, "ability add", **PSI_HOOK)
    shown = await ash.bob.slash(ash.channel, "ability show", ability="psi hook", hero="Ash")
    assert shown.response is not None
    embed = shown.response.embeds[0]
    assert embed.title == "Psi Hook"
    assert "2d10 +2 for Ash" in (embed.description or "")
    tiers = {f.name: f.value or "" for f in embed.fields}
    assert "**damage** 3 + R psychic damage (= 5)" in tiers["Tier 1 (11 or lower)"]
    assert "**potency** M < [weak] = 0: slowed (save ends)" in tiers["Tier 1 (11 or lower)"]
    assert "**forced movement** pull 2" in tiers["Tier 2 (12-16)"]
    assert "**as written** “the target glows softly”" in tiers["Tier 3 (17+)"]


async def test_edit_remove_and_list(ash: Table) -> None:
    await by_alice(ash, "ability add", **MIND_SPIKE)
    await by_alice(ash, "ability add", name="Step Aside", action="maneuver", effect="Shift 2.")
    text = await by_alice(ash, "ability edit", ability="mind spike", cost=3, new_name="Mind Lance")
    assert text == "Ash's Mind Lance is changed."
    lance, _ = (await sheet(ash)).abilities
    assert (lance.name, lance.cost, lance.power_roll) == ("Mind Lance", 3, _spike_roll())
    listed = await ash.bob.slash(ash.channel, "ability list", hero="ash")
    assert listed.response is not None
    description = listed.response.embeds[0].description or ""
    assert "**Main action**: Mind Lance (3 heroic resource)" in description
    assert "**Maneuver**: Step Aside" in description
    await by_alice(
        ash,
        "ability edit",
        ability="Step Aside",
        effect="none",
        tiers=MIND_SPIKE["tiers"],
        characteristic="R",
    )
    assert (await sheet(ash)).abilities[1].effect == ""
    text = await by_alice(ash, "ability remove", ability="Mind Lance")
    assert text == "Mind Lance is no longer one of Ash's abilities (1 left)."
    assert [a.name for a in (await sheet(ash)).abilities] == ["Step Aside"]


def _spike_roll() -> PowerRollSpec:
    return PowerRollSpec((Characteristic.REASON,), ("2 + R damage", "4 + R damage", "6 + R damage"))


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({**MIND_SPIKE, "tiers": "2 damage; 4 damage"}, "Give three tier results"),
        ({**MIND_SPIKE, "characteristic": "luck"}, "isn't a characteristic"),
        ({"name": "Nothing", "action": "main"}, "needs a power roll or an effect"),
        ({**MIND_SPIKE, "tiers": None}, "A characteristic or bonus is for a power roll"),
        ({**MIND_SPIKE, "keywords": ",".join(f"K{n}" for n in range(13))}, "at most 12 keywords"),
        ({**MIND_SPIKE, "name": "Bad\x07Name"}, "control characters"),
    ],
    ids=[
        "two tiers",
        "no such characteristic",
        "nothing to do",
        "characteristic without tiers",
        "keywords",
        "name",
    ],
)
async def test_bad_cards_are_refused_in_one_line(ash: Table, options: dict[str, Any], says: str) -> None:
    given = {k: v for k, v in options.items() if v is not None}
    assert says in kit.refused(await ash.alice.slash(ash.channel, "ability add", **given))
    assert (await sheet(ash)).abilities == ()


async def test_a_name_taken_and_the_limit_are_refused(ash: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.content import ability_entry

    await by_alice(ash, "ability add", **MIND_SPIKE)
    text = kit.refused(
        await ash.alice.slash(ash.channel, "ability add", **{**MIND_SPIKE, "name": "mind  SPIKE"})
    )
    assert text.startswith("This hero already has an ability by that name")
    monkeypatch.setattr(ability_entry, "ABILITIES_MAX", 1)
    text = kit.refused(await ash.alice.slash(ash.channel, "ability add", **{**MIND_SPIKE, "name": "Other"}))
    assert text == "A hero keeps at most 1 abilities: remove one with /ability remove first."
    assert len((await sheet(ash)).abilities) == 1


async def test_only_the_heros_player_or_a_director_changes_its_cards(ash: Table, simcord_env: Env) -> None:
    text = kit.refused(await ash.bob.slash(ash.channel, "ability add", **MIND_SPIKE, hero="Ash"))
    assert text.startswith("Only Ash's player or a server Director (") and text.endswith(
        "can change Ash's abilities."
    )
    kit.ok(await ash.director.slash(ash.channel, "ability add", **MIND_SPIKE, hero="Ash"))
    assert kit.refused(await ash.bob.slash(ash.channel, "ability add", **MIND_SPIKE)).startswith(
        "You have no hero in this channel"
    )
    assert [a.name for a in (await sheet(ash)).abilities] == ["Mind Spike"]


async def test_autocomplete_offers_the_heros_abilities(ash: Table) -> None:
    await by_alice(ash, "ability add", **MIND_SPIKE)
    offered = await ash.alice.autocomplete(ash.channel, "ability edit", "ability", "spi")
    assert [c["value"] for c in offered] == ["Mind Spike"]
    shown = await ash.alice.autocomplete(ash.channel, "ability show", "ability", "")
    assert [c["value"] for c in shown] == [
        "Mind Spike",
        "Melee Weapon Free Strike",
        "Ranged Weapon Free Strike",
        "Grab",
        "Knockback",
        "Charge",
    ]


async def test_cards_reach_the_heros_creature_in_the_running_encounter(ash: Table) -> None:
    """A hero's abilities go with them into play; a card added mid-fight reaches their creature, whose
    wounds stay as they are."""
    await kit.start(ash)
    kit.ok(await ash.director.slash(ash.channel, "encounter hero", name="Ash"))
    kit.ok(await ash.director.slash(ash.channel, "stamina damage", target="Ash", amount=5))
    await by_alice(ash, "ability add", **MIND_SPIKE)
    creature = (await kit.stored(ash)).creature("Ash")
    assert [a.name for a in creature.abilities] == ["Mind Spike"]
    assert creature.vitals.stamina == 25
    assert (await sheet(ash)).vitals.stamina == 30  # the sheet catches up when the hero leaves
