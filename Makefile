# The two commands of the README:  `make demo` runs a simulated table with its
# dashboard;  `make test` runs the test suite.  Both install what they need first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup system-deps test demo bench mutation clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# Debian packages the tests use: chromium for the dashboard tests (Playwright drives
# Debian's build; its own browser download cannot work offline).  Installed only when missing.
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

test: setup system-deps
	$(BIN)/python -m pytest -n 2 -q

demo: setup
	$(BIN)/chicago-table demo

bench: setup
	@for b in tests/bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

# Mutation testing of the rules package (issue 23, tests/mutation/README.md): lists every
# surviving mutant with file:line and the change.  All of them: SAMPLE=0 (hours on one core);
# a seeded sample: `make mutation SAMPLE=30 SEED=1`; some lines: LINES=table_controller/engine.py:370-384
SAMPLE ?= 0
SEED   ?= 1
LINES  ?=
mutation: setup
	$(BIN)/python -m tests.mutation.run --sample $(SAMPLE) --seed $(SEED) $(if $(LINES),--lines $(LINES))

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
