"""Permission decisions: a pure table (no Discord), plus the adapter from a real interaction."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands

from bot.client import DrawSteelBot
from bot.error_hook import REGISTRY
from bot.permissions import (
    Actor,
    Refused,
    actor_from_interaction,
    controls,
    interaction_is_director,
    is_director,
    require_controls,
    require_director,
)
from bot.replies import send
from bot.rules.dice import Dice
from bot.settings import Settings
from bot.store import Store
from tests.bot.conftest import Table, build_bot

STARTER, ROLE, OTHER_ROLE, ASH_PLAYER, STRANGER = 1, 10, 11, 2, 3


@pytest.mark.parametrize(
    ("actor", "encounter_director_id", "director_role_id", "expected"),
    [
        (Actor.of(STARTER), STARTER, None, True),  # started the encounter
        (Actor.of(STRANGER), STARTER, None, False),
        (Actor.of(STRANGER, manage_channels=True), STARTER, None, True),  # Manage Channels here
        (Actor.of(STRANGER, [ROLE]), STARTER, ROLE, True),  # the configured Director role
        (Actor.of(STRANGER, [OTHER_ROLE]), STARTER, ROLE, False),
        (Actor.of(STRANGER, [ROLE]), STARTER, None, False),  # no role configured
        (Actor.of(STRANGER), None, None, False),  # no encounter yet
        (Actor.of(STRANGER, [ROLE]), None, ROLE, True),
    ],
)
def test_is_director(
    actor: Actor, encounter_director_id: int | None, director_role_id: int | None, expected: bool
) -> None:
    assert (
        is_director(actor, encounter_director_id=encounter_director_id, director_role_id=director_role_id)
        is expected
    )


def test_require_director() -> None:
    require_director(Actor.of(STARTER), encounter_director_id=STARTER, director_role_id=None)
    with pytest.raises(Refused) as caught:
        require_director(
            Actor.of(STRANGER),
            encounter_director_id=STARTER,
            director_role_id=ROLE,
            action="move Director creatures",
        )
    assert str(caught.value) == "Only the Director can move Director creatures."
    assert REGISTRY.message_for(caught.value) == "Only the Director can move Director creatures."


@pytest.mark.parametrize(
    ("actor", "owner", "director", "expected"),
    [
        (Actor.of(ASH_PLAYER), ASH_PLAYER, False, True),  # the hero's player
        (Actor.of(STRANGER), ASH_PLAYER, True, True),  # any Director
        (Actor.of(STRANGER), ASH_PLAYER, False, False),
        (Actor.of(STRANGER), None, False, False),  # Director creatures: Directors only
        (Actor.of(STRANGER), None, True, True),
    ],
)
def test_controls(actor: Actor, owner: int | None, director: bool, expected: bool) -> None:
    assert controls(actor, owner, director) is expected


def test_require_controls_messages() -> None:
    require_controls(Actor.of(ASH_PLAYER), ASH_PLAYER, False, creature="Ash", action="end Ash's turn")
    with pytest.raises(Refused) as caught:
        require_controls(Actor.of(STRANGER), ASH_PLAYER, False, creature="Ash", action="end Ash's turn")
    assert str(caught.value) == "Only Ash's player or the Director can end Ash's turn."
    with pytest.raises(Refused) as caught:
        require_controls(Actor.of(STRANGER), None, False, creature="Goblin", action="move the Goblin")
    assert str(caught.value) == "Only the Director can move the Goblin."
    with pytest.raises(Refused) as caught:
        require_controls(Actor.of(STRANGER), ASH_PLAYER, False, creature="@everyone", action="act")
    assert "@everyone" not in str(caught.value)


def test_refused_is_a_check_failure_so_checks_can_raise_it() -> None:
    assert issubclass(Refused, app_commands.CheckFailure)


@app_commands.command(name="whoami", description="test: show the adapter's view of the user")
async def whoami(interaction: discord.Interaction[Any]) -> None:
    actor = actor_from_interaction(interaction)
    await send(interaction, content=f"{actor.user_id} {sorted(actor.role_ids)} {actor.manage_channels}")


@app_commands.command(name="am-i-director", description="test: the store-backed Director check")
async def am_i_director(interaction: discord.Interaction[Any], starter: bool = False) -> None:
    bot = interaction.client
    assert isinstance(bot, DrawSteelBot)
    starter_id = interaction.user.id if starter else None
    answer = await interaction_is_director(interaction, bot.store, encounter_director_id=starter_id)
    await send(interaction, content=str(answer))


@pytest.fixture
def simcord_bot(settings: Settings, store: Store, dice: Dice) -> DrawSteelBot:
    bot = build_bot(settings, store, dice)
    bot.tree.add_command(whoami)
    bot.tree.add_command(am_i_director)
    return bot


async def test_actor_from_interaction(table: Table) -> None:
    manager = table.add_channel_manager("mo")
    director = await table.director.slash(table.channel, "whoami")
    player = await table.alice.slash(table.thread, "whoami")
    mod = await manager.slash(table.channel, "whoami")

    assert director.response is not None and player.response is not None and mod.response is not None
    assert director.response.content == f"{table.director.id} [{table.director_role.id}] False"
    assert player.response.content == f"{table.alice.id} [] False"
    assert mod.response.content.startswith(f"{manager.id} [") and mod.response.content.endswith("True")


async def test_director_role_comes_from_the_guild_settings(table: Table) -> None:
    async def answer(member: Any, **options: Any) -> str:
        result = await member.slash(table.channel, "am-i-director", **options)
        assert result.response is not None
        return str(result.response.content)

    manager = table.add_channel_manager("mo")
    assert await answer(table.director) == "False"  # no Director role configured yet
    await table.configure_director_role()
    assert await answer(table.director) == "True"
    assert await answer(table.alice) == "False"
    assert await answer(table.alice, starter=True) == "True"
    assert await answer(manager) == "True"


def test_require_self_refuses_everyone_but_the_owner() -> None:
    from bot.permissions import require_self

    require_self(Actor.of(7), 7, what="this roll", action="downgrade", instead="make your own with /roll")
    director = Actor.of(8, manage_channels=True)  # not even a Director presses another member's roll
    with pytest.raises(Refused, match=r"^Only the member who made this roll can downgrade it: make your own"):
        require_self(director, 7, what="this roll", action="downgrade", instead="make your own")
