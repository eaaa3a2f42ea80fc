"""The one place the bot decides who may do what: server Directors, an encounter's Director, players
(the roles and the table of every command and button: docs/permissions.md).

`RULES` says what each command and button needs (an `Authority`); `allowed` decides it for a member's
`Standing`. Both are pure, so the table-driven test checks docs/permissions.md against them; the exts decide
through `require` (or `require_controls`, the creature check the combat exts share), and
`actor_from_interaction` is the thin adapter from a `discord.Interaction`.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.replies import UserError, fail, inert


class Refused(UserError, app_commands.CheckFailure):
    """The user may not do this; `str(error)` is a one-line reason (shown ephemerally)."""


@dataclass(frozen=True, slots=True)
class Actor:
    """Who is acting, reduced to what permission decisions need: the member, their role ids, and whether
    they have Manage Server at the server level (never from a channel overwrite)."""

    user_id: int
    role_ids: frozenset[int] = frozenset()
    manage_server: bool = False

    @classmethod
    def of(cls, user_id: int, role_ids: Iterable[int] = (), *, manage_server: bool = False) -> Actor:
        return cls(user_id=user_id, role_ids=frozenset(role_ids), manage_server=manage_server)


class Authority(enum.Enum):
    """What a command or button needs."""

    ANYONE = "anyone"
    START = "a server Director when a Director role is set, anyone otherwise"
    SERVER_DIRECTOR = "a server Director"
    ENCOUNTER_DIRECTOR = "the encounter's Director"
    CONTROLLER = "its owner or the encounter's Director"
    OWNER_OR_SERVER_DIRECTOR = "its owner or a server Director"
    IN_ENCOUNTER = "a member with a creature in the encounter, or its Director"
    OWNER = "its owner only"


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a member stands for one decision: a server Director, the encounter's Director (its starter or
    any server Director), the owner of what the command acts on (a hero, a creature, a roll, the newest
    change), whether they control a creature in the encounter, and whether the server has a Director role."""

    server_director: bool = False
    encounter_director: bool = False
    owner: bool = False
    in_encounter: bool = False
    director_role_set: bool = True


def allowed(authority: Authority, standing: Standing) -> bool:
    """Whether a member with `standing` has `authority`."""
    match authority:
        case Authority.ANYONE:
            return True
        case Authority.START:
            return standing.server_director or not standing.director_role_set
        case Authority.SERVER_DIRECTOR:
            return standing.server_director
        case Authority.ENCOUNTER_DIRECTOR:
            return standing.encounter_director or standing.server_director
        case Authority.CONTROLLER:
            return standing.owner or standing.encounter_director or standing.server_director
        case Authority.OWNER_OR_SERVER_DIRECTOR:
            return standing.owner or standing.server_director
        case Authority.IN_ENCOUNTER:
            return standing.in_encounter or standing.encounter_director or standing.server_director
        case Authority.OWNER:
            return standing.owner


@dataclass(frozen=True, slots=True)
class Rule:
    """A command's (or button's) authority and the words its refusal uses: the action ("award hero tokens")
    and, when the authority's usual words don't fit, who may ("the member who made the newest change")."""

    authority: Authority
    action: str
    who: str | None = None


UNDOER = "the Director or the member who made the last change"

#: Every command and button, keyed as docs/permissions.md names them: a command (with the option that
#: changes who may, e.g. `/hero claim player:`), or a button by its custom id's prefix (`enc:act`).
RULES: dict[str, Rule] = {
    "/help": Rule(Authority.ANYONE, "use /help"),
    "/dice": Rule(Authority.ANYONE, "roll dice"),
    "/roll": Rule(Authority.ANYONE, "make a power roll"),
    "roll:dg": Rule(Authority.OWNER, "downgrade this roll"),
    "roll:rr": Rule(Authority.OWNER, "reroll this test"),
    "/settings": Rule(Authority.SERVER_DIRECTOR, "use /settings"),
    "/hero create": Rule(Authority.ANYONE, "create a hero"),
    "/hero create player:": Rule(Authority.SERVER_DIRECTOR, "create a hero for another member"),
    "/hero edit": Rule(Authority.OWNER_OR_SERVER_DIRECTOR, "edit another member's hero"),
    "/hero show": Rule(Authority.ANYONE, "show heroes"),
    "/hero me": Rule(Authority.ANYONE, "see your hero's card"),
    "/hero claim": Rule(Authority.ANYONE, "claim a hero"),
    "/hero claim player:": Rule(Authority.SERVER_DIRECTOR, "give a hero to a member"),
    "/hero delete": Rule(Authority.OWNER_OR_SERVER_DIRECTOR, "delete that hero"),
    "/hero import": Rule(Authority.ANYONE, "import a hero"),
    "/hero import player:": Rule(Authority.SERVER_DIRECTOR, "import a hero for another member"),
    "/ability add": Rule(Authority.OWNER_OR_SERVER_DIRECTOR, "change that hero's abilities"),
    "/ability edit": Rule(Authority.OWNER_OR_SERVER_DIRECTOR, "change that hero's abilities"),
    "/ability remove": Rule(Authority.OWNER_OR_SERVER_DIRECTOR, "change that hero's abilities"),
    "/ability show": Rule(Authority.ANYONE, "show an ability"),
    "/ability list": Rule(Authority.ANYONE, "list a hero's abilities"),
    "/encounter objective add": Rule(Authority.ENCOUNTER_DIRECTOR, "set objectives"),
    "/encounter objective done": Rule(Authority.ENCOUNTER_DIRECTOR, "resolve objectives"),
    "/encounter objective fail": Rule(Authority.ENCOUNTER_DIRECTOR, "resolve objectives"),
    "/encounter villain name": Rule(Authority.ENCOUNTER_DIRECTOR, "name villain actions"),
    "/encounter villain use": Rule(Authority.ENCOUNTER_DIRECTOR, "use villain actions"),
    "/monster import": Rule(Authority.SERVER_DIRECTOR, "change the bestiary"),
    "/monster add": Rule(Authority.SERVER_DIRECTOR, "change the bestiary"),
    "/monster remove": Rule(Authority.SERVER_DIRECTOR, "change the bestiary"),
    "/monster list": Rule(Authority.ANYONE, "list the bestiary"),
    "/monster show": Rule(Authority.ANYONE, "show a stat block"),
    "/campaign show": Rule(Authority.ANYONE, "show the campaign"),
    "/campaign join": Rule(Authority.SERVER_DIRECTOR, "make this channel join a campaign"),
    "/campaign leave": Rule(Authority.SERVER_DIRECTOR, "make this channel leave its campaign"),
    "/tokens show": Rule(Authority.ANYONE, "show hero tokens"),
    "/tokens award": Rule(Authority.SERVER_DIRECTOR, "award hero tokens"),
    "/tokens reset": Rule(Authority.SERVER_DIRECTOR, "reset hero tokens"),
    "/tokens spend": Rule(Authority.OWNER_OR_SERVER_DIRECTOR, "spend hero tokens for that hero"),
    "/victories": Rule(Authority.ANYONE, "show Victories"),
    "/victories award:": Rule(Authority.SERVER_DIRECTOR, "award Victories"),
    "/respite": Rule(Authority.SERVER_DIRECTOR, "start a respite"),
    "/encounter start": Rule(Authority.START, "start an encounter"),
    "/encounter add": Rule(Authority.ANYONE, "add your own creature to a players' side"),
    "/encounter add player:": Rule(Authority.ENCOUNTER_DIRECTOR, "add creatures for another member"),
    "/encounter add side:director": Rule(Authority.ENCOUNTER_DIRECTOR, "add Director creatures"),
    "/encounter add monster:": Rule(Authority.ENCOUNTER_DIRECTOR, "add monsters from the bestiary"),
    "/encounter import": Rule(Authority.ENCOUNTER_DIRECTOR, "import an encounter's monsters"),
    "/encounter hero": Rule(Authority.OWNER_OR_SERVER_DIRECTOR, "bring that hero in"),
    "/encounter remove": Rule(Authority.CONTROLLER, "remove that creature"),
    "/encounter surprise": Rule(Authority.ENCOUNTER_DIRECTOR, "mark surprise"),
    "/encounter begin": Rule(Authority.ENCOUNTER_DIRECTOR, "begin the encounter"),
    "/encounter status": Rule(Authority.ANYONE, "post the tracker"),
    "/encounter status private:": Rule(Authority.ENCOUNTER_DIRECTOR, "see the private tracker"),
    "enc:view": Rule(Authority.ENCOUNTER_DIRECTOR, "see the private tracker"),
    "/encounter undo": Rule(Authority.CONTROLLER, "undo it", UNDOER),
    "/encounter undo (hero tokens)": Rule(
        Authority.OWNER_OR_SERVER_DIRECTOR,
        "undo that spend",
        "the member who spent the hero tokens or a server Director",
    ),
    "/encounter log": Rule(Authority.ANYONE, "get the encounter's log"),
    "/encounter log (full)": Rule(Authority.ENCOUNTER_DIRECTOR, "get the full log"),
    "/encounter end": Rule(Authority.ENCOUNTER_DIRECTOR, "end the encounter"),
    "/montage start": Rule(Authority.START, "start a montage"),
    "/montage challenge add": Rule(Authority.ENCOUNTER_DIRECTOR, "describe the montage's challenges"),
    "/montage challenge remove": Rule(Authority.ENCOUNTER_DIRECTOR, "remove the montage's challenges"),
    "/montage challenge list": Rule(Authority.ANYONE, "list the montage's challenges"),
    "/montage test": Rule(Authority.CONTROLLER, "test with that hero"),
    "/montage assist": Rule(Authority.CONTROLLER, "assist with that hero"),
    "/montage reroll": Rule(Authority.CONTROLLER, "reroll for that hero"),
    "/montage next": Rule(Authority.ENCOUNTER_DIRECTOR, "end the montage's round"),
    "/montage outcome": Rule(Authority.ENCOUNTER_DIRECTOR, "write the montage's outcomes"),
    "/montage end": Rule(Authority.ENCOUNTER_DIRECTOR, "end the montage"),
    "/montage award": Rule(Authority.ENCOUNTER_DIRECTOR, "close the montage"),
    "/montage award victories:": Rule(Authority.SERVER_DIRECTOR, "award Victories"),
    "/montage import": Rule(Authority.ENCOUNTER_DIRECTOR, "import the montage's challenges"),
    "/montage status": Rule(Authority.ANYONE, "show the montage"),
    "/montage undo": Rule(Authority.CONTROLLER, "undo it", UNDOER),
    "/montage log": Rule(Authority.ANYONE, "get the montage's log"),
    "mtg:close": Rule(Authority.ENCOUNTER_DIRECTOR, "close the montage"),
    "/negotiation start": Rule(Authority.START, "start a negotiation"),
    "/negotiation import": Rule(Authority.START, "start a negotiation"),
    "/negotiation argue": Rule(Authority.CONTROLLER, "argue for that hero"),
    "/negotiation discover": Rule(Authority.CONTROLLER, "read the NPC for that hero"),
    "/negotiation offer": Rule(Authority.IN_ENCOUNTER, "ask for the offer"),
    "/negotiation close": Rule(Authority.ENCOUNTER_DIRECTOR, "close the negotiation"),
    "/negotiation close victories:": Rule(Authority.SERVER_DIRECTOR, "award Victories"),
    "/negotiation status": Rule(Authority.ANYONE, "show the negotiation"),
    "/negotiation undo": Rule(Authority.CONTROLLER, "undo it", UNDOER),
    "/negotiation log": Rule(Authority.ANYONE, "get the negotiation's log"),
    "neg:reveal": Rule(Authority.ENCOUNTER_DIRECTOR, "pick what is revealed"),
    "neg:pick": Rule(Authority.ENCOUNTER_DIRECTOR, "reveal a motivation or pitfall"),
    "neg:lie": Rule(Authority.ENCOUNTER_DIRECTOR, "take Interest for a lie"),
    "neg:close": Rule(Authority.ENCOUNTER_DIRECTOR, "close the negotiation"),
    "enc:first": Rule(Authority.IN_ENCOUNTER, "choose which side goes first"),
    "enc:endok": Rule(Authority.ENCOUNTER_DIRECTOR, "end the encounter"),
    "enc:endno": Rule(Authority.ANYONE, "keep the encounter going"),
    "enc:award": Rule(Authority.SERVER_DIRECTOR, "award Victories"),
    "arg:pick": Rule(Authority.ENCOUNTER_DIRECTOR, "pick when the players can't agree"),
    "enc:undo": Rule(Authority.CONTROLLER, "undo it", UNDOER),
    "enc:act": Rule(Authority.IN_ENCOUNTER, "act with your creature"),
    "enc:pick": Rule(Authority.CONTROLLER, "have that creature act"),
    "enc:end": Rule(Authority.CONTROLLER, "end that turn"),
    "enc:save": Rule(Authority.IN_ENCOUNTER, "roll your creature's saves"),
    "enc:me": Rule(Authority.ANYONE, "see your hero's card"),
    "enc:tsave": Rule(Authority.OWNER_OR_SERVER_DIRECTOR, "spend a hero token on that hero's save"),
    "enc:rescue": Rule(Authority.OWNER_OR_SERVER_DIRECTOR, "spend hero tokens for that hero"),
    "/turn act": Rule(Authority.CONTROLLER, "have that creature act"),
    "/turn end": Rule(Authority.CONTROLLER, "end that turn"),
    "/turn skip": Rule(Authority.CONTROLLER, "skip that creature's turn"),
    "/turn skip (a side)": Rule(Authority.ENCOUNTER_DIRECTOR, "skip a side's turns"),
    "/turn speed": Rule(Authority.CONTROLLER, "choose that creature's fast or slow turn"),
    "/turn swap": Rule(Authority.ENCOUNTER_DIRECTOR, "let heroes swap places in the Agility order"),
    "/turn defend": Rule(Authority.CONTROLLER, "have that creature defend"),
    "/turn heal": Rule(Authority.CONTROLLER, "have that creature use Heal"),
    "/resource gain": Rule(Authority.CONTROLLER, "change that hero's heroic resource"),
    "/resource spend": Rule(Authority.CONTROLLER, "change that hero's heroic resource"),
    "/resource set": Rule(Authority.CONTROLLER, "change that hero's heroic resource"),
    "/turn aid": Rule(Authority.CONTROLLER, "have that creature aid"),
    "/move slam": Rule(Authority.ENCOUNTER_DIRECTOR, "report a collision"),
    "/malice show": Rule(Authority.ANYONE, "show Malice"),
    "/malice gain": Rule(Authority.ENCOUNTER_DIRECTOR, "gain Malice"),
    "/malice spend": Rule(Authority.ENCOUNTER_DIRECTOR, "spend Malice"),
    "/stamina damage": Rule(Authority.CONTROLLER, "change that creature's Stamina"),
    "/stamina heal": Rule(Authority.CONTROLLER, "change that creature's Stamina"),
    "/stamina temp": Rule(Authority.CONTROLLER, "change that creature's Stamina"),
    "/stamina set": Rule(Authority.CONTROLLER, "change that creature's Stamina"),
    "/stamina wake": Rule(Authority.CONTROLLER, "change that creature's Stamina"),
    "/stamina bleed": Rule(Authority.CONTROLLER, "change that creature's Stamina"),
    "/recover": Rule(Authority.CONTROLLER, "have that hero catch their breath"),
    "/recover (out of combat)": Rule(Authority.OWNER_OR_SERVER_DIRECTOR, "spend that hero's Recoveries"),
    "/strike": Rule(Authority.CONTROLLER, "strike with that creature"),
    "/condition add": Rule(Authority.IN_ENCOUNTER, "impose conditions"),
    "/condition remove": Rule(Authority.CONTROLLER, "end that creature's conditions"),
    "/save": Rule(Authority.CONTROLLER, "roll that creature's saves"),
}


#: Changes of the campaign, not of an encounter (its roster, claims, the hero-token pool, Victories): never in
#: an encounter's undo history, even when made in its channel while it runs and followed into the fight (a
#: claimed hero's creature changes hands, an edited hero's creature takes the edit).
CAMPAIGN_CHANGES = frozenset(
    {
        "hero.create",
        "hero.edit",
        "hero.delete",
        "hero.claim",
        "hero.import",
        "ability.add",
        "ability.edit",
        "ability.remove",
        "tokens.award",
        "tokens.reset",
        "victories.award",
        "respite",
    }
)
#: Changes that spend the party's hero tokens in the fight (`/tokens spend`, the rescue and failed-save
#: buttons, a roll's Reroll).
TOKEN_SPENDS = frozenset({"tokens.spend", "tokens.rescue", "token", "montage.reroll"})


def undo_rule(kind: str) -> str | None:
    """What undoing a change needs, from its stored event's kind: the `RULES` key whose authority the change
    itself needed, judged with the change's maker as the owner; None for a campaign change, which no
    encounter's undo takes back. Taking back a hero-token spend returns tokens to the pool, which only the
    spender (their own spend) or a server Director may; the encounter's Director undoes the rest."""
    if kind in CAMPAIGN_CHANGES:
        return None
    if kind in TOKEN_SPENDS:
        return "/encounter undo (hero tokens)"
    return "/encounter undo"


def is_server_director(actor: Actor, director_role_id: int | None) -> bool:
    """A member of the server's Director role, or a member with Manage Server at the server level."""
    return actor.manage_server or (director_role_id is not None and director_role_id in actor.role_ids)


def is_director(actor: Actor, *, encounter_director_id: int | None, director_role_id: int | None) -> bool:
    """True when `actor` directs the encounter: its starter, or any server Director."""
    if encounter_director_id is not None and actor.user_id == encounter_director_id:
        return True
    return is_server_director(actor, director_role_id)


def standing(
    actor: Actor,
    *,
    director_role_id: int | None,
    encounter_director_id: int | None = None,
    owner_id: int | None = None,
    in_encounter: bool = False,
) -> Standing:
    """Where `actor` stands, from ids: the server's Director role, the encounter's starter, the owner of what
    the command acts on."""
    return Standing(
        server_director=is_server_director(actor, director_role_id),
        encounter_director=is_director(
            actor, encounter_director_id=encounter_director_id, director_role_id=director_role_id
        ),
        owner=owner_id is not None and actor.user_id == owner_id,
        in_encounter=in_encounter,
        director_role_set=director_role_id is not None,
    )


def who_may(authority: Authority, director_role_id: int | None, whose: str | None = None) -> str:
    """The refusal's subject: "the Director", or the server Directors naming the role ("a server Director
    (the @Role role or Manage Server)"); with an owner, `whose` names what is owned ("Ash's player")."""
    owner = f"{inert(whose)}'s player" if whose is not None else "its owner"
    if authority in (Authority.SERVER_DIRECTOR, Authority.START, Authority.OWNER_OR_SERVER_DIRECTOR):
        if director_role_id is None:
            directors = "a server Director (Manage Server, or a Director role set with /settings)"
        else:
            directors = f"a server Director (the <@&{director_role_id}> role or Manage Server)"
        if authority is Authority.OWNER_OR_SERVER_DIRECTOR and whose is not None:
            return f"{owner} or {directors}"
        return directors
    if authority is Authority.CONTROLLER and whose is not None:
        return f"{owner} or the Director"
    return "the Director"


def require(
    key: str,
    at: Standing,
    *,
    director_role_id: int | None,
    action: str | None = None,
    whose: str | None = None,
) -> None:
    """Raise `Refused` unless a member at `at` may do `RULES[key]`: "Only a server Director (the @Role role or
    Manage Server) can award hero tokens." (`action` replaces the rule's words, e.g. with a name; `whose`
    names the owner's thing: "Only Ash's player or a server Director (...) can edit Ash.")."""
    rule = RULES[key]
    if not allowed(rule.authority, at):
        who = rule.who or who_may(rule.authority, director_role_id, whose)
        raise Refused(f"Only {who} can {action or rule.action}.")


def controls(actor: Actor, creature_owner_id: int | None, is_director: bool) -> bool:
    """True when `actor` may act for a creature (`Authority.CONTROLLER`): its owner (a hero's player), or the
    encounter's Director. Creatures without an owner (`None`: the Director's creatures) are the
    Director's only."""
    owner = creature_owner_id is not None and actor.user_id == creature_owner_id
    return allowed(Authority.CONTROLLER, Standing(encounter_director=is_director, owner=owner))


def require_controls(
    actor: Actor,
    creature_owner_id: int | None,
    is_director: bool,
    *,
    creature: str,
    action: str,
) -> None:
    """Raise `Refused` unless `actor` controls the creature.

    `creature` is its display name, `action` the verb phrase: `creature="Ash", action="end Ash's turn"` gives
    "Only Ash's player or the Director can end Ash's turn."; Director creatures (no owner) give
    "Only the Director can <action>.".
    """
    if controls(actor, creature_owner_id, is_director):
        return
    if creature_owner_id is None:
        raise Refused(f"Only the Director can {action}.")
    raise Refused(f"Only {inert(creature)}'s player or the Director can {action}.")


def require_self(actor: Actor, owner_id: int, *, what: str, action: str, instead: str) -> None:
    """Raise `Refused` unless `actor` is `owner_id` (`Authority.OWNER`): things that belong to one member (a
    roll's buttons).

    `require_self(actor, roller_id, what="this roll", action="downgrade", instead="make your own with /roll")`
    gives "Only the member who made this roll can downgrade it: make your own with /roll."
    """
    if not allowed(Authority.OWNER, Standing(owner=actor.user_id == owner_id)):
        raise Refused(f"Only the member who made {what} can {action} it: {instead}.")


def hero_player(
    caller_id: int, player: discord.Member | None, at: Standing, *, director_role_id: int | None, key: str
) -> int:
    """Who plays a hero being made or imported: the `player` named, or the caller. A bot can't play a hero,
    and naming another member needs `RULES[key]` ("/hero create player:", "/hero import player:": a server
    Director)."""
    if player is not None and player.bot:
        fail("Bots can't play heroes: pick a member, or leave player out.")
    if player is not None and player.id != caller_id:
        require(key, at, director_role_id=director_role_id)
    return player.id if player is not None else caller_id


def actor_from_interaction(interaction: discord.Interaction[Any]) -> Actor:
    """The `Actor` behind an interaction: user id, role ids, and Manage Server at the server level.

    Manage Server comes from the member's server permissions (`Member.guild_permissions`: their roles, the
    owner and administrators), never from `interaction.permissions`, which includes the channel's
    overwrites: Manage Channels (or anything else) granted on one channel makes nobody a Director.
    """
    user = interaction.user
    roles = getattr(user, "roles", ())
    role_ids = frozenset(role.id for role in roles if not role.is_default())
    server = getattr(user, "guild_permissions", None)
    return Actor(
        user_id=user.id,
        role_ids=role_ids,
        manage_server=interaction.guild_id is not None and server is not None and server.manage_guild,
    )


class SettingsSource(Protocol):
    """What the adapter needs from the store: `bot.store.Store.get_settings`."""

    async def get_settings(self, guild_id: int) -> Any: ...


async def director_role_of(interaction: discord.Interaction[Any], store: SettingsSource) -> int | None:
    """The server's Director role id (None when none is set, or outside a server)."""
    if interaction.guild_id is None:
        return None
    settings = await store.get_settings(interaction.guild_id)
    role: int | None = getattr(settings, "director_role_id", None)
    return role


async def server_standing(
    interaction: discord.Interaction[Any], store: SettingsSource, *, owner_id: int | None = None
) -> tuple[Actor, Standing, int | None]:
    """The actor behind `interaction`, where they stand for a server-level decision (the roster, the
    hero-token pool, the settings: no encounter's Director counts), and the server's Director role."""
    actor = actor_from_interaction(interaction)
    role = await director_role_of(interaction, store)
    return actor, standing(actor, director_role_id=role, owner_id=owner_id), role
