import pytest

from bot.rules.stamina import Vitals
from bot.ui.format import bar, stamina_numbers, stamina_text, state_label


def test_stamina_label_is_the_contract() -> None:
    assert stamina_text(Vitals(30, 12)) == "Stamina: 12/30"
    assert stamina_numbers(Vitals(30, 12, temporary=5)) == "12/30 (+5 temp)"


@pytest.mark.parametrize(
    ("current", "maximum", "expected"),
    [
        (30, 30, "██████████"),
        (0, 30, "░░░░░░░░░░"),
        (-5, 30, "░░░░░░░░░░"),
        (1, 30, "█░░░░░░░░░"),
        (15, 30, "█████░░░░░"),
    ],
)
def test_bar(current: int, maximum: int, expected: str) -> None:
    assert bar(current, maximum) == expected


@pytest.mark.parametrize(
    ("vitals", "label"),
    [
        (Vitals(30, 30), "healthy"),
        (Vitals(30, 15), "winded"),
        (Vitals(30, 0, is_hero=True, recoveries=1, max_recoveries=1), "dying"),
        (Vitals(30, -15, is_hero=True), "dead"),
        (Vitals(30, 0), "dead"),
        (Vitals(30, 10, knocked_out=True), "knocked out"),
    ],
)
def test_state_label(vitals: Vitals, label: str) -> None:
    assert state_label(vitals) == label
