"""/strike: one power roll against creatures of the channel's encounter, each target's damage and effects
applied (`bot.rules.encounter.harm.strike`), or with `ability:` one of the attacker's cards
(`bot.rules.encounter.ability_strike`). The options are explained to players in docs/commands.md; the replies
are `bot.ui.combat.strike_reply` and `exts.combat._ability_strike_views`. `TYPE_CHOICES` is shared by the
commands that name a damage type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot import autocomplete
from bot.client import BotCog, DrawSteelBot
from bot.options import Text
from bot.play import Caller, play, sheet_of
from bot.replies import fail
from bot.rules.damage import DamageType, TieredDamage
from bot.rules.dice import ReplayDice
from bot.rules.encounter import Encounter, harm
from bot.rules.encounter.ability_strike import AbilityStrike, StrikeOptions, strike_with
from bot.rules.encounter.bleeding import Bleed, bleed, strike_trigger
from bot.rules.encounter.harm import StrikeResult
from bot.rules.encounter.heroic import Observed
from bot.rules.encounter.rescue import offer_rescues
from bot.rules.power import PowerRoll, RollAction, parse_auto_tiers, roll_power
from bot.rules.situations import parse_situations
from bot.store import Table
from bot.ui.combat import bleed_reply, bleed_summary, strike_reply, strike_summary
from exts.combat._ability_strike_views import ability_strike_reply, ability_strike_summary
from exts.rolls._cog import ACTION_CHOICES, AUTO_TEXT_MAX, SITUATION_TEXT_MAX
from exts.rolls._views import BONUS_LIMIT, EDGES_MAX
from exts.tracker._controls import rescue_view
from exts.turn._replies import reply_played

TYPE_CHOICES = [app_commands.Choice(name=t.value, value=t.value) for t in DamageType]
TEXT_MAX = 300
TARGETS_TEXT_MAX = 1000
ABILITY_TEXT_MAX = 100
EFFECT_HINT = (
    "Give the effect once, or one per tier separated by '; ', e.g. 'slide 1; slide 2; slide 3, prone'."
)


def resource_name(table: Table, encounter: Encounter, creature_id: str) -> str:
    """What a roster hero's heroic resource is called (their sheet's: "Ferocity"); "heroic resource" else."""
    hero = table.heroes.get(encounter.roster.get(creature_id, ""))
    return sheet_of(hero).resource_name if hero is not None else "heroic resource"


def tier_effects(effect: str | None) -> tuple[str, str, str] | None:
    """The effect per tier: one text for all three, or three texts separated by ';'."""
    if effect is None or not effect.strip():
        return None
    parts = [p.strip() for p in effect.split(";")]
    if len(parts) == 1:
        return (parts[0], parts[0], parts[0])
    if len(parts) != 3 or not all(parts):
        fail(EFFECT_HINT)
    return (parts[0], parts[1], parts[2])


class Strike(BotCog):
    """Ability rolls applied to creatures (/strike)."""

    @app_commands.command(
        name="strike", description="Roll an ability against creatures and apply its damage."
    )
    @app_commands.guild_only()
    @app_commands.rename(dtype="type")
    @app_commands.choices(dtype=TYPE_CHOICES, action=ACTION_CHOICES)
    @app_commands.autocomplete(
        targets=autocomplete.targets,
        attacker=autocomplete.creatures,
        situation=autocomplete.situations,
        ability=autocomplete.abilities,
    )
    async def strike(
        self,
        interaction: discord.Interaction[Any],
        targets: app_commands.Transform[str, Text("list of targets", TARGETS_TEXT_MAX)],
        damage: app_commands.Transform[str, Text("damage", TEXT_MAX)] | None = None,
        dtype: str | None = None,
        attacker: app_commands.Transform[str, Text("attacker's name", TEXT_MAX)] | None = None,
        bonus: int = 0,
        edges: int = 0,
        banes: int = 0,
        surges: int = 0,
        effect: app_commands.Transform[str, Text("effect", TEXT_MAX)] | None = None,
        melee: bool = False,
        knock_out: bool = False,
        action: str | None = None,
        auto_tier: app_commands.Range[str, 1, AUTO_TEXT_MAX] | None = None,
        situation: app_commands.Range[str, 1, SITUATION_TEXT_MAX] | None = None,
        area: bool = False,
        halved: bool = False,
        ability: app_commands.Range[str, 1, ABILITY_TEXT_MAX] | None = None,
        raise_potency: bool = False,
        downgrade: app_commands.Range[int, 1, 2] | None = None,
    ) -> None:
        """Roll an ability against creatures of this encounter and apply each target's damage and effects.

        Example: /strike ability: Brutal Slam targets: Goblin 1, Goblin 2 (or damage: 2+M/5+M/7+M bonus: 2)

        Args:
            targets: Creatures hit, separated by commas, e.g. Goblin 1, Goblin 2
            ability: The attacker's ability: its roll, damage, conditions, forced movement and cost apply
            damage: Damage per tier, e.g. 3/6/9, 2+M/5+M/7+M (letters: the attacker's characteristics) or
                2d6+3
            dtype: Damage type (leave out for untyped damage)
            attacker: Who strikes (default: the creature you control)
            bonus: The roll's whole bonus: characteristic plus bonuses minus penalties
            edges: Edges from the ability or situation (conditions are counted for you)
            banes: Banes from the ability or situation (conditions are counted for you)
            surges: Surges to spend on the first target's damage (0-3)
            effect: Effect text: once, or per tier separated by '; '
            melee: A melee strike (a prone target gives it an edge)
            knock_out: Knock out instead of killing a creature the damage would kill
            action: What the strike is made as (default main; only a main action can be a critical hit)
            auto_tier: Automatic tier outcomes, one per effect: e.g. 3, or 3,1 (different ones cancel)
            situation: Situations giving edges or banes, e.g. flanking, high ground (shown by name)
            area: Area damage: each minion hit takes at most its Stamina (else the squad's pool takes it all)
            halved: The damage is halved (before weakness and immunity)
            raise_potency: With an ability: spend 2 surges to raise its potency by 1 against the first target
            downgrade: Take at most this tier's outcome (a target reached at a higher tier gets this one)
        """
        _check_roll(bonus, edges, banes)
        if raise_potency and ability is None:
            fail("raise_potency spends surges on an ability's potency: name the ability with ability.")
        effects = tier_effects(effect)
        options = StrikeOptions(
            damage=TieredDamage.parse(damage) if damage is not None and damage.strip() else None,
            dtype=DamageType.parse(dtype) if dtype is not None and dtype.strip() else None,
            surges=surges,
            raise_potency=raise_potency,
            action=RollAction.from_text(action) if action is not None and action.strip() else None,
            melee=melee,
            area=area,
            knock_out=knock_out,
            halved=halved,
            situations=parse_situations(situation),
            downgrade=downgrade,
        )
        roll = roll_power(
            self.bot.dice, bonus=bonus, edges=edges, banes=banes, auto_tiers=parse_auto_tiers(auto_tier)
        )
        # damage dice and bleeding are rolled inside the change, which the store may run again: the same dice
        order = StrikeOrder(attacker, ability, targets.split(","), roll, options, ReplayDice(self.bot.dice))
        played = await play(interaction, "strike", order.step, Struck.summary, observed=Struck.observed)
        struck, hidden = played.result, played.hidden
        if struck.used is not None:
            text = ability_strike_reply(struck.used, effects, hidden)
        else:
            text = strike_reply(struck.result, effects, hidden)
        text += f"\n{bleed_reply(struck.bled, hidden)}" if struck.bled is not None else ""
        view = rescue_view(played.encounter_id, played.version, played.after)
        await reply_played(interaction, played, text, view=view)


def _check_roll(bonus: int, edges: int, banes: int) -> None:
    if not -BONUS_LIMIT <= bonus <= BONUS_LIMIT:
        fail(f"The bonus runs from -{BONUS_LIMIT} to {BONUS_LIMIT}: type your characteristic plus bonuses.")
    if not (0 <= edges <= EDGES_MAX and 0 <= banes <= EDGES_MAX):
        fail("Edges and banes are counts from 0 to 2 (more counts as 2): e.g. edges: 1.")


@dataclass(frozen=True, slots=True)
class Struck:
    """A strike: its result, the ability's (if one was named) and the striker's bleeding."""

    result: StrikeResult
    used: AbilityStrike | None
    bled: Bleed | None

    def observed(self) -> Observed:
        """What the strike did for heroic resource gains: its natural roll, the targets it force moved, the
        striker dealing damage with surges."""
        effects = self.used.effects if self.used is not None else ()
        moved = sum(1 for e in effects if any(m.squares > 0 for m in e.forced))
        result = self.result
        surged = result.surges > 0 and any(t.amount > 0 for t in result.targets)
        return Observed((result.roll.natural,), moved, (result.attacker,) if surged else ())

    def summary(self) -> str:
        said = ability_strike_summary(self.used) if self.used is not None else strike_summary(self.result)
        return said + (f"; {bleed_summary(self.bled)}" if self.bled is not None else "")


@dataclass(frozen=True, slots=True)
class StrikeOrder:
    """What /strike was asked to do, ready to run against the channel's encounter (`step`)."""

    attacker: str | None
    ability: str | None
    names: list[str]
    roll: PowerRoll
    options: StrikeOptions
    dice: ReplayDice

    def step(self, caller: Caller, encounter: Encounter, table: Table) -> tuple[Encounter, Struck]:
        self.dice.rewind()
        who = autocomplete.named_or_own(encounter, self.attacker, caller.actor.user_id, option="attacker")
        striker = harm.target(encounter, who)
        caller.require_controls(striker.owner_id, striker.id, f"strike with {striker.id}")
        used: AbilityStrike | None = None
        if self.ability is not None:
            named = resource_name(table, encounter, striker.id)
            updated, used = strike_with(
                encounter,
                self.roll,
                striker.id,
                self.ability,
                self.names,
                self.options,
                resource_name=named,
                dice=self.dice,
            )
            result, trigger = used.strike, used.bleeding
        else:
            updated, result = self._plain(encounter, striker.id)
            # a bleeding striker loses Stamina once a main or triggered action is resolved
            trigger = strike_trigger(self.options.action or RollAction.MAIN)
        bled = None
        if trigger is not None:
            updated, bled = bleed(updated, self.dice, striker.id, trigger)
        hits = [t.hit for t in result.targets if t.hit is not None]
        updated = offer_rescues(updated, hits, table.tokens, table.version + 1)
        return updated, Struck(result, used, bled)

    def _plain(self, encounter: Encounter, striker_id: str) -> tuple[Encounter, StrikeResult]:
        """A strike without an ability: the damage and options typed."""
        o = self.options
        return harm.strike(
            encounter,
            self.roll,
            striker_id,
            self.names,
            o.damage,
            o.dtype,
            o.surges,
            melee=o.melee,
            knock_out=o.knock_out,
            action=o.action or RollAction.MAIN,
            situations=o.situations,
            area=o.area,
            halved=o.halved,
            dice=self.dice,
            downgrade=o.downgrade,
        )


async def setup(bot: DrawSteelBot) -> None:
    await bot.add_cog(Strike(bot))
