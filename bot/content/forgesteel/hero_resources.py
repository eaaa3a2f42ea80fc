"""A Forge Steel hero's heroic resources and what gains them.

Rules: Draw Steel, The Basics, "Heroic Resources", as Forge Steel's `HeroLogic.getHeroicResources` reads them
(`hero_resources`).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.content.forgesteel.files import Fields, at_most
from bot.content.forgesteel.hero_features import HeroFeatures

RESOURCES_MAX = 8
"""The heroic resources a hero may have (a class's and an epic one). Every resource lists the shared gains,
so their count is capped before they are read."""


@dataclass(frozen=True, slots=True)
class ResourceGain:
    """When the resource is gained and how much (`1d3`, `2`, `XP gained`)."""

    trigger: str
    value: str


@dataclass(frozen=True, slots=True)
class HeroResource:
    """A heroic resource: its name, whether it is an epic resource, and its gains."""

    name: str
    gains: tuple[ResourceGain, ...] = ()
    epic: bool = False

    @property
    def turn_gain(self) -> str:
        """The gain at the start of each turn (`1d3`, `2`), or "0" when the resource has none."""
        for gain in self.gains:
            if "start of your turn" in gain.trigger.lower():
                return gain.value
        return "0"


def _gain(gain: Fields) -> tuple[str, ResourceGain]:
    return gain.text("tag"), ResourceGain(gain.text("trigger"), gain.text("value"))


def hero_resources(features: HeroFeatures) -> tuple[HeroResource, ...]:
    """The hero's heroic resources, in the order their features come.

    Each Heroic Resource feature that counts is a resource (`heroic`: the class's Ferocity, Wrath ...; `epic`:
    a level-10 resource). A heroic resource's gains are its own, plus every Heroic Resource Gain feature's,
    plus its domains' gains for a resource of that name; a gain feature's `replacesTags` removes the gains it
    improves on (Fury level 4: "take-damage 2" replaces "take-damage"). An epic resource keeps its own gains
    (Forge Steel's `HeroLogic.getHeroicResources`, read, not copied; Draw Steel, The Basics, "Heroic
    Resources")."""
    resources = features.of_type("Heroic Resource")
    at_most(len(resources), RESOURCES_MAX, "heroic resources")
    from_features = [f.data for f in features.of_type("Heroic Resource Gain")]
    replaced = {tag for data in from_features for tag in data.texts("replacesTags")}
    domains = [d for f in features.of_type("Domain") for d in f.data.objects("selected", "domain")]
    out: list[HeroResource] = []
    for feature in resources:
        data, name = feature.data, feature.name
        own = [_gain(g) for g in data.objects("gains", "resource gain")]
        if data.text("type", "heroic") == "epic":
            out.append(HeroResource(name, tuple(g for _, g in own), epic=True))
            continue
        domain_gains = [
            _gain(g)
            for d in domains
            for g in d.objects("resourceGains", "domain resource gain")
            if g.text("resource") == name
        ]
        gains = [*own, *(_gain(d) for d in from_features), *domain_gains]
        out.append(HeroResource(name, tuple(g for tag, g in gains if tag not in replaced)))
    return tuple(out)
