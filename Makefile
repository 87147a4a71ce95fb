# The two commands a newcomer needs: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
RUN_STAMP := $(VENV)/.installed-run
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)

.PHONY: run test test-compiled bench fast clean rebuild-venv venv vendor chromium postgresql cluster

# A .venv whose python does not run, or is older than 3.11 (made by an older python3), is rebuilt.
VENV_BROKEN := $(if $(wildcard $(VENV)),$(shell $(BIN)/python -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 || echo yes))

rebuild-venv:
	@echo "$(VENV) is broken (its python does not run, or is older than 3.11): rebuilding it with $(PY)"
	rm -rf $(VENV)

venv: $(if $(VENV_BROKEN),rebuild-venv)
	@$(PY) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
		echo "Python 3.11 or newer is needed: '$(PY)' is older or does not run (try: make PY=python3.11 ...)"; exit 1; }
	@test -x $(BIN)/python || { echo "Creating $(VENV) with $(PY) ..."; $(PY) -m venv $(VENV) && $(BIN)/python -m pip install --quiet --upgrade pip; }

# What the game needs: the engine, the server (extra `server`) and the terminal app (extra `tui`).
$(RUN_STAMP): pyproject.toml setup.py | venv
	@echo "Installing the game into $(VENV) (the server and the terminal app; a minute the first time) ..."
	$(BIN)/python -m pip install --quiet -e '.[server,tui]'
	touch $(RUN_STAMP)

# Everything the checks need besides: the dev tools, Ray, the RL environments, Playwright.
$(STAMP): pyproject.toml setup.py | venv
	@echo "Installing the game and the development tools into $(VENV) ..."
	$(BIN)/python -m pip install --quiet -e '.[dev,server,rl,tui]'
	touch $(STAMP)

# Starts the game server and prints the address to open in a browser (`liverpool play`: the terminal game).
run: $(RUN_STAMP)
	$(BIN)/liverpool serve

test: $(STAMP) chromium postgresql
	$(BIN)/ruff check src tests tests_compiled benchmarks examples setup.py
	$(BIN)/ruff format --check src tests tests_compiled benchmarks examples setup.py
	$(BIN)/mypy
	$(BIN)/pytest

# The mypyc build (`make fast`) decides as the source and leaves no reference cycles: it needs a C
# compiler and the Python headers, so it is not part of `make test`; CI (.ci/run) runs both. It fails,
# never skips, when the build fails.
test-compiled: $(STAMP)
	$(BIN)/pytest tests_compiled

# The browser tests drive Debian's chromium (never a downloaded browser); install it when missing.
chromium:
	@test -x /usr/bin/chromium || { echo "Installing Debian's chromium for the browser tests ..."; \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y chromium; }

# The server tests run on a real PostgreSQL too (a throwaway cluster the tests start as an
# unprivileged user): Debian's postgresql, installed when missing (its service is not needed).
postgresql:
	@ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { echo "Installing Debian's postgresql for the server tests ..."; \
		$(SUDO) apt-get update && $(SUDO) apt-get install -y postgresql; }

# The server on PostgreSQL (docs/deploy.md): a cluster of its own in .cluster/ (initdb and pg_ctl as an
# unprivileged user), the migrations once as a release step, then `liverpool serve --workers 2` on it; Ctrl-C stops all.
CLUSTER_PORT ?= 5433
PORT ?= 8000
WORKERS ?= 2
cluster: $(RUN_STAMP) postgresql
	$(BIN)/python -m liverpool.server.pgcluster --dir .cluster --port $(CLUSTER_PORT) --serve-port $(PORT) --workers $(WORKERS)

# The build for simulations and RL: the greedy bot, the engine (game/ but common, solver/, melds) and the RL encoder and indexer compiled
# with mypyc (setup.py lists the modules), the rest as in src/.
# Use it with PYTHONPATH=build/fast, e.g. `PYTHONPATH=build/fast .venv/bin/liverpool simulate ...`.
FAST := build/fast
$(FAST)/.built: $(STAMP) setup.py $(shell find src -name '*.py')
	rm -rf $(FAST)
	LIVERPOOL_MYPYC=1 $(BIN)/python -m pip install --quiet --no-deps --no-build-isolation --target $(FAST) .
	touch $@

fast: $(FAST)/.built

bench: $(STAMP) $(FAST)/.built postgresql
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run.py --fast $(FAST)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/random_play.py --fast $(FAST)
	$(BIN)/python benchmarks/analysis.py --jobs 2
	$(BIN)/python benchmarks/rl.py --fast $(FAST)
	$(BIN)/python benchmarks/server.py
	$(BIN)/python benchmarks/server.py --paced 25,50,100,200,300,500 --stores sqlite,postgresql1,postgresql2 --seconds 10
	$(BIN)/python benchmarks/store.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache

# The browser table's view library (Preact + htm), vendored as ES modules under web/static/vendor/
# with their licences. Needs npm only when the versions change; the copies are committed.
PREACT_VERSION := 10.27.2
HTM_VERSION := 3.1.1
VENDOR := src/liverpool/web/static/vendor
vendor:
	rm -rf build/vendor && mkdir -p build/vendor $(VENDOR)
	cd build/vendor && npm pack --silent preact@$(PREACT_VERSION) htm@$(HTM_VERSION) >/dev/null
	cd build/vendor && mkdir preact htm && tar xzf preact-$(PREACT_VERSION).tgz -C preact --strip-components=1 \
		&& tar xzf htm-$(HTM_VERSION).tgz -C htm --strip-components=1
	cp build/vendor/preact/dist/preact.module.js $(VENDOR)/preact.module.js
	cp build/vendor/preact/hooks/dist/hooks.module.js $(VENDOR)/preact-hooks.module.js
	cp build/vendor/htm/dist/htm.module.js $(VENDOR)/htm.module.js
	cp build/vendor/htm/preact/index.module.js $(VENDOR)/htm-preact.module.js
	cp build/vendor/preact/LICENSE $(VENDOR)/LICENSE.preact
	cp build/vendor/htm/LICENSE $(VENDOR)/LICENSE.htm
	printf 'preact %s\nhtm %s\n' $(PREACT_VERSION) $(HTM_VERSION) > $(VENDOR)/VERSIONS
