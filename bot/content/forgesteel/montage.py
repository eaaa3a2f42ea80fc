"""A Forge Steel montage (`.ds-montage`): its scene, sections, challenges with their uses, twists and
outcome texts, read into the rules' `Challenge`s for the running montage.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.content.forgesteel.files import Fields, Kind, ReadBudget, at_most, load_export
from bot.rules.characteristics import Characteristic
from bot.rules.montage import CHALLENGES_MAX, USES_MAX, Challenge, MontageOutcome
from bot.rules.names import name_key

SECTIONS_MAX = 20
TWISTS_MAX = 40
#: The longest text kept (a description, an outcome, a twist); longer ones are cut, with a warning.
TEXT_MAX = 1000
NAME_MAX = 80
_OUTCOMES = {
    "totalSuccess": MontageOutcome.TOTAL_SUCCESS,
    "partialSuccess": MontageOutcome.PARTIAL_SUCCESS,
    "totalFailure": MontageOutcome.TOTAL_FAILURE,
}
_TRAITS = {c.value: c for c in Characteristic}


@dataclass(frozen=True, slots=True)
class ImportedMontage:
    """What a montage file brings: its name and scene, the challenges of every section in order, the twists
    (Director-only texts), the outcome texts by `MontageOutcome` value, and what couldn't be used."""

    name: str
    scene: str
    challenges: tuple[Challenge, ...]
    twists: tuple[str, ...]
    outcomes: dict[str, str]
    warnings: tuple[str, ...] = ()


class _Reader:
    """One file's reading: its warnings, the challenge names taken, the twists counted."""

    def __init__(self) -> None:
        self.warnings: list[str] = []
        self.names: set[str] = set()

    def text(self, fields: Fields, key: str, what: str) -> str:
        """A text field (a list of texts joined by blank lines), cut to `TEXT_MAX` with a warning."""
        joined = "\n\n".join(t.strip() for t in fields.texts(key) if t.strip())
        if len(joined) > TEXT_MAX:
            self.warnings.append(f"{what} was cut to {TEXT_MAX} characters.")
            return joined[: TEXT_MAX - 1] + "…"
        return joined

    def traits(self, fields: Fields, name: str) -> tuple[Characteristic, ...]:
        found: list[Characteristic] = []
        for text in fields.texts("characteristics"):
            trait = _TRAITS.get(text.strip().lower())
            if trait is None:
                self.warnings.append(f"{name}: the characteristic {text[:20]!r} isn't one the bot knows.")
            elif trait not in found:
                found.append(trait)
        return tuple(found)

    def uses(self, fields: Fields, name: str) -> int | None:
        uses = fields.integer("uses", 0)
        if uses <= 0:
            return None
        if uses > USES_MAX:
            self.warnings.append(f"{name}: {uses} uses is more than the bot keeps, so it has {USES_MAX}.")
            return USES_MAX
        return uses

    def challenge(self, fields: Fields, section: str) -> Challenge | None:
        name = " ".join(fields.text("name").split())[:NAME_MAX] or "Challenge"
        if name_key(name) in self.names:
            renamed = f"{name} ({section})"[:NAME_MAX] if section else name
            if name_key(renamed) in self.names:
                self.warnings.append(
                    f"A second challenge called {name} was left out: rename it in Forge Steel."
                )
                return None
            name = renamed
        self.names.add(name_key(name))
        skills = tuple(s.strip() for s in fields.text("skills").split(",") if s.strip())
        description = self.text(fields, "description", name)
        abilities = fields.text("abilities").strip()
        if abilities:
            description = f"{description}\nAbilities: {abilities}".strip()[:TEXT_MAX]
        return Challenge(name, self.traits(fields, name), skills, self.uses(fields, name), None, description)

    def twist(self, fields: Fields) -> str:
        name = " ".join(fields.text("name").split())[:NAME_MAX]
        description = self.text(fields, "description", f"The twist {name}")
        return f"{name}: {description}" if name and description else name or description


def read_montage(data: bytes, budget: ReadBudget | None = None) -> ImportedMontage:
    """A `.ds-montage` export (or a `ForgeSteelError` saying what to upload instead). Read within a CPU
    `budget` and refused as soon as it holds more sections, challenges or twists than the bot keeps.

    Forge Steel's `Montage` (`src/models/montage.ts`) has a `scene`, `sections` and `outcomes` (total success,
    partial success, total failure); a section has `challenges`, `twistInfo` and `twists`; a challenge (a
    twist has the same shape) has `characteristics`, `skills` (one text), `abilities` (one text), `uses`, and
    the `successes` and `failures` Forge Steel's own runner counts (play state, not read: the bot counts its
    own). Every element has an `id`, a `name` and a `description` (a text, or a list of texts in older
    files)."""
    _, top = load_export(data, Kind.MONTAGE, budget=budget or ReadBudget())
    reader = _Reader()
    challenges: list[Challenge] = []
    twists: list[str] = []
    sections = top.objects("sections", "montage section")
    at_most(len(sections), SECTIONS_MAX, "montage sections")
    for section in sections:
        title = " ".join(section.text("name").split())
        for fields in section.objects("challenges", "montage challenge"):
            at_most(len(challenges) + 1, CHALLENGES_MAX, "montage challenges")
            made = reader.challenge(fields, title)
            if made is not None:
                challenges.append(made)
        info = reader.text(section, "twistInfo", "A section's twist text")
        if info:
            twists.append(info)
        for fields in section.objects("twists", "montage twist"):
            at_most(len(twists) + 1, TWISTS_MAX, "montage twists")
            twists.append(reader.twist(fields))
    outcomes_fields = top.obj("outcomes", "montage outcomes")
    outcomes = {}
    for key, outcome in _OUTCOMES.items():
        text = reader.text(outcomes_fields, key, f"The {outcome.value} text")
        if text:
            outcomes[outcome.value] = text
    scene = "\n\n".join(
        t
        for t in (reader.text(top, "description", "The description"), reader.text(top, "scene", "The scene"))
        if t
    )[:TEXT_MAX]
    name = " ".join(top.text("name").split())[:NAME_MAX] or "Montage"
    return ImportedMontage(name, scene, tuple(challenges), tuple(twists), outcomes, tuple(reader.warnings))
