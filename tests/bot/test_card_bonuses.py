"""Ability cards as Forge Steel shows them, through SimCord: an invented hero (`tests/fixtures/forgesteel/`)
imported with `/hero import`, its card shown with `/ability show` with the distance its kit and features add,
and `/strike ability:` dealing the damage its features add (`bot.content.forgesteel.hero_bonuses`)."""

from __future__ import annotations

import pytest

from bot.play import sheet_of
from bot.rules import codec
from bot.rules.encounter import NewCreatures, add_creatures, add_hero, new_encounter_state
from bot.store import Change
from bot.store import Table as Stored
from tests.bot import ability_kit, harm_kit
from tests.bot.conftest import Table
from tests.bot.encounter_kit import ok
from tests.bot.files_kit import CdnServer
from tests.bot.roll_kit import Loaded
from tests.content.forgesteel_files import invented_bytes


@pytest.fixture
def dice() -> Loaded:
    return Loaded()


async def _import(table: Table, name: str) -> None:
    upload = (f"{name}.ds-hero", invented_bytes(f"{name}.ds-hero"))
    ok(await table.alice.slash(table.channel, "hero import", file=upload))


async def _shown(table: Table, ability: str) -> str:
    shown = await table.alice.slash(table.channel, "ability show", ability=ability)
    assert shown.response is not None
    embed = shown.response.embeds[0]
    return "\n".join([embed.description or "", *(f"{f.name}\n{f.value}" for f in embed.fields)])


async def test_a_kits_distance_bonus_is_on_the_card(table: Table, cdn_server: CdnServer) -> None:
    """Sable's Dusk Veil kit (ranged distance +5, melee +1): Needle Rain shows Ranged 10 where the file says
    Ranged 5, as Forge Steel shows it; the Ranged Weapon Free Strike reaches 10 too."""
    await _import(table, "Sable")
    assert "**Distance** Ranged 10" in await _shown(table, "Needle Rain")
    assert "**Distance** Melee 2 or Ranged 10" in await _shown(table, "Hook and Loose")
    assert "**Distance** Ranged 10" in await _shown(table, "Ranged Weapon Free Strike")


async def test_ability_features_reach_the_card_and_the_strike(
    table: Table, cdn_server: CdnServer, dice: Loaded
) -> None:
    """Oriel's blessings: Sunlance (Magic, Ranged) shows Ranged 12 and +1 damage; struck at tier 2 it deals
    4 + I 2 + 1 = 7."""
    await _import(table, "Oriel")
    card = await _shown(table, "Sunlance")
    assert "**Distance** Ranged 12" in card
    assert "Damage bonus: Blessing of Wrath +1 on every tier that deals damage" in card
    assert "**damage** 4 + I holy damage (= 7)" in card

    def change(stored: Stored) -> Change[None]:
        (hero,) = (h for h in stored.heroes.values() if h.name == "Oriel")
        state, _ = add_hero(new_encounter_state(), hero.id, hero.owner_id, "Oriel", sheet_of(hero))
        state, _ = add_creatures(state, NewCreatures("Ogre", 40, "director"))
        stored.begin_encounter("Hymns", table.director.id, codec.to_data(state))
        return Change("Encounter started", None)

    await table.store.mutate(harm_kit.key(table), table.director.id, "encounter.start", change)
    dice.load(6, 6)  # 12 + I 2 = 14: tier 2
    text = ok(await table.alice.slash(table.channel, "strike", ability="Sunlance", targets="Ogre"))
    lines = text.splitlines()
    assert lines[0] == "⚔️ **Oriel** uses **Sunlance** (5/7/9 holy damage · Intuition · +1 from features)"
    assert lines[2].startswith("**Ogre** — Tier 2: 7 holy damage")
    assert (await ability_kit.current(table)).creature("Ogre").vitals.stamina == 40 - 7
