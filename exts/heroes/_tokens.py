"""The party's hero tokens (/tokens show | award | spend | reset).

Rules: Draw Steel, The Basics, "Hero Tokens" through `bot.rules.resources` (`award_tokens`,
`start_session`) and the one spending function `bot.hero_tokens.spend_benefit` (one benefit per hero per
turn). The benefits themselves: surges (`Encounter.surges`), a save that just failed
(`bot.rules.encounter.saves.token_save`; also the button on a failed save's reply), a reroll (said; the /roll
Reroll button does it in one click) and regaining Stamina equal to the recovery value (`bot.rules.stamina`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

import discord
from discord import app_commands

from bot.client import BotCog, DrawSteelBot
from bot.help import guild_group
from bot.hero_tokens import Spender, resolve_hero, spend_benefit
from bot.permissions import RULES, allowed
from bot.play import (
    Member,
    active_encounter,
    apply,
    channel_key,
    encounter_of,
    put_encounter,
    put_sheet,
    sheet_of,
)
from bot.replies import fail, inert, send
from bot.rules.encounter import Encounter, saves
from bot.rules.encounter.harm import TOKEN_SURGES, gain_surges
from bot.rules.encounter.rescue import token_regain
from bot.rules.resources import HeroTokens, TokenBenefit, award_tokens, start_session
from bot.rules.stamina import regain_recovery_value
from bot.store import Change, Table
from bot.ui.combat import vitals_text
from bot.ui.format import stamina_text
from exts.heroes._cog import TEXT_MAX, HeroName
from exts.heroes._views import tokens_embed
from exts.tracker._controls import set_handler

AWARD_MAX = 100
Use = Literal["surges", "save", "reroll", "regain"]


def _in_encounter(spender: Spender, what: str) -> str:
    if spender.creature_id is None:
        fail(f"{inert(spender.name)} is not in this channel's encounter: {what} only work in combat.")
    return spender.creature_id


def token_save(table: Table, creature_id: str) -> str:
    """A hero token turns the hero's save that just failed into a success (`saves.token_save` refuses
    first, so nothing is spent for nothing). Returns the condition's label."""
    saves.token_save(encounter_of(table), creature_id)
    spend_benefit(table, creature_id, TokenBenefit.SAVE)
    encounter, label = saves.token_save(encounter_of(table), creature_id)
    put_encounter(table, encounter)
    return label


async def do_token_save(interaction: discord.Interaction[Any], bot: DrawSteelBot, encounter_id: int) -> None:
    """The button on a failed save's reply: the presser's hero (a server Director: any hero, `RULES`
    "enc:tsave") whose save just failed spends a hero token to succeed instead."""
    authority = RULES["enc:tsave"].authority

    def change(who: Member, table: Table) -> Change[str]:
        actor, at = who.actor, who.at
        doc = table.encounter
        if doc is None or not doc.active or doc.id != encounter_id:
            fail("That encounter is over: a hero token turns a save only right after it fails.")
        encounter = encounter_of(table)
        mine = [
            f.creature_id
            for f in saves.open_failures(encounter)
            if allowed(
                authority, replace(at, owner=encounter.creature(f.creature_id).owner_id == actor.user_id)
            )
        ]
        if not mine:
            fail("None of your heroes has a save that just failed: a token turns a save just after it fails.")
        hero = mine[-1]
        label = token_save(table, hero)
        text = (
            f"{inert(hero)} spends a hero token: the save succeeds and {inert(label)} ends. "
            f"Hero tokens left: {table.tokens}."
        )
        return Change(f"{hero} spent hero tokens (save)", text, {"hero": hero, "use": "save"})

    text = await apply(interaction, "tokens.spend", change)
    await send(interaction, content=text)


async def _on_token_save(interaction: discord.Interaction[Any], eid: int, ver: int, arg: str) -> None:
    await do_token_save(interaction, interaction.client, eid)


def party_size(table: Table, encounter: Encounter | None) -> int:
    """The heroes a new session's pool counts: the campaign's roster, and every hero in the running encounter
    who is not on it (added with /encounter add player:)."""
    extra = 0 if encounter is None else sum(1 for c in encounter.heroes() if c.id not in encounter.roster)
    return len(table.heroes) + extra


def _spend(member: Member, table: Table, who: str | int, use: Use) -> Change[str]:
    """`/tokens spend`: the hero's player (or a server Director) spends hero tokens for one benefit."""
    spender = resolve_hero(table, who)
    owner = spender.owner_id
    if spender.roster is not None and sheet_of(spender.roster).claimable:
        owner = None
    action = f"spend hero tokens for {inert(spender.name)}"
    member.require("/tokens spend", owner_id=owner, action=action, whose=spender.name)
    spent, said = _BENEFITS[use](table, spender)
    text = f"{inert(spender.name)} spends {said} Hero tokens left: {spent.pool}."
    return Change(f"{spender.name} spent hero tokens ({use})", text, {"hero": spender.name, "use": use})


def _surges(table: Table, spender: Spender) -> tuple[HeroTokens, str]:
    cid = _in_encounter(spender, "surges")
    spent = spend_benefit(table, cid, TokenBenefit.SURGES)
    encounter, surges = gain_surges(encounter_of(table), cid, TOKEN_SURGES)
    put_encounter(table, encounter)
    return spent, f"a hero token: +{TOKEN_SURGES} surges ({surges} now)."


def _save(table: Table, spender: Spender) -> tuple[HeroTokens, str]:
    label = token_save(table, _in_encounter(spender, "saves"))
    return HeroTokens(table.tokens), f"a hero token: the save succeeds and {inert(label)} ends."


def _reroll(table: Table, spender: Spender) -> tuple[HeroTokens, str]:
    spent = spend_benefit(table, spender.creature_id or spender.name, TokenBenefit.REROLL)
    return spent, "a hero token: reroll the test and keep the new roll."


def _regain(table: Table, spender: Spender) -> tuple[HeroTokens, str]:
    """In combat, on the hero's turn or as the rescue of a damage just taken (`token_regain` refuses first, so
    nothing is spent for nothing); outside it, from the roster sheet."""
    if spender.creature_id is not None:
        updated, result = token_regain(encounter_of(table), spender.creature_id)
        put_encounter(table, updated)
        spent = spend_benefit(table, spender.creature_id, TokenBenefit.STAMINA)
        when = " before the damage" if result.offer is not None else ""
        return (
            spent,
            f"2 hero tokens and regains {result.regain} Stamina{when}. {vitals_text(result.after, False)}.",
        )
    if spender.roster is None:  # resolve_hero always finds a creature or a roster hero
        fail("No hero to heal: name one from /hero show.")
    spent = spend_benefit(table, spender.name, TokenBenefit.STAMINA)
    sheet = sheet_of(spender.roster)
    vitals = regain_recovery_value(sheet.vitals)
    put_sheet(spender.roster, dataclasses.replace(sheet, vitals=vitals))
    return spent, f"2 hero tokens and regains {vitals.recovery_value} Stamina. {stamina_text(vitals)}."


#: What each `use` of `/tokens spend` does: the pool after and the reply's words after "spends".
_BENEFITS: dict[str, Callable[[Table, Spender], tuple[HeroTokens, str]]] = {
    "surges": _surges,
    "save": _save,
    "reroll": _reroll,
    "regain": _regain,
}


class Tokens(BotCog):
    """The party's hero tokens (/tokens)."""

    tokens = guild_group("tokens", "The party's hero tokens.", "/tokens show")

    @tokens.command(name="show", description="Show the party's hero tokens.")
    async def show(self, interaction: discord.Interaction[Any]) -> None:
        """The pool and who used one this turn.

        Example: /tokens show
        """
        table = await self.bot.store.view(channel_key(interaction))
        encounter = active_encounter(table)
        used = () if encounter is None else encounter.tokens_used
        await send(interaction, embed=tokens_embed(table.tokens, used, encounter is not None))

    @tokens.command(name="award", description="Director: give hero tokens.")
    async def award(
        self, interaction: discord.Interaction[Any], count: app_commands.Range[int, 1, AWARD_MAX] = 1
    ) -> None:
        """Server Director: give hero tokens.

        Example: /tokens award count:1

        Args:
            count: How many hero tokens (default 1)
        """

        def change(_who: Member, table: Table) -> Change[int]:
            table.tokens = award_tokens(HeroTokens(table.tokens), count).pool
            return Change(f"{count} hero token(s) awarded", table.tokens, {"count": count})

        pool = await apply(interaction, "tokens.award", change, rule="/tokens award")
        await send(interaction, content=f"The Director awards {count} hero token(s). Hero tokens: {pool}.")

    @tokens.command(name="spend", description="Spend hero tokens for a benefit.")
    async def spend(
        self,
        interaction: discord.Interaction[Any],
        use: Use,
        hero: HeroName | None = None,
        condition: app_commands.Range[str, 1, TEXT_MAX] | None = None,
    ) -> None:
        """Spend: surges, save, reroll or regain.

        Example: /tokens spend use:surges hero:Ash

        Args:
            use: surges: +2 surges · save: a save that just failed succeeds · reroll: reroll a test · regain:
                2 tokens, regain Stamina
            hero: The hero who spends (default: yours)
            condition: Not needed: a token turns the save that just failed
        """
        who: str | int = " ".join(hero.split()) if hero is not None else interaction.user.id
        if isinstance(who, str) and not who:
            fail("Name the hero who spends, or leave hero out for yours.")
        text = await apply(interaction, "tokens.spend", lambda member, table: _spend(member, table, who, use))
        await send(interaction, content=text)

    @tokens.command(name="reset", description="Director, start of a session: reset the hero-token pool.")
    async def reset(self, interaction: discord.Interaction[Any]) -> None:
        """Server Director: new session's pool.

        Example: /tokens reset
        """
        key = channel_key(interaction)
        settings = await self.bot.store.get_settings(key.guild_id)

        def change(_who: Member, table: Table) -> Change[int]:
            encounter = active_encounter(table)
            tokens = start_session(
                HeroTokens(table.tokens), party_size(table, encounter), settings.tokens_reset_per_session
            )
            table.tokens = tokens.pool
            if encounter is not None and encounter.tokens_used:
                put_encounter(table, dataclasses.replace(encounter, tokens_used=()))
            return Change("Hero tokens reset for a new session", tokens.pool, {"pool": tokens.pool})

        pool = await apply(interaction, "tokens.reset", change, rule="/tokens reset")
        how = (
            "one per hero in the campaign"
            if settings.tokens_reset_per_session
            else "carried over (tokens don't reset on this server)"
        )
        await send(interaction, content=f"New session: hero tokens {how}. Hero tokens: {pool}.")


async def setup(bot: DrawSteelBot) -> None:
    set_handler("tsave", _on_token_save)
    await bot.add_cog(Tokens(bot))
