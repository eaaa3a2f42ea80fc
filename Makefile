# Two entry points: `make run` (set up and start the bot) and `make check` (set up and run lint, types, tests).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run check setup lint types test bench screenshots clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

run: $(STAMP)
	$(PY) -m bot

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

types: $(STAMP)
	$(VENV)/bin/mypy bot exts

test: $(STAMP)
	$(VENV)/bin/pytest -q

check: lint types test

bench: $(STAMP)
	$(PY) bench/rules.py
	$(PY) bench/store.py
	$(PY) bench/wire.py --quick

# Not part of check: needs Chromium (Debian: apt-get install chromium fonts-noto-color-emoji).
screenshots: $(STAMP)
	$(PY) tools/take_screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
