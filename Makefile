# push-emulator — the README's commands. Each installs what it needs when it is missing.
SWIFT ?= swift
PORT ?= 9499
BIN_DEBUG := .build/debug/push-emulator
BIN_RELEASE := .build/release/push-emulator

.PHONY: run build release test unit-test e2e-test bench perf-count fuzz deps clean

## run: build (release) and start the emulator on 127.0.0.1:$(PORT)
run: release
	$(BIN_RELEASE) serve --port $(PORT) $(ARGS)

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## test: every test — Swift unit tests, then end-to-end tests with real clients against the binary
test: unit-test e2e-test

unit-test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

e2e-test: build
	@scripts/install-deps.sh --python
	PUSH_EMULATOR_BIN=$(BIN_DEBUG) .venv/bin/python -m pytest -q tests/e2e

## bench: h2load/wrk against the emulator and nghttpd in one run, printed as ratios
bench: release
	@scripts/install-deps.sh --bench
	scripts/bench.sh $(BIN_RELEASE)

## perf-count: callgrind's instructions per request (FCM send, /healthz, nghttpd's static file) in one run
perf-count: release
	scripts/perf-count.sh $(BIN_RELEASE)

## fuzz: run every fuzz target for FUZZ_SECONDS each (default 30)
fuzz:
	@for script in scripts/fuzz-*.sh; do echo "== $$script"; $$script $${FUZZ_SECONDS:-30} || exit 1; done

clean:
	rm -rf .build .venv
