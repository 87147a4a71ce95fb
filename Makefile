# The two commands a newcomer needs: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-compiled lint typecheck pytest bench fast clean rebuild-venv

# A .venv whose python does not run, or is older than 3.11 (made by an older python3), is rebuilt.
VENV_BROKEN := $(if $(wildcard $(VENV)),$(shell $(BIN)/python -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1 || echo yes))

$(STAMP): pyproject.toml setup.py $(if $(VENV_BROKEN),rebuild-venv)
	@$(PY) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
		echo "Python 3.11 or newer is needed: '$(PY)' is older or does not run (try: make PY=python3.11 ...)"; exit 1; }
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,server,rl,tui]'
	touch $(STAMP)

rebuild-venv:
	@echo "$(VENV) is broken (its python does not run, or is older than 3.11): rebuilding it with $(PY)"
	rm -rf $(VENV)

run: $(STAMP)
	$(BIN)/liverpool play

test: $(STAMP)
	$(BIN)/ruff check src tests tests_compiled benchmarks setup.py
	$(BIN)/ruff format --check src tests tests_compiled benchmarks setup.py
	$(BIN)/mypy
	$(BIN)/pytest

# The mypyc build (`make fast`) decides as the source and leaves no reference cycles: it needs a C
# compiler and the Python headers, so it is not part of `make test`; CI (.ci/run) runs both. It fails,
# never skips, when the build fails.
test-compiled: $(STAMP)
	$(BIN)/pytest tests_compiled

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
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/analysis.py --jobs 2
	$(BIN)/python benchmarks/rl.py
	$(BIN)/python benchmarks/server.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
