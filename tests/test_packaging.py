"""Packaging: pyproject.toml builds without setuptools' deprecation box (the licence is an SPDX string,
PEP 639, which the setuptools it requires understands: 77 and later; the `{ text = ... }` table is
deprecated); the lock files pin what pyproject.toml asks for; the README shows the test command `make check`
runs."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_the_licence_is_an_spdx_string_setuptools_understands() -> None:
    data = tomllib.loads(PYPROJECT.read_text())
    assert data["project"]["license"] == "MIT"
    [setuptools] = [r for r in data["build-system"]["requires"] if r.startswith("setuptools")]
    floor = re.fullmatch(r"setuptools>=(\d+)(?:\.\d+)*", setuptools)
    assert floor is not None and int(floor[1]) >= 77, setuptools


def _pins(lock: str) -> dict[str, str]:
    """name -> version of every package a lock file pins (each line `name==version \\`, its hashes after)."""
    text = (PYPROJECT.parent / lock).read_text()
    pins = dict(re.findall(r"^([a-z0-9-]+)==(\S+) ", text, re.MULTILINE))
    assert pins and text.count("--hash=sha256:") >= len(pins), lock
    return pins


def _unmet(requirements: list[str], pins: dict[str, str]) -> list[str]:
    unmet = []
    for line in requirements:
        requirement = Requirement(line)
        pinned = pins.get(canonicalize_name(requirement.name))
        if pinned is None or pinned not in requirement.specifier:
            unmet.append(f"{line} (locked: {pinned})")
    return unmet


def test_the_lock_files_pin_what_pyproject_asks_for() -> None:
    """A dependency added to or changed in pyproject.toml without `make lock` fails here, not on a fresh
    machine whose `make run` would then miss it."""
    project = tomllib.loads(PYPROJECT.read_text())["project"]
    runtime, dev = _pins("requirements.lock"), _pins("requirements-dev.lock")
    assert _unmet(project["dependencies"], runtime) == []
    assert _unmet(project["dependencies"] + project["optional-dependencies"]["dev"], dev) == []
    assert {name: dev[name] for name in runtime} == runtime  # the two agree on what they share


def test_the_readme_shows_the_test_command_make_check_runs() -> None:
    makefile = (PYPROJECT.parent / "Makefile").read_text()
    [command] = re.findall(r"^PYTEST := \$\(VENV\)/(bin/pytest .+)$", makefile, re.MULTILINE)
    assert f"\n.venv/{command}\n" in (PYPROJECT.parent / "README.md").read_text()
