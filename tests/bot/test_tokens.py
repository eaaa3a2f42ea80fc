"""Hero tokens: `bot.hero_tokens.spend_benefit` over a store Table, and /tokens show | award | spend | reset
through SimCord (what is stored, what replies show, who may, bad input)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.hero_tokens import NoHero, clear_used, resolve_hero, spend_benefit
from bot.play import encounter_of, put_encounter, sheet_of
from bot.rules import codec
from bot.rules.conditions import Condition, Duration
from bot.rules.dice import FixedDice
from bot.rules.encounter import Encounter, NewCreatures, add_creatures, add_hero, new_encounter_state, saves
from bot.rules.errors import RuleError
from bot.rules.hero import SheetEdit, edit_sheet, new_sheet
from bot.rules.resources import TokenBenefit
from bot.rules.turns import add_condition
from bot.rules.turns.events import SaveDue
from bot.store import Change, ChannelKey
from bot.store import Table as StoreTable
from tests.bot.conftest import Table
from tests.bot.test_heroes import create, embed_text, pinged, refused

ALICE, BOB, DANA = 101, 102, 103
KEY = ChannelKey(1, 2)


# --- spend_benefit, pure over a store Table ---------------------------------------------------------------
def roster_table(tokens: int, *, in_encounter: bool) -> StoreTable:
    table = StoreTable(KEY, 0, tokens=tokens)
    ash = table.add_hero(ALICE, "Ash", codec.to_data(new_sheet(30, 8)))
    bo = table.add_hero(BOB, "Bo", codec.to_data(new_sheet(24, 6)))
    if in_encounter:
        encounter = new_encounter_state()
        for hero in (ash, bo):
            encounter, _ = add_hero(encounter, hero.id, hero.owner_id, hero.name, sheet_of(hero))
        encounter, _ = add_creatures(encounter, NewCreatures("Goblin", 5, "director"))
        table.begin_encounter("Ambush", DANA, codec.to_data(encounter))
    return table


def used(table: StoreTable) -> tuple[str, ...]:
    return codec.load(Encounter, table.require_encounter().state).tokens_used


def test_spend_outside_combat_only_checks_the_pool() -> None:
    table = roster_table(3, in_encounter=False)
    spent = spend_benefit(table, "ash", TokenBenefit.REROLL)
    assert (spent.pool, table.tokens) == (2, 2)
    spend_benefit(table, ALICE, TokenBenefit.REROLL)  # no turns outside combat: the pool is the only limit
    assert table.tokens == 1
    with pytest.raises(RuleError, match="Not enough hero tokens: the party has 1, that costs 2"):
        spend_benefit(table, "Bo", TokenBenefit.STAMINA)
    assert table.tokens == 1


def test_spend_in_combat_is_one_benefit_per_hero_per_turn() -> None:
    table = roster_table(5, in_encounter=True)
    spent = spend_benefit(table, BOB, TokenBenefit.SURGES)  # a member id: that member's hero creature
    assert spent.used_by == ("Bo",) and used(table) == ("Bo",) and table.tokens == 4
    before = (table.tokens, dict(table.require_encounter().state))
    with pytest.raises(RuleError, match="only one hero-token benefit per turn"):
        spend_benefit(table, "bo", TokenBenefit.SAVE)
    assert (table.tokens, table.require_encounter().state) == before  # a refusal writes nothing
    spend_benefit(table, "Ash", TokenBenefit.STAMINA)
    assert used(table) == ("Bo", "Ash") and table.tokens == 2


def test_resolve_hero_keys_and_refusals() -> None:
    table = roster_table(5, in_encounter=True)
    ash = resolve_hero(table, "ASH")
    assert ash.creature_id == "Ash" and ash.roster is not None and ash.owner_id == ALICE and ash.key == "Ash"
    with pytest.raises(NoHero, match="not a hero"):
        resolve_hero(table, "Goblin")
    with pytest.raises(NoHero, match="No hero by that name"):
        resolve_hero(table, "Cy")
    with pytest.raises(NoHero, match="You have no hero here"):
        resolve_hero(table, DANA)
    outside = roster_table(5, in_encounter=False)
    assert resolve_hero(outside, "Ash").creature_id is None and resolve_hero(outside, "Ash").key == "Ash"


def test_clear_used_starts_a_new_turn() -> None:
    table = roster_table(5, in_encounter=True)
    spend_benefit(table, "Ash", TokenBenefit.REROLL)
    spend_benefit(table, "Bo", TokenBenefit.REROLL)
    encounter = codec.load(Encounter, table.require_encounter().state)
    assert clear_used(encounter, "Ash").tokens_used == ("Bo",)
    assert clear_used(encounter).tokens_used == ()


@settings(max_examples=60, deadline=None)
@given(
    pool=st.integers(0, 6),
    spends=st.lists(
        st.tuples(st.sampled_from(["Ash", "Bo", ALICE, BOB]), st.sampled_from(list(TokenBenefit))), max_size=6
    ),
)
def test_spends_never_overdraw_and_never_twice_a_turn(
    pool: int, spends: list[tuple[str | int, TokenBenefit]]
) -> None:
    table = roster_table(pool, in_encounter=True)
    accepted: list[tuple[str | int, TokenBenefit]] = []
    for hero, benefit in spends:
        before = (table.tokens, table.require_encounter().state)
        try:
            spend_benefit(table, hero, benefit)
        except RuleError:
            assert (table.tokens, table.require_encounter().state) == before
            continue
        accepted.append((hero, benefit))
    assert table.tokens == pool - sum(b.cost for _, b in accepted) >= 0
    assert sorted(used(table)) == sorted({resolve_hero(table, h).key for h, _ in accepted})
    assert len(used(table)) == len(accepted) <= 2


# --- /tokens through SimCord ------------------------------------------------------------------------------
def key_of(table: Table) -> ChannelKey:
    return ChannelKey(table.guild.id, table.channel.id)


async def stored(table: Table) -> StoreTable:
    return await table.store.view(key_of(table))


async def set_tokens(table: Table, pool: int) -> None:
    def change(t: StoreTable) -> Change[None]:
        t.tokens = pool
        return Change("tokens set (test)", None)

    await table.store.mutate(key_of(table), table.director.id, "test.tokens", change)


async def start_encounter(table: Table, *conditions: tuple[str, Condition, Duration]) -> None:
    """Bring every roster hero and a goblin into an encounter, with `conditions` imposed."""

    def change(t: StoreTable) -> Change[None]:
        encounter = new_encounter_state()
        for hero in t.heroes.values():
            encounter, _ = add_hero(encounter, hero.id, hero.owner_id, hero.name, sheet_of(hero))
        encounter, _ = add_creatures(encounter, NewCreatures("Goblin", 5, "director"))
        turns = encounter.turns
        for creature_id, condition, duration in conditions:
            turns = add_condition(turns, creature_id, condition, duration).state
        t.begin_encounter("Ambush", table.director.id, codec.to_data(encounter.with_turns(turns)))
        return Change("encounter started (test)", None)

    await table.store.mutate(key_of(table), table.director.id, "test.start", change)


async def hurt(table: Table, name: str, stamina: int) -> None:
    def change(t: StoreTable) -> Change[None]:
        hero = t.hero_named(name)
        assert hero is not None
        hero.data = codec.to_data(edit_sheet(sheet_of(hero), SheetEdit(current_stamina=stamina)))
        return Change("hurt (test)", None)

    await table.store.mutate(key_of(table), table.director.id, "test.hurt", change)


async def test_award_and_show(party: Table) -> None:
    result = await party.director.slash(party.channel, "tokens award", count=3)
    assert "Hero tokens: 3" in embed_text(result)
    await party.director.slash(party.channel, "tokens award")
    assert (await stored(party)).tokens == 4
    shown = embed_text(await party.alice.slash(party.channel, "tokens show"))
    assert "Hero tokens: 4" in shown


async def test_a_player_cant_award_or_reset_tokens(party: Table) -> None:
    refused(await party.alice.slash(party.channel, "tokens award", count=2), "Only a server Director")
    refused(await party.bob.slash(party.channel, "tokens reset"), "Only a server Director")
    assert (await stored(party)).tokens == 0


async def test_manage_server_counts_as_director_manage_channels_doesnt(party: Table) -> None:
    """Server Directors are the Director role's members "and members with **Manage Server** at the
    server level"."""
    mo = party.add_channel_manager("mo")
    refused(await mo.slash(party.channel, "tokens award"), "Only a server Director")
    await party.add_server_manager("max").slash(party.channel, "tokens award", count=2)
    assert (await stored(party)).tokens == 2


async def test_reset_sets_one_token_per_hero_or_carries_over(party: Table) -> None:
    await set_tokens(party, 7)
    result = await party.director.slash(party.channel, "tokens reset")
    assert "Hero tokens: 2" in embed_text(result)
    assert (await stored(party)).tokens == 2
    await party.store.update_settings(party.guild.id, tokens_reset_per_session=False)
    await set_tokens(party, 5)
    result = await party.director.slash(party.channel, "tokens reset")
    assert "carried over" in embed_text(result) and (await stored(party)).tokens == 5


async def test_reset_clears_who_used_a_benefit(party: Table) -> None:
    await set_tokens(party, 4)
    await start_encounter(party)
    await party.alice.slash(party.channel, "tokens spend", use="reroll")
    assert encounter_of(await stored(party)).tokens_used == ("Ash",)
    await party.director.slash(party.channel, "tokens reset")
    assert encounter_of(await stored(party)).tokens_used == ()


async def test_spend_surges_in_combat(party: Table) -> None:
    await set_tokens(party, 2)
    await start_encounter(party)
    result = await party.alice.slash(party.channel, "tokens spend", use="surges")
    text = embed_text(result)
    assert "+2 surges (2 now)" in text and "Hero tokens left: 1" in text and not result.ephemeral
    after = await stored(party)
    assert after.tokens == 1 and encounter_of(after).surges == {"Ash": 2}
    shown = embed_text(await party.bob.slash(party.channel, "tokens show"))
    assert "Hero tokens: 1" in shown and "Used a benefit this turn: Ash" in shown
    # one benefit per hero per turn
    refused(await party.alice.slash(party.channel, "tokens spend", use="surges"), "one hero-token benefit")
    assert (await stored(party)).tokens == 1


async def test_surges_and_saves_need_combat(party: Table) -> None:
    await set_tokens(party, 2)
    refused(
        await party.alice.slash(party.channel, "tokens spend", use="surges"),
        "not in this channel's encounter",
    )
    refused(await party.alice.slash(party.channel, "tokens spend", use="save"), "only work in combat")
    assert (await stored(party)).tokens == 2


@pytest.mark.parametrize("dice", [FixedDice([3, 3, 3])])
async def test_spend_save_only_after_a_failed_save(party: Table, dice: FixedDice) -> None:
    """Draw Steel, The Basics, "Spending Hero Tokens": "You can spend a hero token when you fail a saving
    throw, letting you succeed on the save instead." -- refused with no failed save; offered on the
    failure."""
    await set_tokens(party, 3)
    await start_encounter(
        party,
        ("Ash", Condition.BLEEDING, Duration.SAVE),
        ("Ash", Condition.SLOWED, Duration.SAVE),
        ("Bo", Condition.DAZED, Duration.EOT),
    )
    refused(await party.alice.slash(party.channel, "tokens spend", use="save"), "has just failed")
    refused(await party.bob.slash(party.channel, "tokens spend", use="save"), "has just failed")
    assert (await stored(party)).tokens == 3

    def owe(t: StoreTable) -> Change[None]:
        encounter = encounter_of(t)
        encounter = saves.owe_turn_end_saves(encounter, [SaveDue("Ash", Condition.SLOWED, "")])
        put_encounter(t, encounter)
        return Change("owed (test)", None)

    await party.store.mutate(key_of(party), party.director.id, "test.owe", owe)
    failed = await party.alice.slash(party.channel, "save", target="Ash")  # d10 3
    assert failed.response is not None and "fails" in failed.response.content
    label = "Spend a hero token: succeed instead"
    refused(await party.bob.click(failed.response.message, label=label), "None of your heroes")
    result = await party.alice.click(failed.response.message, label=label)
    assert result.response is not None and "slowed ends" in result.response.content
    after = await stored(party)
    left = {(c.creature_id, c.condition) for c in encounter_of(after).turns.conditions}
    assert ("Ash", Condition.SLOWED) not in left and ("Ash", Condition.BLEEDING) in left
    assert after.tokens == 2
    refused(await party.alice.slash(party.channel, "tokens spend", use="save"), "has just failed")


async def test_spend_reroll(party: Table) -> None:
    await set_tokens(party, 1)
    result = await party.bob.slash(party.channel, "tokens spend", use="reroll")
    assert "Bo spends a hero token: reroll the test and keep the new roll" in embed_text(result)
    assert (await stored(party)).tokens == 0
    refused(await party.bob.slash(party.channel, "tokens spend", use="reroll"), "Not enough hero tokens")


async def test_regain_heals_the_roster_sheet_outside_combat(party: Table) -> None:
    await set_tokens(party, 2)
    await hurt(party, "Ash", 5)
    result = await party.alice.slash(party.channel, "tokens spend", use="regain", hero="ash")
    assert "regains 10 Stamina" in embed_text(result) and "Stamina: 15/30" in embed_text(result)
    after = await stored(party)
    assert after.tokens == 0 and sheet_of(after.hero_named("Ash")).vitals.stamina == 15  # type: ignore[arg-type]


async def test_regain_heals_the_encounter_creature_in_combat(party: Table) -> None:
    await set_tokens(party, 3)
    await hurt(party, "Bo", 1)
    await start_encounter(party)
    result = await party.bob.slash(party.channel, "tokens spend", use="regain")
    assert "Stamina: 9/24" in embed_text(result)
    after = await stored(party)
    assert encounter_of(after).creature("Bo").vitals.stamina == 9 and after.tokens == 1
    refused(await party.alice.slash(party.channel, "tokens spend", use="regain"), "Not enough hero tokens")


async def test_a_player_cant_spend_for_anothers_hero(party: Table) -> None:
    await set_tokens(party, 2)
    refused(
        await party.bob.slash(party.channel, "tokens spend", use="reroll", hero="Ash"),
        "Only Ash's player or a server Director",
    )
    assert (await stored(party)).tokens == 2
    await party.director.slash(party.channel, "tokens spend", use="reroll", hero="Ash")
    assert (await stored(party)).tokens == 1


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"use": "reroll", "hero": "Nobody"}, ("No hero by that name",)),
        ({"use": "reroll", "hero": "   "}, ("Name the hero",)),
        ({"use": "save", "condition": "@everyone"}, ("only work in combat",)),
    ],
)
async def test_spend_bad_input(party: Table, options: dict[str, Any], words: tuple[str, ...]) -> None:
    await set_tokens(party, 2)
    refused(await party.alice.slash(party.channel, "tokens spend", **options), *words)
    assert (await stored(party)).tokens == 2


async def test_spend_without_a_hero(table: Table) -> None:
    await set_tokens(table, 2)
    refused(await table.bob.slash(table.channel, "tokens spend", use="reroll"), "You have no hero here")


async def test_goblins_dont_spend_hero_tokens(party: Table) -> None:
    await set_tokens(party, 2)
    await start_encounter(party)
    refused(
        await party.director.slash(party.channel, "tokens spend", use="surges", hero="goblin"), "not a hero"
    )


async def test_hostile_hero_names_in_token_replies_are_inert(table: Table) -> None:
    await create(table, table.alice, name="@everyone <@123456789012345678>")
    await set_tokens(table, 1)
    result = await table.alice.slash(table.channel, "tokens spend", use="reroll")
    assert not pinged(table, result) and "@everyone" not in embed_text(result)
