# The two commands of the README: `make run` and `make test`. Both create .venv on first use
# (re-done when pyproject.toml or constraints.txt change): `make run` with the app's packages,
# `make test` (and test-fast, bench, night) with the tests' and benchmarks' too.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
UV     := $(BIN)/uv
# The app's packages only (make run, make dev); STAMP: with the test and bench extras.
APP_STAMP := $(VENV)/.installed-app
STAMP  := $(VENV)/.installed
# Python writes its bytecode (__pycache__, ignored by git) for every process the targets start.
# This machine's environment sets PYTHONDONTWRITEBYTECODE, so each of the hundreds of processes a
# test run starts (its workers, gunicorn's, the CLI's, the benchmarks') compiled every module it
# imported again: collecting the suite took 10.8 s of CPU in each worker instead of 3.2 s.
unexport PYTHONDONTWRITEBYTECODE
FLASK  := $(BIN)/flask --app floor
HOST   ?= 127.0.0.1
PORT   ?= 5000
# The production server's worker processes, one per core (each with its own state cache: see
# floor/tables.py). A tap is CPU work on a local database, and every further worker costs each tap a
# catch-up of the entries the others logged: on a 2-core machine, 50 tablets at capacity gave p99
# 82 ms (SQLite) and 87 ms (PostgreSQL) with 2 workers, 128 and 140 ms with 4 (issue 23).
WORKERS ?= $(shell nproc 2>/dev/null || echo 2)
# make run DEMO=0 serves without loading the demo event (a real card room's database).
DEMO   ?= 1
# What a fresh Debian machine of this kind lacks (pango, cairo, fontconfig, DejaVu are there):
# libharfbuzz-subset0 for WeasyPrint, chromium for the browser tests, poppler-utils for pdftoppm,
# fonts-wqy-zenhei for Chinese names in the PDFs, postgresql for the throwaway server the tests also
# run against (tests/pg.py).
APT_PKGS ?= libharfbuzz-subset0 chromium poppler-utils fonts-wqy-zenhei postgresql

.PHONY: run dev test test-deep test-pg test-fast bench bench-smoke bench-banked bench-server night search sysdeps clean

# The production server (gunicorn, $(WORKERS) worker processes) on instance/floor.sqlite or
# FLOOR_DATABASE_URL; behind a reverse proxy with HTTPS see docs/production.md.
run: $(APP_STAMP)
	$(FLASK) init-db
	@if [ "$(DEMO)" = 1 ]; then $(FLASK) demo; fi
	$(BIN)/gunicorn --workers $(WORKERS) --bind $(HOST):$(PORT) --access-logfile - --timeout 60 'floor:create_app()'

# Flask's development server (reloads on edits, debugger): never for a card room.
dev: $(APP_STAMP)
	$(FLASK) init-db
	@if [ "$(DEMO)" = 1 ]; then $(FLASK) demo; fi
	$(FLASK) run --debug --host $(HOST) --port $(PORT)

# The database-facing tests run a second time against PostgreSQL: tests/pg.py starts a throwaway
# server of Debian's postgresql package (unix socket in a temporary directory) and drops it after.
PG_TESTS ?= tests/test_no_tracebacks.py tests/test_api_tables.py tests/test_api_hands.py \
	tests/test_multiprocess_cache.py tests/test_security.py tests/test_history_seals.py \
	tests/test_health_backup.py tests/test_postgres.py tests/test_moves.py tests/test_pot_snapshots.py \
	tests/test_floor_calls.py tests/test_access.py tests/test_production_server.py \
	tests/test_banked_disputes_app.py tests/test_banked_seals.py tests/test_tamper.py tests/test_floor_undo.py \
	tests/test_login_workers.py tests/test_ruling_prints_stored.py tests/test_carried_pot.py \
	tests/test_shift_report.py tests/test_tap_ids.py tests/test_banked_app.py tests/test_tamper_record.py \
	tests/test_hosts.py tests/test_upgrade_record.py tests/test_inputs.py tests/test_players.py \
	tests/test_players_migration.py tests/test_waiting_lists.py tests/test_cashfloor.py tests/test_rotation.py \
	tests/test_board.py tests/test_promotions.py tests/test_cashfloor_forms.py tests/test_shift_report_stored.py \
	tests/test_tournament_desk_sync.py tests/test_tap_reads.py tests/test_tap_write.py tests/test_tap_witness.py \
	tests/test_shift_report_jobs.py

# The tests run in TEST_JOBS processes (pytest-xdist; the machine's cores by default), each test
# sent to whichever worker is free; TEST_JOBS=0 runs them in this process. Each worker of the
# PostgreSQL pass starts its own throwaway server (tests/pg.py). (A module-scoped fixture, such as
# the browser, is built once per worker that runs tests of its module: a few seconds, less than
# grouping modules on workers costs in balance.)
TEST_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
# worksteal: a worker that runs out of tests takes half of another's queue, so a long test near the
# end does not leave a core idle. (make test-fast, single runs on this 2-core machine: 89.5 s with the
# default scheduling, 87.2 s with worksteal; the same code measured 87 to 103 s over an hour, so
# the gain is within the machine's noise, and the reason is the one above.)
XDIST := -n $(TEST_JOBS) --dist worksteal
# The PostgreSQL pass's workers, beside the SQLite pass's. One worker (filling the cores the SQLite
# pass leaves idle, for longer) measured no faster than one per core: 384 s against 379 s
# (docs/testing.md, "Issue 34, session 42: measured at merge").
PG_JOBS ?= $(TEST_JOBS)
PG_XDIST := -n $(PG_JOBS) --dist worksteal

# The 5,000 random walks (marked deep) are left to `make test-deep`: make test walks 57 seeds measured
# to reach every arc of rules/ and every situation the 5,000 reach, and 400 fresh seeds each run
# (docs/testing.md, "Issue 34, session 39: a corpus of walks, measured").
#
# The two passes run at once (issue 34, session 40): the SQLite pass alone left a sixth of the two
# cores idle (its workers' start, the tail where one worker has finished, gunicorn and chromium
# starting), and the PostgreSQL pass, run after it, waited for all of it. The PostgreSQL pass's
# output is kept and printed when both have ended, so the last line is pytest's own summary (the
# SQLite pass's again after it when that pass failed); make fails if either pass failed (docs/testing.md, "Issue 34, session 40: the two passes at once").
test: sysdeps $(STAMP)
	@pg_log=$$(mktemp); \
	FLOOR_TEST_PG=1 $(BIN)/python -m pytest $(PG_XDIST) -p no:cacheprovider $(PG_TESTS) $(PYTEST_ARGS) >$$pg_log 2>&1 & \
	pg=$$!; \
	{ $(BIN)/python -m pytest $(XDIST) -m "not deep" $(PYTEST_ARGS); echo $$? >$$pg_log.rc; } | tee $$pg_log.sqlite; \
	sqlite=$$(cat $$pg_log.rc); wait $$pg; postgres=$$?; \
	echo; echo "==== the PostgreSQL pass (FLOOR_TEST_PG=1, run beside the SQLite pass above) ===="; cat $$pg_log; \
	if [ "$$sqlite" != 0 ]; then echo; echo "The SQLite pass above failed:"; tail -n 1 $$pg_log.sqlite; fi; \
	rm -f $$pg_log $$pg_log.sqlite $$pg_log.rc; test "$$sqlite" = 0 && test $$postgres = 0

# The deep runs alone: every one of the 5,000 random walks (about three minutes of CPU): after a change
# to rules/, with `python -m tests.walk_corpus` to choose the corpus again (tests/walk_corpus.py).
test-deep: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) -m deep $(PYTEST_ARGS)

# Only the PostgreSQL pass of `make test`.
test-pg: sysdeps $(STAMP)
	FLOOR_TEST_PG=1 $(BIN)/python -m pytest $(XDIST) -p no:cacheprovider $(PG_TESTS) $(PYTEST_ARGS)

# The suite without the exhaustive enumerations (slow) and the browser tests (e2e): for the loop
# of editing; `make test` (all of it) before a commit.
test-fast: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) -m "not slow and not e2e" $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python bench/bench_tap.py
	$(BIN)/python bench/bench_hands.py
	$(BIN)/python bench/bench_replay.py
	$(BIN)/python bench/bench_append.py
	$(BIN)/python bench/bench_growth.py
	$(BIN)/python bench/bench_history.py
	$(BIN)/python bench/bench_hand_history.py
	$(BIN)/python bench/bench_tournament.py
	$(BIN)/python bench/bench_witness.py
	$(BIN)/python bench/bench_shift.py

# Every bench script above and below on tiny counts (--smoke), a few seconds each: does each run to its
# end? `make test` runs the same file (tests/test_bench_smoke.py), so a crashing benchmark fails CI.
bench-smoke: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) -p no:cacheprovider tests/test_bench_smoke.py $(PYTEST_ARGS)

# The banked game's house numbers: one hand's 33 values, the house edge to ±0.1% on both cores
# (about ten minutes; BANKED_ARGS=--quick for a one-minute run).
bench-banked: $(STAMP)
	$(BIN)/python bench/bench_banked.py $(BANKED_ARGS)

# Through gunicorn on SQLite and PostgreSQL: 50 tables at capacity, then 200 tables at a card room's pace
# (a tap every ~2 s each; issue 23); then 20 tablets tapping while a closed shift's report is put
# together (issue 34, session 44: the report's job must not cost the tablets).
bench-server: $(STAMP)
	$(BIN)/python bench/bench_server.py
	$(BIN)/python bench/bench_server.py --think 2 --tables 200
	$(BIN)/python bench/bench_report_taps.py

# The night (issue 24): a simulated card-room night through gunicorn on a throwaway database, checked
# by a referee apart from rules/ (NIGHT_ARGS=--quick for a short one; --db postgresql; --export FILE).
night: $(STAMP)
	$(BIN)/python -m night $(NIGHT_ARGS)

# Every combination of the seeds' mistakes up to SEARCH_EVENTS events, on 3 to 5 seats in the three main
# profiles, checked chip by chip against a money model written apart from rules/ (issue 29; tests/money/).
# Prints the sequences, the distinct end states and the disagreements; a short one runs in `make test`.
SEARCH_EVENTS ?= 12
search: $(STAMP)
	$(BIN)/python -m tests.money.search --events $(SEARCH_EVENTS) $(SEARCH_ARGS)

# Installs with uv (from PyPI, its version pinned in constraints.txt, put in the venv by pip), which
# fetches and unpacks in parallel: a fresh clone's venv, measured here with warm caches, took 30 s
# with pip (the venv with its own pip 4.7 s, upgrading pip 2.1 s, the packages 23.8 s) and takes
# about 15 s with uv for the app alone, most of it compiling the packages' bytecode, which every
# process would otherwise do at start (init-db took 4.7 s of CPU instead of 2 s without it). The
# venv has no pip of its own: `.venv/bin/uv pip install X` adds a package.
# $(call install,EXTRAS): the venv if missing, uv, then the project (editable) with EXTRAS.
DEV_EXTRAS := [test,bench]
define install
	test -x $(BIN)/python || $(PYTHON) -m venv --without-pip $(VENV)
	$(PYTHON) -m pip --python $(BIN)/python install -q -c constraints.txt uv
	$(UV) pip install -q --compile-bytecode --python $(BIN)/python -c constraints.txt -e '.$(1)'
endef

$(APP_STAMP): pyproject.toml constraints.txt
	$(call install,)
	touch $@

$(STAMP): pyproject.toml constraints.txt
	$(call install,$(DEV_EXTRAS))
	touch $@ $(APP_STAMP)

sysdeps:
	@missing=$$(for p in $(APT_PKGS); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then echo "apt-get install" $$missing; \
	  if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing >/dev/null; fi

clean:
	rm -rf $(VENV) .pytest_cache
