# feedbase — every target works on a machine that has only Node.js and npm:
# a pinned Bun comes from the npm registry (the `bun` package ships the binary) into .tools/.
BUN_VERSION := 1.3.14
# The admin commands' own default (--data ./feedbase.db), so `dist/feedbase key list` run here reads
# the file `make run` serves.
DATA ?= feedbase.db
PORT ?= 8080

SYSTEM_BUN := $(shell command -v bun 2>/dev/null)
ifeq ($(SYSTEM_BUN),)
BUN := $(CURDIR)/.tools/node_modules/bun/bin/bun.exe
else
BUN := $(SYSTEM_BUN)
endif

DEPS := node_modules/.installed
EXE := dist/feedbase
SOURCES := $(shell find src cli -type f 2>/dev/null) package.json

.PHONY: run test check build bench soak clean

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

# Tests start real servers and subprocesses: on a loaded 2-core machine they need more than bun's 5 s default.
test: $(DEPS) $(EXE)
	$(BUN) test --timeout 30000

check: $(DEPS)
	$(BUN) x tsc --noEmit -p tsconfig.json

build: $(EXE)

$(EXE): $(DEPS) $(SOURCES)
	@mkdir -p dist
	$(BUN) build cli/main.ts --compile --no-compile-autoload-dotenv --no-compile-autoload-bunfig --outfile $(EXE)

bench: $(DEPS) $(EXE)
	$(BUN) bench/run.ts

soak: $(DEPS) $(EXE)
	$(BUN) test/soak/crash-cycles.ts

$(DEPS): package.json bun.lock $(BUN)
	$(BUN) install --frozen-lockfile
	@touch $@

$(CURDIR)/.tools/node_modules/bun/bin/bun.exe:
	npm install --prefix .tools --no-save --no-audit --no-fund --loglevel=error bun@$(BUN_VERSION)
	@test -x $@ || { echo "Bun $(BUN_VERSION) did not install from the npm registry" >&2; exit 1; }

clean:
	rm -rf dist node_modules .tools
