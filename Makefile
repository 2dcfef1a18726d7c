# The two commands of the README:  `make demo` runs a simulated table with its
# dashboard;  `make test` runs the test suite.  Both install what they need first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup system-deps test demo bench clean i18n

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@

# Debian packages the tests use: chromium for the dashboard tests (Playwright drives
# Debian's build; its own browser download cannot work offline), mosquitto for the
# tournament hub's broker tests (they start their own on a free port).  Installed only when missing.
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	{ command -v mosquitto || test -x /usr/sbin/mosquitto; } >/dev/null 2>&1 || missing="$$missing mosquitto"; \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:$$missing"; \
	  $(SUDO) apt-get update -qq && $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

test: setup system-deps
	$(BIN)/python -m pytest -n 2 -q

demo: setup
	$(BIN)/chicago-table demo

bench: setup system-deps
	@for b in tests/bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info

# The dashboard's texts: extract them (babel.cfg), merge into the Swedish catalogue and
# compile the shipped .mo (dashboard/i18n.py).  Fails while a text has no Swedish.
I18N_SOURCES := dashboard/i18n.py dashboard/error_pages.py dashboard/entry.py dashboard/hub.py \
	dashboard/deps.py dashboard/app.py dashboard/routes/*.py dashboard/static/common.js dashboard/static/tl.js \
	dashboard/static/revisor.js dashboard/static/dealer.js dashboard/static/hall.js
i18n: setup
	$(BIN)/pybabel extract -F babel.cfg -k N_ -k t -k tn:1,2 -k DashboardError -k Refused -k Denied:2 \
		--no-location --sort-output --omit-header -w 200 -o dashboard/locale/messages.pot $(I18N_SOURCES)
	$(BIN)/python tools/i18n_update.py
