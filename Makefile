# Two entry points: `make run` (set up and start the bot) and `make check` (set up and run lint, types, tests).
# Both install from the lock files, which pin every package with its hashes: `make run` only what the bot needs
# (requirements.lock), `make check` the development tools too (requirements-dev.lock). `make lock` brings the
# lock files in line with pyproject.toml after a change there; `make lock-upgrade` moves every pin to the
# newest release pyproject.toml allows.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
# The lock tool, pinned like everything else; only `make lock` needs it.
UV_VERSION := 0.13.9
UV := $(VENV)/bin/uv
COMPILE := $(UV) pip compile pyproject.toml --quiet --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command 'make lock'
# The README's test command (CI runs it through `make check`): the suite spread over the machine's cores, each
# test module whole on one worker, in its own order, as in a serial run.
PYTEST := $(VENV)/bin/pytest -q -n auto --dist loadfile

.PHONY: run check setup setup-dev lint types test lock lock-upgrade bench screenshots screenshot-texts clean

$(PY):
	$(PYTHON) -m venv $(VENV)

# The project itself goes on top with --no-deps: everything it needs came from the lock file.
$(RUN_STAMP): requirements.lock pyproject.toml | $(PY)
	$(PIP) install --quiet --require-hashes -r requirements.lock
	$(PIP) install --quiet --no-deps -e .
	touch $@

# The development lock holds the runtime pins too, so it also satisfies `make run`.
$(DEV_STAMP): requirements-dev.lock requirements.lock pyproject.toml | $(PY)
	$(PIP) install --quiet --require-hashes -r requirements-dev.lock
	$(PIP) install --quiet --no-deps -e .
	touch $@ $(RUN_STAMP)

setup: $(RUN_STAMP)

setup-dev: $(DEV_STAMP)

run: $(RUN_STAMP)
	$(PY) -m bot

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports

types: $(DEV_STAMP)
	$(VENV)/bin/mypy bot exts

test: $(DEV_STAMP)
	$(PYTEST)

check: lint types test

$(UV): | $(PY)
	$(PIP) install --quiet uv==$(UV_VERSION)

# The runtime lock first; the development lock is held to its pins (-c), so both agree on every shared package.
lock: $(UV)
	$(COMPILE) -o requirements.lock
	$(COMPILE) --extra dev -c requirements.lock -o requirements-dev.lock

lock-upgrade: $(UV)
	$(COMPILE) --upgrade -o requirements.lock
	$(COMPILE) --upgrade --extra dev -c requirements.lock -o requirements-dev.lock

bench: $(DEV_STAMP)
	$(PY) bench/rules.py
	$(PY) bench/store.py
	$(PY) bench/wire.py --quick

# Not part of check: needs Chromium (Debian: apt-get install chromium fonts-noto-color-emoji).
screenshots: $(DEV_STAMP)
	$(PY) tools/take_screenshots.py

# The screenshots' texts only (docs/screenshots/*.txt, compared by the tests): no Chromium needed.
screenshot-texts: $(DEV_STAMP)
	$(PY) tools/take_screenshots.py --text-only

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
