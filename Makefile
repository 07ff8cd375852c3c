# feedbase — every target works on a machine that has only Node.js and npm:
# a pinned Bun comes from the npm registry (the `bun` package ships the binary) into .tools/.
BUN_VERSION := 1.4.5
# The admin commands' own default (--data ./feedbase.db), so `dist/feedbase key list` run here reads
# the file `make run` serves.
DATA ?= feedbase.db
PORT ?= 8080

# A Bun already on the PATH is used only when it is the pinned version (Bun.sql's listen() is 1.4's).
SYSTEM_BUN := $(shell b=$$(command -v bun 2>/dev/null) && [ "$$($$b --version 2>/dev/null)" = "$(BUN_VERSION)" ] && echo $$b)
ifeq ($(SYSTEM_BUN),)
BUN := $(CURDIR)/.tools/bun-$(BUN_VERSION)/node_modules/bun/bin/bun.exe
else
BUN := $(SYSTEM_BUN)
endif

DEPS := node_modules/.installed
EXE := dist/feedbase
SOURCES := $(shell find src cli console -type f 2>/dev/null) package.json
# Bytecode: the embedded program is stored precompiled (ESM is what --bytecode takes with top-level await), so a start skips parsing it.
# The solver pool's worker is a second entry point: inside the executable it is ./src/optimize/pool-worker.ts (src/optimize/pool.ts).
COMPILE := $(BUN) build cli/main.ts src/optimize/pool-worker.ts --compile --bytecode --format=esm --no-compile-autoload-dotenv --no-compile-autoload-bunfig
VERSION := $(shell sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' package.json | head -1)
# The packaged executable: the same program compiled onto a Bun runtime without its symbol table
# (stripping the compiled file afterwards would cut off the program embedded in it).
RELEASE_EXE := dist/release/feedbase
STRIPPED_BUN := .tools/bun-$(BUN_VERSION)-stripped
DEB := dist/feedbase_$(VERSION)_amd64.deb
DEB_INPUTS := $(wildcard deploy/debian/* deploy/*.service deploy/*.timer deploy/prometheus/*.yml) deploy/feedbase.env deploy/litestream.yml README.md $(wildcard docs/*.md docs/verify/*)

# Debian tools for the package and the tests, installed when missing as bench/run.ts installs wrk
# (runners are root): `$(call need,COMMAND,PACKAGE)`; an empty package list is refreshed once on failure.
define need
@command -v $(1) >/dev/null || { echo "$(1) missing: installing $(2) with apt-get"; \
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(2) >/dev/null || \
  { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $(2) >/dev/null; }; }
endef

.PHONY: run test test-postgres test-console screenshots console-tools bench-console check build deb bench bench-compare bench-optimize bench-metrics soak soak-postgres clean test-tools deb-tools

run: $(EXE)
	@mkdir -p $(dir $(DATA))
	@if [ ! -f $(DATA) ]; then $(EXE) demo --data $(DATA) --port $(PORT); \
	else echo "Using $(DATA). Keys are stored only as hashes: make a new one with the first command below."; fi
	@echo "Admin commands for this server (run them here, in another terminal; the README's feedbase is $(EXE) until installed):"
	@echo "  $(EXE) key create --write --data $(DATA)"
	@echo "  $(EXE) key list --data $(DATA)"
	@echo "  $(EXE) webhook add http://127.0.0.1:9090/ --data $(DATA)"
	@echo "  $(EXE) webhook deliveries --data $(DATA)"
	@exec $(EXE) serve --data $(DATA) --port $(PORT)

# Every test file, TEST_JOBS at a time, each in its own bun test process (test/run-files.ts). Measured
# on 2 cores, the suites are CPU-bound (4 at a time took as long as 1, with more timeouts), so one a core.
TEST_JOBS ?= 2
test: $(DEPS) $(EXE) test-tools
	$(BUN) test/run-files.ts --jobs $(TEST_JOBS)

# The backend-neutral test files (test/postgres/suite.ts) on PostgreSQL, TEST_JOBS at a time, each with
# databases of its own on one throwaway cluster from Debian's postgresql package in a temporary
# directory, removed afterwards (test/postgres/cluster.sh).
test-postgres: $(DEPS) $(EXE) test-tools
	$(call need,/usr/lib/postgresql/*/bin/initdb,postgresql)
	test/postgres/cluster.sh $(BUN) test/run-files.ts --postgres --jobs $(TEST_JOBS)

# The web console in Debian's chromium, driven by playwright-core (never a downloaded browser): each
# file in its own bun test process (one browser per process), all of them run even when one fails.
test-console: $(DEPS) $(EXE) console-tools
	@status=0; for f in test/console/*.browser.ts; do $(BUN) test --timeout 60000 ./$$f || status=1; done; exit $$status

# Every console page at 1280 and 390 px wide into docs/console/, from the demo served by dist/feedbase.
screenshots: $(DEPS) $(EXE) console-tools
	$(BUN) test/console/screenshots.ts

# chromium for the console's tests; a named font so screenshots do not change with the machine's fonts.
console-tools:
	$(call need,chromium,chromium)
	@test -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf || { echo "DejaVu fonts missing: installing fonts-dejavu-core with apt-get"; \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends fonts-dejavu-core >/dev/null || \
	  { apt-get update >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends fonts-dejavu-core >/dev/null; }; }

# lintian checks the package, promtool the metrics and alert rules, haproxy the sample front (test/proxy.test.ts), systemd-analyze the units.
test-tools: deb-tools
	$(call need,lintian,lintian)
	$(call need,promtool,prometheus)
	$(call need,haproxy,haproxy)
	$(call need,systemd-analyze,systemd)

check: $(DEPS)
	$(BUN) x tsc --noEmit -p tsconfig.json
	$(BUN) x tsc --noEmit -p console/tsconfig.json

build: $(EXE)

$(EXE): $(DEPS) $(SOURCES)
	@mkdir -p dist
	$(COMPILE) --outfile $(EXE)

# dist/feedbase_<version>_amd64.deb, dist/feedbase_<version>_linux-amd64.tar.gz and dist/SHA256SUMS.
deb: $(DEB)

$(DEB): $(RELEASE_EXE) $(DEB_INPUTS) | deb-tools
	deploy/debian/build-deb.sh $(RELEASE_EXE)

$(RELEASE_EXE): $(DEPS) $(SOURCES) $(STRIPPED_BUN)
	@mkdir -p $(dir $@)
	$(COMPILE) --compile-executable-path=$(STRIPPED_BUN) --outfile $@

$(STRIPPED_BUN): $(BUN) | deb-tools
	@mkdir -p $(dir $@)
	objcopy --strip-all "$$(readlink -f $(BUN))" $@

deb-tools:
	$(call need,dpkg-deb,dpkg)
	$(call need,objcopy,binutils)

# Every scenario also on PostgreSQL, beside a throwaway cluster like make test-postgres's.
bench: $(DEPS) $(EXE)
	$(call need,/usr/lib/postgresql/*/bin/initdb,postgresql)
	$(call need,haproxy,haproxy)
	test/postgres/cluster.sh $(BUN) bench/run.ts
	test/postgres/cluster.sh $(BUN) bench/instances.ts $(EXE)
	$(BUN) bench/optimize.ts $(EXE)
	$(BUN) bench/solver-pool.ts $(EXE)
	$(BUN) bench/frontier.ts
	$(BUN) bench/plans.ts
	$(BUN) bench/confidence.ts
	test/postgres/cluster.sh $(BUN) bench/compare-builds.ts
	$(BUN) bench/issue29.ts
	$(BUN) bench/memory.ts $(EXE)
	$(MAKE) bench-console

# Only the cost of serve --metrics on the small read (about a minute); prints its table, RESULTS.md unchanged.
# The least-cost figures alone (about a minute): solve times, the worklist, the cached answer over HTTP.
# The read and write paths against main before the storage step, on SQLite and PostgreSQL, in the same run (about 7 minutes).
bench-compare: $(DEPS) $(EXE)
	$(call need,/usr/lib/postgresql/*/bin/initdb,postgresql)
	test/postgres/cluster.sh $(BUN) bench/compare-builds.ts

bench-optimize: $(DEPS) $(EXE)
	$(BUN) bench/optimize.ts $(EXE)
	$(BUN) bench/solver-pool.ts $(EXE)
	$(BUN) bench/frontier.ts
	$(BUN) bench/plans.ts
	$(BUN) bench/confidence.ts

# The console's Prices page in chromium: time to interactive and bytes on the wire against its budget.
bench-console: $(DEPS) $(EXE) console-tools
	$(BUN) bench/console.ts

bench-metrics: $(DEPS) $(EXE)
	FEEDBASE_BENCH_METRICS_ONLY=1 $(BUN) bench/run.ts

soak: $(DEPS) $(EXE)
	$(BUN) test/soak/crash-cycles.ts

# The same crash cycles on PostgreSQL: two instances behind haproxy, one killed per cycle.
soak-postgres: $(DEPS) $(EXE)
	$(call need,/usr/lib/postgresql/*/bin/initdb,postgresql)
	$(call need,haproxy,haproxy)
	test/postgres/cluster.sh $(BUN) test/soak/crash-cycles.ts

$(DEPS): package.json bun.lock $(BUN)
	$(BUN) install --frozen-lockfile
	@touch $@

$(CURDIR)/.tools/bun-$(BUN_VERSION)/node_modules/bun/bin/bun.exe:
	npm install --prefix .tools/bun-$(BUN_VERSION) --no-save --no-audit --no-fund --loglevel=error bun@$(BUN_VERSION)
	@test -x $@ || { echo "Bun $(BUN_VERSION) did not install from the npm registry" >&2; exit 1; }

clean:
	rm -rf dist node_modules .tools
