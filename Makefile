# Quickstart targets. Each one makes its own virtual environment in .venv (Python 3.11+).
# `make demo` installs what the library needs to run and the web extra; `make test` adds the dev tools and
# the optional extras (OpenSpiel, pydot, matplotlib, Dask) that the test suite exercises.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip install --quiet --disable-pip-version-check
RUNTIME := $(VENV)/.runtime
STAMP := $(VENV)/.installed
# The default suite runs on every core (pytest-xdist); an idle worker takes tests from a busy
# one (work stealing), which keeps the long test files from ending the run on one core;
# `make test JOBS=0` runs it all in one process.
JOBS ?= auto
XDIST = -n $(JOBS) $(if $(filter 0,$(JOBS)),,--dist worksteal)

.PHONY: demo test test-slow lint bench clean

KERNEL := setup.py omen_solver/omens/kernel/_ckernel.c omen_solver/omens/kernel/_ckernel_machine.h \
	omen_solver/omens/kernel/_ckernel_mcts.h omen_solver/omens/kernel/source_digest.py

$(RUNTIME): pyproject.toml $(KERNEL)
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "omen-solver needs Python 3.11 or newer; set PYTHON=python3.11")'
	$(PYTHON) -m venv $(VENV)
	$(PIP) -e '.[web]'
	@touch $(RUNTIME)

$(STAMP): $(RUNTIME)
	$(PIP) -e '.[dev,web]'
	@touch $(STAMP)

## demo: a story in six steps, two screens: a bout explained, a refused move, a puzzle solved,
##   the puzzles checked, two theorems proved, the vectors checked
## (runtime install only)
demo: $(RUNTIME)
	@echo "== 1. The rulebook's worked example, rule by rule (omen-solver omens play)"
	@$(BIN)/omen-solver omens play docs/examples/omens/worked-example.toml --moves 5:11 6:19
	@echo "== 2. A move the rules forbid, refused with the rule (omens play --moves)"
	@$(BIN)/omen-solver omens play docs/examples/omens/law-and-wrath.toml --moves 2:26 3:25 \
		|| echo "(exit status $$?: bad input)"
	@echo "== 3. A puzzle solved exactly, every hand open (omen-solver solve FILE)"
	@$(BIN)/omen-solver solve puzzles/omens/harmony.toml
	@echo "== 4. Every shipped puzzle solved again and checked (omen-solver puzzles check)"
	@$(BIN)/omen-solver puzzles check -q
	@echo "== 5. Two rule theorems proved with z3 (omen-solver prove: all of them)"
	@$(BIN)/omen-solver prove life-and-death absolute-exchange --counterexamples "$$(mktemp -d)"
	@echo "== 6. This engine checked through the conformance vectors (vectors check)"
	@$(BIN)/omen-solver vectors check --engine "$(BIN)/omen-solver vectors engine"

## test: linter, type checker and the default (bounded) test suite
test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q $(XDIST)

## test-slow: the default suite plus the slow exhaustive tiers
test-slow: $(STAMP)
	$(BIN)/python -m pytest -q $(XDIST) --runslow

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/omens_search.py --deals 5 --seconds 5 --ratio-seconds 20
	$(BIN)/python benchmarks/omen_endgames.py
	$(BIN)/python benchmarks/cli_startup.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache .hypothesis
