"""pyproject.toml builds without setuptools' deprecation box (issue 22 §4: "`pip install` prints no
deprecation box from pyproject.toml (the license field)"): the licence is an SPDX string (PEP 639), which the
setuptools it requires understands (77 and later); the `{ text = ... }` table is deprecated."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parents[1] / "pyproject.toml"


def test_the_licence_is_an_spdx_string_setuptools_understands() -> None:
    data = tomllib.loads(PYPROJECT.read_text())
    assert data["project"]["license"] == "MIT"
    [setuptools] = [r for r in data["build-system"]["requires"] if r.startswith("setuptools")]
    floor = re.fullmatch(r"setuptools>=(\d+)(?:\.\d+)*", setuptools)
    assert floor is not None and int(floor[1]) >= 77, setuptools
