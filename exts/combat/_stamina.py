"""Stamina changes and Catch Breath (/stamina damage | heal | temp | set, /recover; with no encounter running,
/recover spends a Recovery from the roster sheet).

Who may: the Director changes any creature's Stamina; a player only the creatures they control (so a player
can't damage a monster directly: they /strike it). The rules are `bot.rules.encounter.harm` (damage through
the one pipeline: weakness, immunity, temporary Stamina; minions through their squad's pool; healing and
temporary Stamina refused for minions; Catch Breath spends a Recovery); nothing here does arithmetic.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import autocomplete
from bot.autocomplete import own_creature
from bot.client import DrawSteelBot
from bot.help import HelpEntry
from bot.options import check_text
from bot.permissions import Actor, require, require_controls, server_standing
from bot.play import (
    InTime,
    active_encounter,
    caller_of,
    channel_key,
    commit,
    encounter_of,
    put_encounter,
    put_sheet,
    sheet_of,
)
from bot.replies import fail, inert, send
from bot.rules.conditions import BleedingTrigger
from bot.rules.damage import DamageType
from bot.rules.encounter import Encounter, harm
from bot.rules.encounter.bleeding import Bleed, bleed
from bot.rules.encounter.harm import Healing, Hit
from bot.rules.encounter.model import RoundNews
from bot.rules.encounter.rescue import offer_rescues
from bot.rules.encounter.rounds import news_since
from bot.rules.hero import sheet_spend_recovery
from bot.rules.turns import ActionKind, maneuver_kind
from bot.store import Change, Table
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
from bot.ui.format import hidden_stamina, stamina_details
from exts.combat._strike import TYPE_CHOICES
from exts.heroes._cog import hero_or_mine
from exts.tracker._controls import rescue_view
from exts.turn._replies import reply_with_rounds

NAME_TEXT_MAX = 100
BLEED_TRIGGERS = {
    BleedingTrigger.MAIN_ACTION.value: "a main action",
    BleedingTrigger.TRIGGERED_ACTION.value: "a triggered action",
    BleedingTrigger.MIGHT_OR_AGILITY_TEST.value: "a Might or Agility test",
    BleedingTrigger.MIGHT_OR_AGILITY_ABILITY_ROLL.value: "a Might or Agility ability roll",
}
BLEED_CHOICES = [app_commands.Choice(name=name, value=value) for value, name in BLEED_TRIGGERS.items()]


def _guard(encounter: Encounter, actor: Actor, director: bool, name: str, action: str) -> str:
    """The creature's id, once the actor may `action` it (its player or the Director)."""
    creature = harm.target(encounter, name)
    require_controls(
        actor, creature.owner_id, director, creature=creature.id, action=action.format(name=creature.id)
    )
    return creature.id


class Stamina(commands.Cog):
    """Stamina changes and Catch Breath (/stamina, /recover)."""

    help_entries: ClassVar[tuple[HelpEntry, ...]] = (
        HelpEntry("stamina", "/stamina damage target: Goblin 1 amount: 5", "Change a creature's Stamina."),
        HelpEntry(
            "stamina damage",
            "/stamina damage target: Goblin 1 amount: 5 type: fire",
            "Deal damage (weakness, immunity and temporary Stamina apply).",
        ),
        HelpEntry(
            "stamina heal", "/stamina heal target: Ash amount: 6", "Regain Stamina (up to the maximum)."
        ),
        HelpEntry(
            "stamina temp",
            "/stamina temp target: Ash amount: 5",
            "Gain temporary Stamina (the greater stays).",
        ),
        HelpEntry(
            "stamina wake",
            "/stamina wake target: Goblin 1",
            "A knocked-out creature wakes after an hour (1 Stamina, or a hero's Recovery).",
        ),
        HelpEntry(
            "stamina bleed",
            "/stamina bleed target: Ash trigger: main action",
            "A bleeding creature acted: it loses 1d6 + its level Stamina (the bot does this on /strike).",
        ),
        HelpEntry(
            "stamina set",
            "/stamina set target: Ogre amount: 20",
            "Director's correction: set Stamina outright.",
        ),
        HelpEntry(
            "recover",
            "/recover",
            "Catch Breath: your hero spends a Recovery (outside combat: from the roster sheet, freely).",
        ),
    )

    stamina = app_commands.Group(name="stamina", description="Change a creature's Stamina.", guild_only=True)

    def __init__(self, bot: DrawSteelBot) -> None:
        self.bot = bot

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
        check_text(name, "name", NAME_TEXT_MAX)
        in_time = InTime(interaction)
        who = await in_time.run(caller_of(interaction, self.bot))
        actor, director = who.actor, who.director

        def change(table: Table) -> Change[tuple[Healing, frozenset[str], str, Encounter, RoundNews | None]]:
            encounter = encounter_of(table)
            creature_id = _guard(encounter, actor, director, name, action)
            updated, result = fn(encounter, creature_id)
            put_encounter(table, updated)
            hidden = hidden_stamina(updated, who.settings.show_monster_stamina)
            said = verb if isinstance(verb, str) else verb(result)
            news = news_since(encounter, updated)  # a creature awake again: a waiting round may start
            details = stamina_details(updated, result.target)
            return Change(healing_summary(result, said), (result, hidden, said, updated, news), details)

        committed = await in_time.run(commit(interaction, kind, change))
        result, hidden, said, after, news = committed.value
        if secret_verb is not None and result.target in hidden:
            said = secret_verb
        text = healing_reply(result, said, hidden)
        await reply_with_rounds(interaction, who, text, after, news, committed)

    @stamina.command(name="damage", description="Deal damage to a creature (weakness and immunity apply).")
    @app_commands.rename(dtype="type")
    @app_commands.describe(
        target="Who takes the damage",
        amount="Damage before weakness and immunity",
        dtype="Damage type",
        knock_out="Knock the creature out instead of killing it",
        halved="The damage is halved (before weakness and immunity)",
    )
    @app_commands.choices(dtype=TYPE_CHOICES)
    @app_commands.autocomplete(target=autocomplete.creatures)
    async def damage(
        self,
        interaction: discord.Interaction[Any],
        target: str,
        amount: int,
        dtype: str | None = None,
        knock_out: bool = False,
        halved: bool = False,
    ) -> None:
        check_text(target, "name", NAME_TEXT_MAX)
        kind = DamageType.parse(dtype or "")
        in_time = InTime(interaction)
        who = await in_time.run(caller_of(interaction, self.bot))
        actor, director = who.actor, who.director

        def change(table: Table) -> Change[tuple[Hit, frozenset[str], Encounter, RoundNews | None]]:
            encounter = encounter_of(table)
            creature_id = _guard(encounter, actor, director, target, "change {name}'s Stamina")
            updated, hit = harm.damage(
                encounter, creature_id, amount, kind, knock_out=knock_out, halved=halved
            )
            updated = offer_rescues(updated, [hit], table.tokens, table.version + 1)
            put_encounter(table, updated)
            hidden = hidden_stamina(updated, who.settings.show_monster_stamina)
            return Change(damage_summary(hit), (hit, hidden, updated, news_since(encounter, updated)))

        committed = await in_time.run(commit(interaction, "stamina.damage", change))
        hit, hidden, after, news = committed.value
        view = rescue_view(committed.encounter_id, committed.version, after)
        await reply_with_rounds(
            interaction, who, damage_reply(hit, hidden), after, news, committed, view=view
        )

    @stamina.command(name="heal", description="A creature regains Stamina (never above its maximum).")
    @app_commands.describe(target="Who regains Stamina", amount="Stamina regained")
    @app_commands.autocomplete(target=autocomplete.creatures)
    async def heal(self, interaction: discord.Interaction[Any], target: str, amount: int) -> None:
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
    @app_commands.describe(target="Who gains temporary Stamina", amount="Temporary Stamina")
    @app_commands.autocomplete(target=autocomplete.creatures)
    async def temp(self, interaction: discord.Interaction[Any], target: str, amount: int) -> None:
        await self._vitals(
            interaction,
            "stamina.temp",
            target,
            lambda enc, cid: harm.give_temporary(enc, cid, amount),
            lambda result: temporary_verb(result, amount),
        )

    @stamina.command(name="wake", description="A knocked-out creature wakes up after an hour.")
    @app_commands.describe(target="Who wakes (a Director creature gains 1 Stamina, a hero spends a Recovery)")
    @app_commands.autocomplete(target=autocomplete.creatures)
    async def wake(self, interaction: discord.Interaction[Any], target: str) -> None:
        await self._vitals(
            interaction, "stamina.wake", target, lambda enc, cid: harm.wake(enc, cid), "wakes up"
        )

    @stamina.command(name="bleed", description="A bleeding creature loses 1d6 + its level Stamina.")
    @app_commands.describe(
        target="The bleeding creature",
        trigger="What it did: a main action (default), a triggered action, or a Might or Agility roll",
    )
    @app_commands.choices(trigger=BLEED_CHOICES)
    @app_commands.autocomplete(target=autocomplete.creatures)
    async def bleed_cmd(
        self, interaction: discord.Interaction[Any], target: str, trigger: str | None = None
    ) -> None:
        check_text(target, "name", NAME_TEXT_MAX)
        cause = BleedingTrigger(trigger) if trigger in BLEED_TRIGGERS else BleedingTrigger.MAIN_ACTION
        in_time = InTime(interaction)
        who = await in_time.run(caller_of(interaction, self.bot))
        dice = self.bot.dice

        def change(table: Table) -> Change[tuple[Bleed, frozenset[str], Encounter, RoundNews | None]]:
            encounter = encounter_of(table)
            creature_id = _guard(encounter, who.actor, who.director, target, "change {name}'s Stamina")
            updated, bled = bleed(encounter, dice, creature_id, cause)
            if bled is None:
                fail(f"{inert(creature_id)} isn't bleeding (nor dying): nothing to lose.")
            put_encounter(table, updated)
            hidden = hidden_stamina(updated, who.settings.show_monster_stamina)
            return Change(bleed_summary(bled), (bled, hidden, updated, news_since(encounter, updated)))

        committed = await in_time.run(commit(interaction, "stamina.bleed", change))
        bled, hidden, after, news = committed.value
        await reply_with_rounds(interaction, who, bleed_reply(bled, hidden), after, news, committed)

    @stamina.command(name="set", description="Set a creature's Stamina outright (a correction).")
    @app_commands.describe(target="Whose Stamina", amount="The new Stamina, from 0 to the maximum")
    @app_commands.autocomplete(target=autocomplete.creatures)
    async def set(self, interaction: discord.Interaction[Any], target: str, amount: int) -> None:
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
    @app_commands.describe(target="The hero who catches their breath (default: your hero)")
    @app_commands.autocomplete(target=autocomplete.creatures)
    async def recover(self, interaction: discord.Interaction[Any], target: str | None = None) -> None:
        check_text(target, "name", NAME_TEXT_MAX)
        in_time = InTime(interaction)
        seen = await in_time.run(self.bot.store.view(channel_key(interaction), shared=True, fresh=False))
        if seen.encounter is None or not seen.encounter.active:
            await self._recover_outside_combat(interaction, in_time, target)
            return
        who = await in_time.run(caller_of(interaction, self.bot))
        actor, director = who.actor, who.director

        def change(table: Table) -> Change[tuple[Healing, ActionKind, frozenset[str]]]:
            encounter = encounter_of(table)
            name = target if target is not None and target.strip() else None
            if name is None:
                name = own_creature(encounter, actor.user_id, option="target", heroes_only=True)
            creature_id = _guard(encounter, actor, director, name, "have {name} catch their breath")
            updated, result = harm.catch_breath(encounter, creature_id)
            put_encounter(table, updated)
            cost = maneuver_kind(updated.turns.mode)
            hidden = hidden_stamina(updated, who.settings.show_monster_stamina)
            summary = healing_summary(result, "catches their breath")
            return Change(summary, (result, cost, hidden), stamina_details(updated, result.target))

        committed = await in_time.run(commit(interaction, "recover", change))
        await send(interaction, content=catch_breath_reply(*committed.value))

    async def _recover_outside_combat(
        self, interaction: discord.Interaction[Any], in_time: InTime, target: str | None
    ) -> None:
        """No encounter running: the roster hero spends a Recovery from their sheet."""
        actor, at, role = await in_time.run(server_standing(interaction, self.bot.store))

        def change(table: Table) -> Change[Healing]:
            if active_encounter(table) is not None:
                fail("An encounter has just begun here: /recover again to Catch Breath in it.")
            hero = hero_or_mine(
                table, target if target is not None and target.strip() else None, actor.user_id
            )
            sheet = sheet_of(hero)
            owner = None if sheet.claimable else hero.owner_id
            require(
                "/recover (out of combat)",
                dataclasses.replace(at, owner=owner == actor.user_id),
                director_role_id=role,
                action=f"spend {inert(hero.name)}'s Recoveries",
                whose=None if owner is None else hero.name,
            )
            after = sheet_spend_recovery(sheet)
            put_sheet(hero, after)
            healing = Healing(hero.name, sheet.vitals, after.vitals)
            return Change(healing_summary(healing, "spends a Recovery"), healing, {"hero": hero.name})

        committed = await in_time.run(commit(interaction, "recover", change))
        # a roster hero's Stamina: never hidden (the setting hides Director creatures')
        text = healing_reply(committed.value, "spends a Recovery (out of combat)", hidden=())
        await send(interaction, content=text)


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Stamina(bot))
