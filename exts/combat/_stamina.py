"""Stamina changes and Catch Breath (/stamina damage | heal | temp | set, /recover; with no encounter running,
/recover spends a Recovery from the roster sheet).

Who may: the Director changes any creature's Stamina; a player only the creatures they control (so a player
can't damage a monster directly: they /strike it). The rules are `bot.rules.encounter.harm` (damage through
the one pipeline: weakness, immunity, temporary Stamina; minions through their squad's pool; healing and
temporary Stamina refused for minions; Catch Breath spends a Recovery); nothing here does arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot import autocomplete
from bot.autocomplete import named_or_own
from bot.client import BotCog, DrawSteelBot
from bot.help import guild_group
from bot.options import SuggestedText
from bot.play import (
    Caller,
    InTime,
    Member,
    active_encounter,
    apply,
    channel_key,
    play,
    put_sheet,
    sheet_of,
)
from bot.replies import fail, inert, send
from bot.rules.conditions import BleedingTrigger
from bot.rules.damage import DamageType
from bot.rules.encounter import Encounter, harm
from bot.rules.encounter.bleeding import Bleed, bleed
from bot.rules.encounter.harm import Healing, Hit
from bot.rules.encounter.rescue import offer_rescues
from bot.rules.hero import sheet_spend_recovery
from bot.rules.turns import maneuver_kind
from bot.store import COMBAT, Change, Table
from bot.ui.combat import (
    bleed_reply,
    bleed_summary,
    catch_breath_reply,
    damage_reply,
    damage_summary,
    healing_reply,
    healing_summary,
    temporary_verb,
)
from bot.ui.format import stamina_details
from exts.combat._strike import TYPE_CHOICES
from exts.heroes._cog import hero_or_mine
from exts.tracker._controls import rescue_view
from exts.turn._replies import reply_played

NAME_TEXT_MAX = 100
#: A creature of the channel's encounter named in an option, its names suggested as they are typed; a longer
#: one is refused before the command runs.
Name = app_commands.Transform[str, SuggestedText("name", NAME_TEXT_MAX, autocomplete.creatures)]
BLEED_TRIGGERS = {
    BleedingTrigger.MAIN_ACTION.value: "a main action",
    BleedingTrigger.TRIGGERED_ACTION.value: "a triggered action",
    BleedingTrigger.MIGHT_OR_AGILITY_TEST.value: "a Might or Agility test",
    BleedingTrigger.MIGHT_OR_AGILITY_ABILITY_ROLL.value: "a Might or Agility ability roll",
}
BLEED_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in BLEED_TRIGGERS.items()]


def guard(encounter: Encounter, who: Caller, name: str, action: str) -> str:
    """The creature's id, once the caller may `action` it (its player or the Director)."""
    creature = harm.target(encounter, name)
    who.require_controls(creature.owner_id, creature.id, action.format(name=creature.id))
    return creature.id


@dataclass(frozen=True, slots=True)
class Vitals:
    """A change of a creature's Stamina and the verb its reply says."""

    healing: Healing
    said: str


class Stamina(BotCog):
    """Stamina changes and Catch Breath (/stamina, /recover)."""

    stamina = guild_group(
        "stamina", "Change a creature's Stamina.", "/stamina damage target: Goblin 1 amount: 5"
    )

    async def _vitals(
        self,
        interaction: discord.Interaction[Any],
        kind: str,
        name: str,
        fn: Callable[[Encounter, str], tuple[Encounter, Healing]],
        verb: str | Callable[[Healing], str],
        action: str = "change {name}'s Stamina",
        secret_verb: str | None = None,
    ) -> None:
        """`fn` on the creature `name` (a guarded change of its Stamina); the reply says `verb`, or for a
        creature whose Stamina players don't see `secret_verb` when given (a verb that names a Stamina)."""

        def step(who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Vitals]:
            updated, result = fn(encounter, guard(encounter, who, name, action))
            return updated, Vitals(result, verb if isinstance(verb, str) else verb(result))

        played = await play(
            interaction,
            kind,
            step,
            lambda v: healing_summary(v.healing, v.said),
            details=lambda after, v: stamina_details(after, v.healing.target),
        )
        result, said = played.result.healing, played.result.said
        if secret_verb is not None and result.target in played.hidden:
            said = secret_verb
        await reply_played(interaction, played, healing_reply(result, said, played.hidden))

    @stamina.command(name="damage", description="Deal damage to a creature (weakness and immunity apply).")
    @app_commands.rename(dtype="type")
    @app_commands.choices(dtype=TYPE_CHOICES)
    async def damage(
        self,
        interaction: discord.Interaction[Any],
        target: Name,
        amount: int,
        dtype: str | None = None,
        knock_out: bool = False,
        halved: bool = False,
    ) -> None:
        """Deal damage (weakness, immunity and temporary Stamina apply).

        Example: /stamina damage target: Goblin 1 amount: 5 type: fire

        Args:
            target: Who takes the damage
            amount: Damage before weakness and immunity
            dtype: Damage type
            knock_out: Knock the creature out instead of killing it
            halved: The damage is halved (before weakness and immunity)
        """
        kind = DamageType.parse(dtype or "")

        def step(who: Caller, encounter: Encounter, table: Table) -> tuple[Encounter, Hit]:
            creature_id = guard(encounter, who, target, "change {name}'s Stamina")
            updated, hit = harm.damage(
                encounter, creature_id, amount, kind, knock_out=knock_out, halved=halved
            )
            return offer_rescues(updated, [hit], table.tokens, table.version + 1), hit

        played = await play(interaction, "stamina.damage", step, damage_summary)
        view = rescue_view(played.encounter_id, played.version, played.after)
        await reply_played(interaction, played, damage_reply(played.result, played.hidden), view=view)

    @stamina.command(name="heal", description="A creature regains Stamina (never above its maximum).")
    async def heal(self, interaction: discord.Interaction[Any], target: Name, amount: int) -> None:
        """Regain Stamina (up to the maximum).

        Example: /stamina heal target: Ash amount: 6

        Args:
            target: Who regains Stamina
            amount: Stamina regained
        """
        await self._vitals(
            interaction,
            "stamina.heal",
            target,
            lambda enc, cid: harm.heal(enc, cid, amount),
            f"regains {amount} Stamina",
        )

    @stamina.command(
        name="temp", description="A creature gains temporary Stamina (the greater amount stays)."
    )
    async def temp(self, interaction: discord.Interaction[Any], target: Name, amount: int) -> None:
        """Gain temporary Stamina (the greater stays).

        Example: /stamina temp target: Ash amount: 5

        Args:
            target: Who gains temporary Stamina
            amount: Temporary Stamina
        """
        await self._vitals(
            interaction,
            "stamina.temp",
            target,
            lambda enc, cid: harm.give_temporary(enc, cid, amount),
            lambda result: temporary_verb(result, amount),
        )

    @stamina.command(name="wake", description="A knocked-out creature wakes up after an hour.")
    async def wake(self, interaction: discord.Interaction[Any], target: Name) -> None:
        """A knocked-out creature wakes after an hour (1 Stamina, or a hero's Recovery).

        Example: /stamina wake target: Goblin 1

        Args:
            target: Who wakes (a Director creature gains 1 Stamina, a hero spends a Recovery)
        """
        await self._vitals(interaction, "stamina.wake", target, harm.wake, "wakes up")

    @stamina.command(name="bleed", description="A bleeding creature loses 1d6 + its level Stamina.")
    @app_commands.choices(trigger=BLEED_CHOICES)
    async def bleed_cmd(
        self, interaction: discord.Interaction[Any], target: Name, trigger: str | None = None
    ) -> None:
        """A bleeding creature acted: it loses 1d6 + its level Stamina (the bot does this on /strike).

        Example: /stamina bleed target: Ash trigger: main action

        Args:
            target: The bleeding creature
            trigger: What it did: a main action (default), a triggered action, or a Might or Agility roll
        """
        cause = BleedingTrigger(trigger) if trigger in BLEED_TRIGGERS else BleedingTrigger.MAIN_ACTION
        dice = self.bot.dice

        def step(who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Bleed]:
            creature_id = guard(encounter, who, target, "change {name}'s Stamina")
            updated, bled = bleed(encounter, dice, creature_id, cause)
            if bled is None:
                fail(f"{inert(creature_id)} isn't bleeding (nor dying): nothing to lose.")
            return updated, bled

        played = await play(interaction, "stamina.bleed", step, bleed_summary)
        await reply_played(interaction, played, bleed_reply(played.result, played.hidden))

    @stamina.command(name="set", description="Set a creature's Stamina outright (a correction).")
    async def set(self, interaction: discord.Interaction[Any], target: Name, amount: int) -> None:
        """Director's correction: set Stamina outright.

        Example: /stamina set target: Ogre amount: 20

        Args:
            target: Whose Stamina
            amount: The new Stamina, from 0 to the maximum
        """
        await self._vitals(
            interaction,
            "stamina.set",
            target,
            lambda enc, cid: harm.set_stamina(enc, cid, amount),
            f"has Stamina set to {amount}",
            secret_verb="has Stamina set",
        )

    @app_commands.command(name="recover", description="Catch Breath: spend a Recovery to regain Stamina.")
    @app_commands.guild_only()
    async def recover(self, interaction: discord.Interaction[Any], target: Name | None = None) -> None:
        """Catch Breath: your hero spends a Recovery (outside combat: from the roster sheet, freely).

        Example: /recover

        Args:
            target: The hero who catches their breath (default: your hero)
        """
        in_time = InTime(interaction)
        seen = await in_time.run(self.bot.store.view(channel_key(interaction), shared=True, fresh=False))
        # a montage or another scene isn't combat: Recoveries are spent as outside it
        if seen.encounter is None or not seen.encounter.active or seen.encounter.kind != COMBAT:
            await self._recover_outside_combat(interaction, target)
            return

        def step(who: Caller, encounter: Encounter, _table: Table) -> tuple[Encounter, Healing]:
            name = named_or_own(encounter, target, who.actor.user_id, option="target", heroes_only=True)
            creature_id = guard(encounter, who, name, "have {name} catch their breath")
            return harm.catch_breath(encounter, creature_id)

        played = await play(
            interaction,
            "recover",
            step,
            lambda result: healing_summary(result, "catches their breath"),
            details=lambda after, result: stamina_details(after, result.target),
            in_time=in_time,
        )
        cost = maneuver_kind(played.after.turns.mode)
        await send(interaction, content=catch_breath_reply(played.result, cost, played.hidden))

    async def _recover_outside_combat(
        self, interaction: discord.Interaction[Any], target: str | None
    ) -> None:
        """No encounter running: the roster hero spends a Recovery from their sheet."""

        def change(member: Member, table: Table) -> Change[Healing]:
            if active_encounter(table) is not None:
                fail("An encounter has just begun here: /recover again to Catch Breath in it.")
            hero = hero_or_mine(
                table, target if target is not None and target.strip() else None, member.actor.user_id
            )
            sheet = sheet_of(hero)
            owner = None if sheet.claimable else hero.owner_id
            member.require(
                "/recover (out of combat)",
                owner_id=owner,
                action=f"spend {inert(hero.name)}'s Recoveries",
                whose=None if owner is None else hero.name,
            )
            after = sheet_spend_recovery(sheet)
            put_sheet(hero, after)
            healing = Healing(hero.name, sheet.vitals, after.vitals)
            return Change(healing_summary(healing, "spends a Recovery"), healing, {"hero": hero.name})

        healing = await apply(interaction, "recover", change)
        # a roster hero's Stamina: never hidden (the setting hides Director creatures')
        text = healing_reply(healing, "spends a Recovery (out of combat)", hidden=())
        await send(interaction, content=text)


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Stamina(bot))
