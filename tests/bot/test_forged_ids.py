"""Forged custom ids on the persistent buttons: a press carries whatever text its client sends, so every
number in a custom id is read by one parser (`bot.ui.persistent.number`: ASCII digits only, within 64
bits). A forged field gets a one-line ephemeral answer (or no match at all), never an unexpected error: the
SimCord fixture fails a test that logs one.
"""

from __future__ import annotations

import discord
import pytest

from bot.replies import UserError
from bot.rules.damage import DamageError, DamageModifiers
from bot.rules.encounter import new_encounter_state
from bot.rules.encounter.objectives import ObjectiveError, Outcome, add_objective, resolve
from bot.ui.persistent import NUMBER_MAX, ForgedId, Presses, number, optional_number
from tests.bot import encounter_kit as kit
from tests.bot.conftest import Table


@pytest.mark.parametrize("text", ["²", "٣", " 3", "3 ", "-1", "+1", "", "1e3", str(NUMBER_MAX + 1), "9" * 21])
def test_number_takes_ascii_digits_only(text: str) -> None:
    with pytest.raises(ForgedId):
        number(text)


def test_number_reads_what_the_bot_writes() -> None:
    assert number("0") == 0
    assert number("0042") == 42
    assert number(str(NUMBER_MAX)) == NUMBER_MAX
    assert optional_number("") is None
    assert optional_number("7") == 7


def test_typed_numbers_with_other_digits_get_the_rule_error() -> None:
    """The same `str.isdigit` trap in typed options: "²" passed it, then `int` raised an unexpected error."""
    with pytest.raises(DamageError):
        DamageModifiers.parse(weaknesses="fire ²")
    encounter = add_objective(new_encounter_state(), "Hold the bridge")
    with pytest.raises(ObjectiveError):
        resolve(encounter, "¹", Outcome.ACHIEVED)


def forge(table: Table, message: discord.Message, prefix: str, custom_id: str) -> None:
    """Give the stored message's button whose custom id starts with `prefix` the id `custom_id` (what a
    forged press sends: the press carries the custom id its client names)."""
    stored = table.env.backend.get_message(message.channel.id, message.id)
    found = False
    for row in stored.components:
        for item in row.get("components", []):
            if str(item.get("custom_id", "")).startswith(prefix):
                item["custom_id"], found = custom_id, True
    assert found, f"no button {prefix}… on the message"


def act_id(message: discord.Message) -> str:
    ids = [
        getattr(c, "custom_id", "") or "" for row in message.components for c in getattr(row, "children", [])
    ]
    return next(i for i in ids if i.startswith("enc:act:"))


@pytest.mark.parametrize("argument", ["²", "³", "٣", "x", "99999999999999999999"])
async def test_a_forged_act_argument_is_answered_in_one_line(table: Table, argument: str) -> None:
    await kit.ready(table, first="director")
    tracker = kit.tracker(table.channel)
    real = act_id(tracker)
    forge(table, tracker, "enc:act:", f"{real}:{argument}")

    text = kit.refused(await table.director.click(tracker, custom_id=f"{real}:{argument}"))

    assert text == "This button can't be read any more: use the slash command instead."
    assert (await kit.stored(table)).turns.turns == ()  # nothing started


@pytest.mark.parametrize("argument", ["²", "٣", "", "0", "1.²"])
async def test_a_forged_rescue_index_is_answered_in_one_line(table: Table, argument: str) -> None:
    await kit.ready(table, first="director")
    tracker = kit.tracker(table.channel)
    eid_ver = act_id(tracker).removeprefix("enc:act:")
    forged = f"enc:rescue:{eid_ver}:{argument}".rstrip(":")
    forge(table, tracker, "enc:act:", forged)

    result = await table.alice.click(tracker, custom_id=forged)

    assert kit.refused(result) == "This button can't be read any more: use the slash command instead."


@pytest.mark.parametrize("ids", ["²:1", "1:²", "٣:1", "99999999999999999999:1", "1:99999999999999999999"])
async def test_forged_encounter_numbers_never_crash(table: Table, ids: str) -> None:
    """Numbers outside ASCII digits don't match the template (the press is ignored); a number past 64 bits
    matches and is answered in one line (it would overflow PostgreSQL's bigint)."""
    await kit.ready(table, first="director")
    tracker = kit.tracker(table.channel)
    forged = f"enc:act:{ids}"
    forge(table, tracker, "enc:act:", forged)

    result = await table.director.click(tracker, custom_id=forged)

    message = result.response or (result.followups[0] if result.followups else None)
    if message is not None:
        assert kit.refused(result) == "This button can't be read any more: use the slash command instead."
    assert (await kit.stored(table)).turns.turns == ()


async def test_a_press_runs_its_actions_handler_or_is_refused_in_one_line() -> None:
    presses = Presses(lambda action: f"No {action} here: use /montage {action} instead.")
    seen: list[tuple[int, int, str]] = []

    async def undo(_interaction: object, encounter_id: int, version: int, arg: str) -> None:
        seen.append((encounter_id, version, arg))

    presses.set("undo", undo)
    await presses.press(None, "undo", 7, 3, "x")  # type: ignore[arg-type]  # the handler ignores it
    assert seen == [(7, 3, "x")]
    with pytest.raises(UserError, match=r"^No close here: use /montage close instead\.$"):
        await presses.press(None, "close", 7, 3, "")  # type: ignore[arg-type]
