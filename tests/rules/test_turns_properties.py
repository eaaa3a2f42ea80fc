"""Property tests over random encounters and random action sequences, in every mode: each living creature
acts exactly its turns per round; sides alternate whenever both have creatures left (players first in each
fast/slow part); legal transitions keep the state legal; every illegal request is refused with a typed error
and changes nothing; the old state is untouched by any transition (undo = keep it) and replaying is
deterministic. On the encounter aggregate: random deaths, knock-outs, free strikes, removals and additions at
random moments never leave an encounter that no command can advance."""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.rules import codec, turns
from bot.rules.codec import load, to_data
from bot.rules.conditions import Condition, Duration
from bot.rules.damage import TieredDamage
from bot.rules.dice import SeededDice
from bot.rules.encounter import Encounter, flow, harm, new_encounter_state, roster
from bot.rules.errors import RuleError
from bot.rules.power import PowerRoll
from bot.rules.turns import ActionKind, Controller, Entry, Mode, Phase, Side, Speed, Transition, TurnState
from bot.rules.turns.queries import MEMO_SIZE, able, controller_of

PROPS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def encounters(draw: st.DrawFn, mode: Mode | None = None, surprise: bool = True) -> TurnState:
    """A random encounter in setup, surprise marked and who-goes-first settled."""
    mode = mode or draw(st.sampled_from(list(Mode)))
    if mode is Mode.TEAMS:
        n = draw(st.integers(2, 4))
        sides = tuple(
            Side(f"t{i}", Controller.PLAYERS if i == 0 else draw(st.sampled_from(list(Controller))))
            for i in range(n)
        )
    elif mode is Mode.FAST_SLOW:
        sides = (Side("pcs", Controller.PLAYERS), Side("gm", Controller.DIRECTOR))
    else:
        sides = turns.DEFAULT_SIDES
    state = turns.new_encounter(mode, sides)
    for side in sides:
        for i in range(draw(st.integers(1, 4))):
            director = side.controller is Controller.DIRECTOR
            group = draw(st.sampled_from([None, None, f"{side.id}-g"])) if director else None
            solo = director and mode is not Mode.TEAMS and draw(st.integers(0, 5)) == 0
            entry = Entry(
                f"{side.id}-{i}",
                side.id,
                group=group,
                turns_per_round=2 if solo else 1,
                cannot_be_surprised=draw(st.integers(0, 4)) == 0,
            )
            state = turns.add_entry(state, entry).state
    if surprise:
        for e in state.entries:
            if not e.cannot_be_surprised and draw(st.integers(0, 3)) == 0:
                state = turns.mark_surprised(state, e.id).state
    dice = SeededDice(draw(st.integers(0, 2**16)))
    if mode is Mode.AGILITY:
        units = {e.unit for e in state.entries}
        totals = {u: draw(st.integers(2, 20)) for u in sorted(units)}
        state = turns.record_agility(state, totals, dice).state
    if mode in (Mode.DRAW_STEEL, Mode.AGILITY):
        state = turns.determine_first(state, dice).state
        assert state.first is not None
        if state.first.side is None:
            assert state.first.chooser is not None
            chosen = draw(st.sampled_from([s.id for s in sides]))
            state = turns.choose_first(state, chosen, state.first.chooser).state
    return state


def check_invariants(state: TurnState) -> None:
    assert load(TurnState, to_data(state)) == state
    for e in state.entries:
        assert turns.turns_taken(state, e.id) <= e.turns_per_round
    assert all(t.ended for t in state.turns[:-1])
    ids = [e.id for e in state.entries]
    assert len(ids) == len(set(ids))
    if state.phase is Phase.IN_ROUND and turns.current(state) is None:
        assert turns.picking(state) is not None  # otherwise the round would have ended
        assert turns.eligible(state)
    if state.phase is not Phase.IN_ROUND:
        assert turns.picking(state) is None
    if state.phase is Phase.SETUP:
        assert state.turns == ()
    keys = [c.key for c in state.conditions]
    assert len(keys) == len(set(keys))  # the same condition never stacks
    known = {cid for e in state.entries for cid in e.creature_ids}
    assert all(c.creature_id in known for c in state.conditions)


def play_round(state: TurnState, choose: Callable[[tuple[str, ...]], str]) -> tuple[TurnState, list[str]]:
    """Play one round with normal picks only; check alternation at each pick; return the turn order."""
    order: list[str] = []
    last_side: str | None = None
    rotating = state.mode is not Mode.FAST_SLOW
    while state.phase is Phase.IN_ROUND:
        pick = turns.picking(state)
        assert pick is not None
        if rotating and pick.group is None and last_side is not None:
            others = {
                e.side for e in state.entries if able(state, e) and e.side != last_side and e.id != order[-1]
            }
            if others:  # both sides have creatures left: the side changes
                assert pick.sides[0] != last_side
        if not rotating and pick.controller is Controller.DIRECTOR:
            # players' creatures act first in each part: none of them is still waiting in this part
            players_waiting = [
                e
                for e in state.entries
                if able(state, e)
                and controller_of(state, e) is Controller.PLAYERS
                and (pick.speed is Speed.SLOW or e.speed is not Speed.SLOW)
            ]
            assert not players_waiting
        who = choose(pick.entries)
        entry = state.entry(who)
        assert entry is not None
        state = turns.start_turn(state, who, pick.controller).state
        state = turns.end_turn(state).state
        check_invariants(state)
        order.append(who)
        if pick.group is None:
            last_side = entry.side
    return state, order


@PROPS
@given(encounters(), st.randoms(use_true_random=False), st.integers(1, 3))
def test_each_living_creature_acts_exactly_its_turns_per_round(
    state: TurnState, rnd: random.Random, rounds: int
) -> None:
    state = turns.next_round(state).state
    for _ in range(rounds):
        if state.phase is Phase.BETWEEN_ROUNDS:
            state = turns.next_round(state).state
        round_no = state.round
        blocked = {
            e.id
            for e in state.entries
            if state.is_surprised(e.id)
            and round_no == (0 if state.mode is Mode.TEAMS else 1)
            and state.mode in (Mode.TEAMS, Mode.FAST_SLOW)
        }
        state, order = play_round(state, lambda ids: rnd.choice(ids))
        for e in state.entries:
            expected = 0 if e.id in blocked else e.turns_per_round
            assert order.count(e.id) == expected, (e.id, order)
        if state.mode is Mode.AGILITY:  # within a side, units act in descending Agility order
            for side in state.sides:
                unit_of = {x.id: x.unit for x in state.entries if x.side == side.id}
                seen = list(dict.fromkeys(unit_of[who] for who in order if who in unit_of))
                assert seen == [u for u in turns.agility_order(state, side.id) if u in seen]
        # the side that went first in round 1 goes first in every round (Draw Steel, Agility, teams)
        if state.mode is not Mode.FAST_SLOW and order:
            first = state.first.side if state.first is not None and state.first.side else state.sides[0].id
            first_entry = state.entry(order[0])
            assert first_entry is not None
            if round_no >= 1 and any(e.side == first and e.id not in blocked for e in state.entries):
                assert first_entry.side == first


def operations(state: TurnState, data: st.DataObject) -> Callable[[TurnState], Transition]:
    """One random request, legal or not, with every argument drawn up front (so it can be replayed)."""
    ids = [e.id for e in state.entries] + ["ghost"]
    side_ids = [s.id for s in state.sides]
    entry = data.draw(st.sampled_from(ids))
    by = data.draw(st.sampled_from(list(Controller)))
    seed = data.draw(st.integers(0, 999))
    flag = data.draw(st.booleans())
    side = data.draw(st.sampled_from(side_ids))
    speed = data.draw(st.sampled_from(list(Speed)))
    condition = data.draw(st.sampled_from([Condition.DAZED, Condition.PRONE]))
    duration = data.draw(st.sampled_from([Duration.EOT, Duration.SAVE]))
    action = data.draw(st.sampled_from(list(ActionKind)))
    legal = turns.eligible(state)
    pick = data.draw(st.sampled_from(legal)) if legal else entry
    ops: list[Callable[[TurnState], Transition]] = [
        lambda s: turns.start_turn(s, pick, by),
        lambda s: turns.start_turn(s, pick, Controller.DIRECTOR),
        lambda s: turns.start_turn(s, pick, by),
        lambda s: turns.start_turn(s, entry, by),
        lambda s: turns.start_turn(s, entry, by, override=True),
        lambda s: turns.end_turn(s),
        lambda s: turns.end_turn(s),
        lambda s: turns.end_turn(s),
        lambda s: turns.next_round(s),
        lambda s: turns.next_round(s),
        lambda s: turns.set_flags(s, entry, unconscious=flag),
        lambda s: turns.set_flags(s, entry, dead=flag),
        lambda s: turns.skip_side(s, side),
        lambda s: turns.end_round(s),
        lambda s: turns.set_speed(s, entry, speed),
        lambda s: turns.pass_part(s, by),
        lambda s: turns.add_condition(s, entry, condition, duration),
        lambda s: turns.roll_save(s, SeededDice(seed), entry, Condition.DAZED),
        lambda s: turns.remove_entry(s, entry),
        lambda s: turns.add_entry(s, Entry(f"new{seed}", side)),
        lambda s: turns.use_action(s, entry, action),
    ]
    # bias towards the transitions that move combat along, so sequences reach many rounds and turns
    if state.phase is Phase.BETWEEN_ROUNDS and data.draw(st.integers(0, 2)) > 0:
        return ops[8]
    if turns.current(state) is not None and data.draw(st.integers(0, 2)) == 0:
        return ops[5]
    return ops[data.draw(st.integers(0, len(ops) - 1))]


@PROPS
@given(st.data())
def test_random_requests_are_legal_or_refused_without_change_and_undo_is_exact(data: st.DataObject) -> None:
    state = turns.next_round(data.draw(encounters())).state
    check_invariants(state)
    for _ in range(data.draw(st.integers(5, 40))):
        op = operations(state, data)
        before = to_data(state)
        snapshot = load(TurnState, before)
        try:
            t = op(state)
        except RuleError as exc:
            assert str(exc) and "\n" not in str(exc)
            assert to_data(state) == before and state == snapshot
            continue
        assert state == snapshot and to_data(state) == before  # undo: the old state is untouched
        assert op(snapshot) == t  # replaying is deterministic
        check_invariants(t.state)
        state = t.state


@PROPS
@given(encounters(mode=Mode.DRAW_STEEL, surprise=False))
def test_draw_steel_roll_records_chooser_and_side(state: TurnState) -> None:
    assert state.first is not None and state.first.side is not None
    if state.first.roll is not None:
        assert (state.first.roll >= 6) == (state.first.chooser is Controller.PLAYERS)


def _answers(state: TurnState) -> tuple[object, ...]:
    """The memoised queries: who picks, who may act, whether the round is over, who waits."""
    return turns.picking(state), turns.eligible(state), turns.round_over(state), turns.waiting(state)


def _fresh_answers(state: TurnState) -> tuple[object, ...]:
    """The memoised queries asked of a new copy of `state` (a new identity, so nothing kept applies), and
    `waiting` worked out from `able` directly."""
    copy = load(TurnState, to_data(state))
    assert copy is not state
    waiting_now = tuple(e.id for e in state.entries if able(state, e))
    return *_answers(copy), waiting_now


@PROPS
@given(st.data())
def test_memoised_queries_answer_as_a_fresh_computation(data: st.DataObject) -> None:
    """Who picks, who waits and whether the round is over are kept per state (by identity): along random
    request sequences, the kept answers equal those worked out afresh, asked again and again."""
    state = turns.next_round(data.draw(encounters())).state
    for _ in range(data.draw(st.integers(5, 30))):
        fresh = _fresh_answers(state)
        for _ in range(2):
            assert _answers(state) == fresh[:4]
        assert turns.waiting(state) == fresh[4]
        try:
            state = operations(state, data)(state).state
        except RuleError:
            continue


def test_memoised_queries_keep_a_bounded_number_of_states() -> None:
    state = turns.add_entry(turns.new_encounter(), Entry("goblin", "director")).state
    state = turns.determine_first(state, SeededDice(1)).state
    assert state.first is not None and state.first.chooser is not None
    state = turns.next_round(turns.choose_first(state, "heroes", state.first.chooser).state).state
    kept = inspect.getclosurevars(turns.picking).nonlocals["kept"]
    for i in range(MEMO_SIZE * 3):
        other = turns.add_entry(state, Entry(f"e{i}", "heroes")).state
        assert turns.picking(other) == turns.picking.__wrapped__(other)  # type: ignore[attr-defined]
        assert len(kept) <= MEMO_SIZE


# --- the encounter aggregate: rounds never stick -----------------------------------

ENCOUNTER_PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
TEAM_SIDES = (
    Side("blue", Controller.PLAYERS, "Blue"),
    Side("red", Controller.DIRECTOR, "Red"),
    Side("green", Controller.DIRECTOR, "Green"),
)


@st.composite
def begun_encounters(draw: st.DrawFn) -> Encounter:
    """A random encounter aggregate, begun: heroes, creatures, minion squads, enemy groups and solos."""
    mode = draw(st.sampled_from(list(Mode)))
    enc = new_encounter_state(mode, TEAM_SIDES) if mode is Mode.TEAMS else new_encounter_state(mode)
    for side in enc.turns.sides:
        for i in range(draw(st.integers(1, 3))):
            hero = side.controller is Controller.PLAYERS
            squad = not hero and draw(st.integers(0, 2)) == 0
            spec = roster.NewCreatures(
                f"{side.id} {i}",
                draw(st.integers(1, 12)),
                side.id,
                is_hero=hero,
                owner_id=1 if hero else None,
                count=draw(st.integers(2, 4)) if squad else 1,
                squad=f"{side.id} squad {i}" if squad else None,
                group=draw(st.sampled_from([None, f"{side.id} pack"])) if not hero else None,
                turns=2 if not hero and mode is not Mode.TEAMS and draw(st.integers(0, 5)) == 0 else 1,
            )
            enc, _ = roster.add_creatures(enc, spec)
    first = {} if mode is Mode.FAST_SLOW else {"first": enc.turns.sides[0].id}
    return flow.begin(enc, SeededDice(draw(st.integers(0, 999))), **first).encounter


def _awake(enc: Encounter) -> bool:
    return any(not e.dead and not e.unconscious for e in enc.turns.entries)


def _play_on(enc: Encounter) -> None:
    """Advance with commands only (/turn end, /turn act for whoever may act): the next round comes, or
    (the acting creature was the last one up) the encounter waits with nobody able to act."""
    start = enc.turns.round
    for _ in range(4 * len(enc.turns.entries) + 4):
        if enc.turns.round > start:
            return
        if enc.turns.phase is Phase.BETWEEN_ROUNDS:
            assert not _awake(enc)
            return
        if turns.current(enc.turns) is not None:
            enc = flow.end_turn(enc).encounter
        else:
            enc = flow.act(enc, turns.eligible(enc.turns)[0], Controller.DIRECTOR, SeededDice(0)).encounter
    raise AssertionError(f"round {start} never ended")


def check_advanceable(enc: Encounter) -> None:
    """A round is running with a turn in progress or somebody to pick, or nobody at all could act in one
    (every creature dead, knocked out or gone: waiting for one to come back); play always reaches the next
    round."""
    state = enc.turns
    assert state.phase in (Phase.IN_ROUND, Phase.BETWEEN_ROUNDS)
    if state.phase is Phase.BETWEEN_ROUNDS:
        assert not _awake(enc)
        with pytest.raises(RuleError, match="Nobody can act in a new round"):
            flow.act(
                enc, state.entries[0].id if state.entries else "ghost", Controller.DIRECTOR, SeededDice(0)
            )
        return
    assert turns.current(state) is not None or turns.eligible(state)
    _play_on(enc)


def encounter_operations(enc: Encounter, data: st.DataObject) -> Callable[[Encounter], Encounter]:
    """One random request at a random moment: turns, deaths, knock-outs, free strikes, removals, additions,
    revivals."""
    names = [c.id for c in enc.creatures] + [e.id for e in enc.turns.entries] + ["ghost"]
    still_to_act = list(turns.waiting(enc.turns))  # often the one whose loss ends the round
    name = data.draw(st.sampled_from(still_to_act if still_to_act and data.draw(st.booleans()) else names))
    side = data.draw(st.sampled_from([s.id for s in enc.turns.sides]))
    seed = data.draw(st.integers(0, 999))
    legal = turns.eligible(enc.turns)
    pick = data.draw(st.sampled_from(legal)) if legal else name
    by = data.draw(st.sampled_from(list(Controller)))
    attacker = data.draw(st.sampled_from([c.id for c in enc.creatures] or ["ghost"]))
    strike_roll = PowerRoll(dice=(6, 6), bonus=0, edges=0, banes=0, main_action=False)
    ops: list[Callable[[Encounter], Encounter]] = [
        lambda e: flow.act(e, pick, by, SeededDice(seed)).encounter,
        lambda e: flow.act(e, name, Controller.DIRECTOR, SeededDice(seed), override=True).encounter,
        lambda e: flow.end_turn(e).encounter,
        lambda e: flow.skip(e, side).encounter,
        lambda e: flow.pass_part(e, by).encounter,
        lambda e: harm.damage(e, name, 99)[0],
        lambda e: harm.damage(e, name, 99, knock_out=True)[0],
        lambda e: harm.damage(e, name, 3)[0],
        lambda e: harm.strike(e, strike_roll, attacker, [name], TieredDamage.parse("99/99/99"))[0],
        lambda e: harm.set_stamina(e, name, 5)[0],
        lambda e: roster.remove(e, name)[0],
        lambda e: roster.add_creatures(e, roster.NewCreatures(f"Late {seed}", 5, side, is_hero=False))[0],
    ]
    # bias towards the moves that carry combat along, so sequences reach many rounds
    if turns.current(enc.turns) is not None and data.draw(st.integers(0, 2)) == 0:
        return ops[2]
    if legal and data.draw(st.integers(0, 2)) == 0:
        return ops[0]
    return ops[data.draw(st.integers(0, len(ops) - 1))]


@ENCOUNTER_PROPS
@given(st.data())
def test_removals_deaths_and_knock_outs_never_leave_an_encounter_no_command_can_advance(
    data: st.DataObject,
) -> None:
    """Draw Steel, Combat, "End of Round": "Once all creatures on both sides of a battle have acted,
    the combat round ends and a new combat round begins." Random deaths, knock-outs, removals and additions
    at random moments (on and off turns, the last creature still to act included) never leave a round that
    no command can advance."""
    enc = data.draw(begun_encounters())
    check_advanceable(enc)
    for _ in range(data.draw(st.integers(5, 60))):
        try:
            enc = encounter_operations(enc, data)(enc)
        except RuleError:
            continue
        assert codec.load(Encounter, codec.to_data(enc)) == enc
        check_advanceable(enc)
