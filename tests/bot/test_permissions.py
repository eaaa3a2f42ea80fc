"""Permission decisions: pure tables (no Discord), the adapter from a real interaction, and the holes
closed, through SimCord (the whole command table: tests/bot/test_permission_table.py)."""

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
    is_director,
    require,
    require_controls,
    server_standing,
    standing,
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
        (Actor.of(STRANGER, manage_server=True), STARTER, None, True),  # Manage Server
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


def test_require_names_who_may() -> None:
    """ "Commands that newly require a role say which role in their one-line refusal"."""
    at = standing(Actor.of(STRANGER), director_role_id=ROLE, encounter_director_id=STARTER)
    with pytest.raises(Refused) as caught:
        require("/tokens award", at, director_role_id=ROLE)
    expected = f"Only a server Director (the <@&{ROLE}> role or Manage Server) can award hero tokens."
    assert str(caught.value) == expected == REGISTRY.message_for(caught.value)
    with pytest.raises(
        Refused, match=r"^Only a server Director \(Manage Server, or a Director role set with"
    ):
        require("/respite", standing(Actor.of(STRANGER), director_role_id=None), director_role_id=None)
    with pytest.raises(Refused, match=r"^Only the Director can begin the encounter\.$"):
        require("/encounter begin", at, director_role_id=ROLE)
    require(
        "/encounter begin",
        standing(Actor.of(STARTER), director_role_id=ROLE, encounter_director_id=STARTER),
        director_role_id=ROLE,
    )
    with pytest.raises(
        Refused, match=r"^Only the Director or the member who made the last change can undo it\.$"
    ):
        require("/encounter undo", at, director_role_id=ROLE)


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
    await send(interaction, content=f"{actor.user_id} {sorted(actor.role_ids)} {actor.manage_server}")


@app_commands.command(name="am-i-director", description="test: the store-backed Director check")
async def am_i_director(interaction: discord.Interaction[Any], starter: bool = False) -> None:
    bot = interaction.client
    assert isinstance(bot, DrawSteelBot)
    starter_id = interaction.user.id if starter else None
    actor, _, role = await server_standing(interaction, bot.store)
    answer = is_director(actor, encounter_director_id=starter_id, director_role_id=role)
    await send(interaction, content=str(answer))


@pytest.fixture
def simcord_bot(settings: Settings, store: Store, dice: Dice) -> DrawSteelBot:
    bot = build_bot(settings, store, dice)
    bot.tree.add_command(whoami)
    bot.tree.add_command(am_i_director)
    return bot


async def test_actor_from_interaction(table: Table) -> None:
    admin = table.add_server_manager("max")
    director = await table.director.slash(table.channel, "whoami")
    player = await table.alice.slash(table.thread, "whoami")
    manager = await admin.slash(table.channel, "whoami")
    channel_only = await table.add_channel_only_manager("mo").slash(table.channel, "whoami")
    channels = await table.add_channel_manager("cy").slash(table.channel, "whoami")

    assert director.response is not None and player.response is not None and manager.response is not None
    assert director.response.content == f"{table.director.id} [{table.director_role.id}] False"
    assert player.response.content == f"{table.alice.id} [] False"
    assert manager.response.content.startswith(f"{admin.id} [") and manager.response.content.endswith("True")
    # Manage Channels, on one channel or everywhere, is no Manage Server
    assert channel_only.response is not None and channel_only.response.content.endswith("[] False")
    assert channels.response is not None and channels.response.content.endswith("False")


async def test_director_role_comes_from_the_guild_settings(table: Table) -> None:
    async def answer(member: Any, **options: Any) -> str:
        result = await member.slash(table.channel, "am-i-director", **options)
        assert result.response is not None
        return str(result.response.content)

    admin = table.add_server_manager("max")
    mod = table.add_channel_only_manager("mo")
    assert await answer(table.director) == "False"  # no Director role configured yet
    await table.configure_director_role()
    assert await answer(table.director) == "True"
    assert await answer(table.alice) == "False"
    assert await answer(table.alice, starter=True) == "True"
    assert await answer(admin) == "True"
    assert await answer(mod) == "False"


def test_require_self_refuses_everyone_but_the_owner() -> None:
    from bot.permissions import require_self

    require_self(Actor.of(7), 7, what="this roll", action="downgrade", instead="make your own with /roll")
    director = Actor.of(8, manage_server=True)  # not even a Director presses another member's roll
    with pytest.raises(Refused, match=r"^Only the member who made this roll can downgrade it: make your own"):
        require_self(director, 7, what="this roll", action="downgrade", instead="make your own")


# --- a hole closed: starting an encounter made anyone the Director of the roster and the token pool ----
async def test_an_encounters_starter_gets_no_roster_tokens_or_victories(table: Table) -> None:
    """ "An encounter's Director: whoever started it ... Their power covers that encounter's state
    only (its creatures, turns, Malice, conditions, undo), never the roster, the token pool or the settings."
    and "Only they [server Directors] ... award hero tokens and Victories, run `/respite`, reassign or edit
    other members' heroes"."""
    from tests.bot.test_heroes import create, heroes, refused
    from tests.bot.test_tokens import stored

    await create(table, table.alice)  # Ash, alice's
    bob = table.bob
    await bob.slash(table.channel, "encounter start")  # no Director role set: anyone may start
    assert (await stored(table)).encounter is not None

    refused(await bob.slash(table.channel, "hero claim", hero="Ash", player=bob), "belongs to another player")
    given = await bob.slash(table.channel, "hero claim", hero="Ash", player=table.add_player("cy"))
    refused(given, "Only a server Director (Manage Server, or a Director role set with /settings)")
    refused(await bob.slash(table.channel, "hero edit", hero="Ash", stamina=1), "Only Ash's player")
    refused(await bob.slash(table.channel, "tokens award", count=100), "Only a server Director")
    refused(await bob.slash(table.channel, "tokens reset"), "Only a server Director")
    refused(await bob.slash(table.channel, "victories", award=3), "Only a server Director")
    asked = await bob.slash(table.channel, "encounter end")  # the starter directs the encounter itself
    await bob.click(asked.response.message, label="End the encounter")
    assert (await stored(table)).encounter is None
    refused(await bob.slash(table.channel, "respite"), "Only a server Director")

    after = await stored(table)
    ash = (await heroes(table))["Ash"]
    assert after.tokens == 0 and ash.owner_id == table.alice.id
    assert ash.data["vitals"]["max_stamina"] == 30 and ash.data.get("progress", {}).get("victories", 0) == 0


async def test_with_a_director_role_only_server_directors_start_encounters(table: Table) -> None:
    """ "Only they [server Directors] ... (when a Director role is set) start encounters." and
    "Commands that newly require a role say which role in their one-line refusal"."""
    from tests.bot.test_heroes import refused
    from tests.bot.test_tokens import stored

    await table.configure_director_role()
    role = f"<@&{table.director_role.id}>"
    result = await table.bob.slash(table.channel, "encounter start")
    refused(result, f"Only a server Director (the {role} role or Manage Server) can start an encounter.")
    assert (await stored(table)).encounter is None
    await table.add_server_manager("max").slash(table.thread, "encounter start")
    await table.director.slash(table.channel, "encounter start")
    assert (await stored(table)).encounter is not None
