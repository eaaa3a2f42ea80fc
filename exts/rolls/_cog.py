"""`/roll`: a power roll (`bot.rules.power`), with its Downgrade buttons and (on a test) a Reroll button that
spends a hero token (`bot.hero_tokens.spend_benefit`). The reply is rendered by `exts.rolls._views`; the
buttons are `DynamicItem`s that read the roll back from the store (docs/architecture.md, "The features").
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import discord
from discord import app_commands

from bot import autocomplete
from bot.client import BotCog, DrawSteelBot
from bot.error_hook import guarded
from bot.hero_tokens import spend_benefit
from bot.permissions import actor_from_interaction, require_self
from bot.play import (
    Caller,
    InTime,
    Member,
    active_encounter,
    apply,
    channel_key,
    hero_of_member,
    play,
    sheet_of,
)
from bot.replies import edit_response, fail, send
from bot.rules.characteristics import Characteristic
from bot.rules.conditions import BleedingTrigger, roll_trigger
from bot.rules.creature import Creature
from bot.rules.encounter import Encounter, creature_of_hero
from bot.rules.encounter.bleeding import Bleed, bleed, is_bleeding
from bot.rules.power import Difficulty, RollAction, RollKind, parse_auto_tiers, reroll, roll_power
from bot.rules.resources import TokenBenefit
from bot.rules.situations import RollUse, parse_situations, situation_modifiers
from bot.rules.turns import current
from bot.store import AlreadyDone, Change, Table
from bot.ui.combat import bleed_reply, bleed_summary
from bot.ui.persistent import ForgedId, PersistentView, number
from exts.rolls._views import (
    BONUS_LIMIT,
    DOWNGRADE_TEMPLATE,
    EDGES_MAX,
    LABEL_MAX,
    REROLL_TEMPLATE,
    TIERS_MAX,
    CardError,
    RollCard,
    RollText,
    read_text,
    render_roll,
    roll_buttons,
)

ALREADY_REROLLED = "This test was already rerolled: a hero can use one hero-token benefit per test."
_CHARACTERISTICS = [app_commands.Choice(name=c.value.capitalize(), value=c.value) for c in Characteristic]
_KINDS = [app_commands.Choice(name=k.value, value=k.value) for k in RollKind]
_DIFFICULTIES = [app_commands.Choice(name=d.value, value=d.value) for d in Difficulty]
#: What a roll is made as, in the book's words ("free strike", not the value's "free-strike").
_ACTION_WORDS = {
    RollAction.MAIN: "main action",
    RollAction.MANEUVER: "maneuver",
    RollAction.TRIGGERED: "triggered action",
    RollAction.FREE_STRIKE: "free strike",
}
ACTION_CHOICES = [app_commands.Choice(name=_ACTION_WORDS[a], value=a.value) for a in RollAction]
AUTO_TEXT_MAX = 20
SITUATION_TEXT_MAX = 200


def _characteristic(text: str) -> Characteristic:
    key = text.strip().lower()
    for c in Characteristic:
        if key in (c.value, c.letter.lower()):
            return c
    fail("Pick a characteristic: might, agility, reason, intuition or presence (or give bonus:<number>).")


def _kind(text: str | None, difficulty: Difficulty | None) -> RollKind:
    if text is None:
        return RollKind.TEST if difficulty is not None else RollKind.ABILITY
    key = text.strip().lower()
    kind = next((k for k in RollKind if k.value == key), None)
    if kind is None:
        fail("kind is ability or test: e.g. kind:test difficulty:medium.")
    if kind is RollKind.ABILITY and difficulty is not None:
        fail("difficulty is for tests: use kind:test, or leave difficulty out for an ability roll.")
    return kind


def _difficulty(text: str | None) -> Difficulty | None:
    if text is None:
        return None
    key = text.strip().lower()
    difficulty = next((d for d in Difficulty if d.value == key), None)
    if difficulty is None:
        fail("difficulty is easy, medium or hard: e.g. kind:test difficulty:hard.")
    return difficulty


def _check_numbers(bonus: int, edges: int, banes: int) -> None:
    """The same limits the options declare (a client that ignores them still gets a one-line answer)."""
    if not -BONUS_LIMIT <= bonus <= BONUS_LIMIT:
        fail(f"bonus runs from -{BONUS_LIMIT} to {BONUS_LIMIT}: e.g. bonus:2, or bonus:-1 for a penalty.")
    for name, value in (("edges", edges), ("banes", banes)):
        if not 0 <= value <= EDGES_MAX:
            fail(f"{name} runs from 0 to {EDGES_MAX} (more than 2 count as 2): e.g. {name}:1.")


def _require_roller(interaction: discord.Interaction[Any], card: RollCard, action: str) -> None:
    """A roll's buttons belong to the member who rolled it."""
    require_self(
        actor_from_interaction(interaction),
        card.roller_id,
        what="this roll",
        action=action,
        instead="make your own with /roll",
    )


def roll_view(card: RollCard, roll_id: int) -> PersistentView | None:
    """The reply's buttons for the roll kept as `roll_id` (None when there are none: a tier 1 ability
    roll)."""
    specs = roll_buttons(card, roll_id)
    if not specs:
        return None
    view = PersistentView()
    for spec in specs:
        style = discord.ButtonStyle.primary if spec.style == "primary" else discord.ButtonStyle.secondary
        item: discord.ui.Item[Any]
        if spec.tier is None:
            item = RerollButton(str(roll_id), label=spec.label, style=style)
        else:
            item = DowngradeButton(str(roll_id), spec.tier, label=spec.label, style=style)
        view.add_item(item)
    return view


@dataclasses.dataclass(frozen=True, slots=True)
class Kept:
    """A roll read back from the store for a press on its buttons."""

    roll_id: int
    card: RollCard


async def _kept_roll(interaction: discord.Interaction[Any], state: str, in_time: InTime, action: str) -> Kept:
    """The roll the pressed button belongs to, from the store: never from the custom id, which the pressing
    client may forge (it re-rendered another member's roll as a natural 20). The id must be the pressed
    message's own roll (the interaction that made it, as Discord says); `CardError` otherwise, or when the
    roll is gone (an older bot's button, or older than the store keeps). Only its roller may `action` it."""
    try:
        roll_id = number(state)
    except ForgedId:
        raise CardError() from None
    message = interaction.message
    made_by = message.interaction_metadata if message is not None else None
    if made_by is None or made_by.id != roll_id:
        raise CardError()
    assert isinstance(interaction.client, DrawSteelBot)
    stored = await in_time.run(interaction.client.store.roll(roll_id, channel_key(interaction)))
    if stored is None:
        raise CardError()
    card = RollCard.decode(stored)
    _require_roller(interaction, card, action)
    return Kept(roll_id, card)


async def _edit_roll_message(
    interaction: discord.Interaction[Any],
    kept: Kept,
    text: RollText,
    in_time: InTime,
    note: str | None = None,
) -> None:
    """Keep the roll's new card, then re-render the roll message in place (response type 7, or an edit after
    a deferral)."""
    assert isinstance(interaction.client, DrawSteelBot)
    key = channel_key(interaction)
    await in_time.run(interaction.client.store.update_roll(kept.roll_id, key, kept.card.encode()))
    content, embed = render_roll(kept.card, text, interaction.user.display_name, note)
    view = roll_view(kept.card, kept.roll_id)
    await edit_response(interaction, content=content, embed=embed, view=view)


class DowngradeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=DOWNGRADE_TEMPLATE):
    """ "Downgrade to tier N": the roller takes a lower tier's outcome ("Downgrade a Power Roll")."""

    def __init__(
        self,
        state: str,
        tier: int,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or f"Downgrade to tier {tier}", style=style, custom_id=f"roll:dg:{tier}:{state}"
            )
        )
        self.state = state
        self.tier = tier

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> DowngradeButton:
        return cls(match["state"], int(match["to"]))

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        in_time = InTime(interaction, update=True)
        kept = await _kept_roll(interaction, self.state, in_time, "downgrade")
        card = kept.card
        downgraded = dataclasses.replace(kept, card=card.downgrade(self.tier))
        await _edit_roll_message(interaction, downgraded, read_text(interaction.message, card.kind), in_time)


class RerollButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=REROLL_TEMPLATE):
    """ "Reroll (hero token)": reroll a test and keep the new roll, for one hero token ("Spending Hero
    Tokens"); the spend is one store transaction (kind "token")."""

    def __init__(
        self,
        state: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.primary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label or "Reroll (hero token)", style=style, custom_id=f"roll:rr:{state}")
        )
        self.state = state

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> RerollButton:
        return cls(match["state"])

    @guarded
    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        in_time = InTime(interaction, update=True)
        kept = await _kept_roll(interaction, self.state, in_time, "reroll")
        card = kept.card
        if card.kind is not RollKind.TEST:
            fail("A hero token rerolls a test, not an ability roll: downgrade it instead, or roll again.")
        if card.rerolled:
            fail(ALREADY_REROLLED)
        text = read_text(interaction.message, card.kind)
        fresh = reroll(interaction.client.dice, card.roll)
        old = " + ".join(str(d) for d in card.dice)
        new = " + ".join(str(d) for d in fresh.dice)
        user_id = interaction.user.id

        def spend(_member: Member, table: Table) -> Change[int]:
            if table.tokens < TokenBenefit.REROLL.cost:
                fail("The party has no hero tokens left: the Director can award one with /tokens award.")
            pool = spend_benefit(table, user_id, TokenBenefit.REROLL).pool
            return Change(
                f"Spent a hero token to reroll a test: {old} became {new} ({pool} left).",
                pool,
                {"benefit": TokenBenefit.REROLL.value, "old": list(card.dice), "new": list(fresh.dice)},
            )

        # one reroll per roll message, recorded with the spend: a second press (even during the first, or in
        # another process) is refused and spends nothing
        once = f"reroll:{interaction.message.id}" if interaction.message is not None else None
        try:
            left = await apply(interaction, "token", spend, once=once, in_time=in_time)
        except AlreadyDone:
            fail(ALREADY_REROLLED)
        rerolled = dataclasses.replace(
            card, dice=(fresh.dice[0], fresh.dice[1]), downgraded_to=None, rerolled=True
        )
        note = (
            f"Hero token spent: rerolled {old} into {new}; {left} hero token{'' if left == 1 else 's'} left."
        )
        await _edit_roll_message(interaction, dataclasses.replace(kept, card=rerolled), text, in_time, note)


def own_creature_of(encounter: Encounter, user_id: int) -> Creature | None:
    """The member's creature in the encounter whose characteristics a roll reads: the one taking its turn
    if it is theirs, else their first hero, else their first creature (None: they control none)."""
    mine = [c for c in encounter.creatures if c.owner_id == user_id]
    now = current(encounter.turns)
    up = encounter.turns.entry(now.entry) if now is not None else None
    acting = [c for c in mine if up is not None and c.id in up.creature_ids]
    heroes = [c for c in mine if c.is_hero]
    return next(iter(acting or heroes or mine), None)


class Roll(BotCog):
    """Power rolls (/roll)."""

    @app_commands.command(
        name="roll", description="Make a power roll (2d10 + bonus), e.g. an ability or a test."
    )
    @app_commands.choices(
        characteristic=_CHARACTERISTICS, kind=_KINDS, difficulty=_DIFFICULTIES, action=ACTION_CHOICES
    )
    @app_commands.autocomplete(situation=autocomplete.situations)
    @app_commands.guild_only()
    async def roll(
        self,
        interaction: discord.Interaction[Any],
        bonus: app_commands.Range[int, -BONUS_LIMIT, BONUS_LIMIT] = 0,
        characteristic: str | None = None,
        edges: app_commands.Range[int, 0, EDGES_MAX] = 0,
        banes: app_commands.Range[int, 0, EDGES_MAX] = 0,
        auto_tier: app_commands.Range[str, 1, AUTO_TEXT_MAX] | None = None,
        kind: str | None = None,
        difficulty: str | None = None,
        tiers: app_commands.Range[str, 1, TIERS_MAX] | None = None,
        label: app_commands.Range[str, 1, LABEL_MAX] | None = None,
        hidden: bool = False,
        action: str | None = None,
        situation: app_commands.Range[str, 1, SITUATION_TEXT_MAX] | None = None,
    ) -> None:
        """A power roll (ability or test) with edges, banes and tiers; Downgrade and Reroll buttons.

        Example: /roll characteristic:might edges:1 label:Strike

        Args:
            bonus: Added to the roll: your characteristic if you have no hero, skills; negative for penalties
            characteristic: Read from your hero in this channel (see /hero create)
            edges: How many edges (2 or more: a double edge)
            banes: How many banes (2 or more: a double bane)
            auto_tier: Automatic tier outcomes, one per effect: e.g. 3, or 3,1 (different ones cancel)
            kind: An ability roll (default) or a test
            difficulty: A test's difficulty: easy, medium or hard
            tiers: The three outcomes, e.g. 2 damage; 5 damage; 7 damage
            label: What the roll is for, e.g. Mind Spike
            hidden: Only you see the roll (the Director's secret roll)
            action: What the ability roll is made as (default main; only a main action can be a critical hit)
            situation: Situations giving edges or banes, e.g. flanking, high ground (shown by name)
        """
        _check_numbers(bonus, edges, banes)
        chosen_difficulty = _difficulty(difficulty)
        chosen_kind = _kind(kind, chosen_difficulty)
        made_as = RollAction.from_text(action)
        if action is not None and chosen_kind is RollKind.TEST:
            fail(
                "action is for ability rolls (a test is no action's roll): leave it out, or use kind:ability."
            )
        auto_tiers = parse_auto_tiers(auto_tier)
        situations = parse_situations(situation)
        # a situation that doesn't apply to this kind of roll is refused (flanking on a test)
        situation_modifiers(situations, RollUse(test=chosen_kind is RollKind.TEST))
        text = RollText.from_input(label, tiers)
        trait = _characteristic(characteristic) if characteristic is not None else None
        score = await self._score(interaction, trait) if trait is not None else 0
        rolled = roll_power(self.bot.dice, bonus=bonus + score, edges=edges, banes=banes)
        card = RollCard(
            dice=(rolled.dice[0], rolled.dice[1]),
            roller_id=interaction.user.id,
            bonus=bonus,
            characteristic=trait,
            characteristic_score=score,
            edges=edges,
            banes=banes,
            auto_tiers=auto_tiers,
            kind=chosen_kind,
            difficulty=chosen_difficulty,
            action=made_as,
            situations=situations,
        )
        content, embed = render_roll(card, text, interaction.user.display_name)
        trigger = roll_trigger(trait.value if trait else None, test=chosen_kind is RollKind.TEST)
        if trigger is not None:
            bled = await self._bleed(interaction, trigger)
            if bled is not None:  # the roller's own hero: a hero's Stamina is never hidden (hidden_stamina)
                content = f"{content}\n{bleed_reply(bled, ())}" if content else bleed_reply(bled, ())
        view = roll_view(card, interaction.id)
        if view is not None:  # a press reads the roll from the store, never from its buttons' custom ids
            await self.bot.store.save_roll(interaction.id, channel_key(interaction), card.encode())
        await send(interaction, content=content, embed=embed, view=view, ephemeral=hidden)

    async def _score(self, interaction: discord.Interaction[Any], trait: Characteristic) -> int:
        """The roller's score in `trait`: their roster hero's, else that of the creature they control in this
        channel's encounter (a hero added with /encounter add player:); refused when they have neither."""
        table = await self.bot.store.view(channel_key(interaction), shared=True)
        hero = hero_of_member(table, interaction.user.id)
        if hero is not None:
            return sheet_of(hero).characteristics.get(trait)
        encounter = active_encounter(table)
        creature = own_creature_of(encounter, interaction.user.id) if encounter is not None else None
        if creature is None:
            fail(
                f"You have no hero in this channel to read {trait.value} from: give bonus:<number> "
                "instead, or create a hero with /hero create."
            )
        return creature.characteristics.get(trait)

    async def _bleed(self, interaction: discord.Interaction[Any], trigger: BleedingTrigger) -> Bleed | None:
        """A Might or Agility roll by a bleeding hero of this channel's encounter: they lose 1d6 + their level
        Stamina once it is resolved (`bot.rules.encounter.bleeding.bleed`), one event of its own."""
        table = await self.bot.store.view(channel_key(interaction))
        encounter = active_encounter(table)
        hero = hero_of_member(table, interaction.user.id)
        creature_id = creature_of_hero(encounter, hero.id) if encounter and hero else None
        if encounter is None or creature_id is None or not is_bleeding(encounter, creature_id):
            return None
        dice = self.bot.dice

        def step(_who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Bleed | None]:
            return bleed(encounter, dice, creature_id, trigger)

        def summary(bled: Bleed | None) -> str:
            return bleed_summary(bled) if bled else "no bleeding"

        return (await play(interaction, "bleeding", step, summary)).result


async def setup(bot: DrawSteelBot) -> None:
    bot.add_dynamic_items(DowngradeButton, RerollButton)
    await bot.add_cog(Roll(bot))
