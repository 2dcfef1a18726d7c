# The two commands of the README:  `make demo` runs a simulated table with its
# dashboard;  `make test` runs the test suite.  Both install what they need first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup system-deps micropython pico-stubs firmware lint test demo bench mutation i18n clean

setup: $(VENV)/.installed

# setup.py builds the solver's C kernel into the source tree: rebuilt when its source changes
$(VENV)/.installed: pyproject.toml setup.py table_controller/analysis/_kernel.c
	@command -v cc >/dev/null 2>&1 || { echo "installing Debian's gcc (the solver's C kernel)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc; }
	@$(PYTHON) -c "import os, sysconfig; raise SystemExit(not os.path.exists(sysconfig.get_paths()['include'] + '/Python.h'))" || \
	  { echo "installing Debian's python3-dev (Python.h, for the solver's C kernel)"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-dev; }
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# Debian packages the tests use: chromium for the dashboard tests (Playwright drives
# Debian's build; its own browser download cannot work offline), mosquitto for the
# tournament hub's broker tests (they start their own on a free port), nodejs and npm for
# MicroPython's WebAssembly port (below), poppler-utils for pdftotext (the README's
# walk-through test reads the printed protocol).  Installed only when missing.
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	{ command -v mosquitto || test -x /usr/sbin/mosquitto; } >/dev/null 2>&1 || missing="$$missing mosquitto"; \
	command -v node >/dev/null 2>&1 || missing="$$missing nodejs"; \
	command -v npm >/dev/null 2>&1 || missing="$$missing npm"; \
	command -v pdftotext >/dev/null 2>&1 || missing="$$missing poppler-utils"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

# MicroPython itself (its WebAssembly port, from npm, the version pinned in the lock file)
# for the tests that run the seat-controller firmware under it (tests/hardware/test_micropython.py).
# Installed here, never while the tests run.
MICROPYTHON := build/micropython
micropython: $(MICROPYTHON)/.installed

$(MICROPYTHON)/.installed: tests/hardware/micropython/package.json tests/hardware/micropython/package-lock.json | system-deps
	mkdir -p $(MICROPYTHON)
	cp tests/hardware/micropython/package.json tests/hardware/micropython/package-lock.json $(MICROPYTHON)/
	cd $(MICROPYTHON) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# The Pico's MicroPython stubs, for mypy over the board glue (tests/hardware/test_firmware_build.py).
PICO_STUBS := build/pico-stubs
pico-stubs: $(PICO_STUBS)/.installed

$(PICO_STUBS)/.installed: hardware/pico-stubs.txt | setup
	rm -rf $(PICO_STUBS)
	$(BIN)/pip install --quiet --target $(PICO_STUBS) -r hardware/pico-stubs.txt
	touch $@

# The firmware as it goes onto the Pico: .mpy files from MicroPython's cross-compiler
# (hardware/README.md, "Flashing").
firmware: setup
	$(BIN)/python -m hardware.firmware_build build/firmware

# Guard rails (issue 14 item 6), before the tests: the linter, the type checker (pyproject.toml
# says what is checked how: strict on the rules and the bridge) and every docstring example of
# the packages, run as written (conftest.py names the modules that only import on the Pico).
PACKAGES := table_controller firmware_bridge vision dashboard hardware
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -p no:xdist -q --doctest-modules $(PACKAGES)

# Three workers on a two-core machine: they keep both cores busy all along (chromium's
# renderers, which `time` does not count, are a good part of it).  Two workers use less CPU
# but leave the cores idle while tests wait on the wall clock (6:22 on 613 s of CPU against
# 5:59 on 675 s; README, "Suite time"), and three are the ones the runs beside a busy loop
# have passed with.  worksteal: a worker that runs
# out takes half of another's queue (the longest modules run first, tests/conftest.py), so
# the workers end together.
# PYTEST_ARGS: more for pytest, e.g. `make test PYTEST_ARGS=--store-durations`
PYTEST_ARGS ?=
# compileall first: a shell with PYTHONDONTWRITEBYTECODE set would otherwise compile the
# project again in every process the tests start (about 0.1 s of CPU each).  pytest runs
# without PYTHONDONTWRITEBYTECODE: with it, pytest rewrites every test module's asserts again
# in every worker of every run instead of keeping them in __pycache__ (a worker's collection
# 12 -> 7 s of CPU from the second run on), and the mutation sample's runs take the rule
# tests rewritten from there (tests/mutation/run.py: 1.7 -> 0.9 s of CPU a mutant's run)
test: setup lint system-deps micropython pico-stubs
	@$(BIN)/python -m compileall -q -j 0 table_controller dashboard firmware_bridge vision hardware
	env -u PYTHONDONTWRITEBYTECODE $(BIN)/python -m pytest -n 3 --dist worksteal -q $(PYTEST_ARGS)

demo: setup
	$(BIN)/chicago-table demo

bench: setup system-deps
	@for b in tests/bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# Mutation testing of the rules package (issue 23, tests/mutation/README.md): lists every
# surviving mutant with file:line and the change.  All of them: SAMPLE=0 (hours on one core);
# a seeded sample: `make mutation SAMPLE=30 SEED=1`; some lines: LINES=table_controller/rules/engine.py:370-384
SAMPLE ?= 0
SEED   ?= 1
LINES  ?=
JOBS   ?= 2
KEEP   ?=
mutation: setup
	$(BIN)/python -m tests.mutation.run --sample $(SAMPLE) --seed $(SEED) --jobs $(JOBS) $(if $(LINES),--lines $(LINES)) $(if $(KEEP),--keep $(KEEP))

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info table_controller/analysis/_kernel.*.so

# The console's words for officials (table_controller/app/words.py), a catalogue of their own
CONSOLE_SOURCES := table_controller/app/commands/doctor.py table_controller/app/commands/setup.py table_controller/app/commands/hub.py table_controller/deck.py \
	table_controller/tournament/event.py table_controller/tournament/hubstore.py table_controller/tournament/draw.py table_controller/tournament/playerfile.py \
	table_controller/app/commands/run.py table_controller/app/commands/serve.py table_controller/app/commands/demo.py \
	table_controller/app/service.py table_controller/app/web.py table_controller/app/table_files.py table_controller/app/words.py table_controller/app/config.py table_controller/app/argtypes.py \
	table_controller/app/commands/protocol.py table_controller/tournament/service.py table_controller/tournament/publisher.py \
	table_controller/app/argwords.py table_controller/app/cli.py table_controller/app/outputs.py \
	table_controller/store/sqlite.py table_controller/store/memory.py table_controller/store/rebuild.py table_controller/store/recovery.py table_controller/store/records.py \
	table_controller/store/sensors.py table_controller/store/snapshots.py table_controller/store/transfer.py table_controller/store/recorder.py table_controller/store/check.py \
	table_controller/app/commands/log.py table_controller/tournament/witness.py \
	table_controller/app/commands/textinput.py table_controller/app/commands/replay.py table_controller/app/commands/analyse.py \
	table_controller/app/commands/rules.py table_controller/app/commands/deck.py table_controller/app/commands/link.py \
	table_controller/app/commands/camera.py vision/photo_reader.py vision/photo/images.py vision/photo/annotate.py \
	vision/calibration.py vision/layout.py vision/source.py vision/worker.py
# The dashboard's texts and the console's: extract them (babel.cfg), merge into the Swedish
# catalogues and compile the shipped .mo files (dashboard/i18n.py).  Fails while a text has no Swedish.
I18N_SOURCES := dashboard/i18n.py dashboard/error_pages.py dashboard/entry.py dashboard/hub.py dashboard/seat_exchange.py \
	dashboard/deps.py dashboard/app.py dashboard/join_sheet.py dashboard/routes/*.py dashboard/static/common.js dashboard/static/tl.js \
	dashboard/static/revisor.js dashboard/static/dealer.js dashboard/static/hall.js dashboard/static/protocol.js \
	dashboard/static/broadcast.js dashboard/static/audience.js dashboard/static/public.js dashboard/static/seat.js \
	dashboard/standings_page.py table_controller/tournament/texts.py dashboard/tokens.py dashboard/branding.py dashboard/hall.py
i18n: setup
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k t -k tn:1,2 -k for_tl -k DashboardError -k Refused -k Denied:2 \
		--no-location --sort-output --omit-header -w 200 -o dashboard/locale/messages.pot $(I18N_SOURCES)
	$(BIN)/pybabel extract -F babel.cfg -k say -k say_n:1,2 -k HubError -k EventOver -k DrawError -k PlayerFileError \
		-k StoreError -k StoreNotFound -k NotATableLog -k SchemaError -k StoreCorrupt -k StoreBusy -k StoreWriteError -k StoreReadOnly -k StoreClosed -k RecordError -k ExportError -k ClockSnapshotError -k Phrase -k note:3 -k fault:2 -k argword \
		-k VisionError -k CameraUnavailable -k CalibrationError -k UnreadableImage --no-location --sort-output --omit-header -w 200 \
		-o dashboard/locale/console.pot $(CONSOLE_SOURCES)
	$(BIN)/python -m dashboard.i18n_update
