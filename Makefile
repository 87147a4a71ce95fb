# The two commands a newcomer needs: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench fast clean vendor chromium

$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,server]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/liverpool serve

test: $(STAMP) chromium
	$(BIN)/ruff check src tests benchmarks setup.py
	$(BIN)/ruff format --check src tests benchmarks setup.py
	$(BIN)/mypy
	$(BIN)/pytest

# The build for simulations: the greedy bot compiled with mypyc (setup.py), the rest as in src/.
# Use it with PYTHONPATH=build/fast, e.g. `PYTHONPATH=build/fast .venv/bin/liverpool simulate ...`.
FAST := build/fast
$(FAST)/.built: $(STAMP) setup.py $(shell find src -name '*.py')
	rm -rf $(FAST)
	LIVERPOOL_MYPYC=1 $(BIN)/python -m pip install --quiet --no-deps --no-build-isolation --target $(FAST) .
	touch $@

fast: $(FAST)/.built

bench: $(STAMP) $(FAST)/.built
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python benchmarks/run.py --fast $(FAST)
	$(BIN)/python benchmarks/server.py

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

# The browser tests drive Debian's chromium (never a downloaded browser); install it when missing.
chromium:
	test -x /usr/bin/chromium || (apt-get update && apt-get install -y chromium)
