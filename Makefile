# The two commands a newcomer needs: `make run` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench fast clean

$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,server]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/liverpool play

test: $(STAMP)
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
