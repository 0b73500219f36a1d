# push-emulator — the README's commands. Each installs what it needs when it is missing.
SWIFT ?= swift
PORT ?= 9499
BIN_RELEASE := .build/release/push-emulator
# Sanitizer builds: debug, each in its own scratch path, without tcmalloc (Package.swift reads
# PUSH_EMULATOR_SANITIZER: the sanitizers bring their own allocator).
BIN_ASAN := .build-asan/debug/push-emulator
BIN_TSAN := .build-tsan/debug/push-emulator
E2E := .venv/bin/python -m pytest -q Tests/EndToEnd

.PHONY: run build release test unit-test e2e-test sanitize sanitize-address sanitize-thread stress bench bench-compare bench-scaling scaling-bundle perf-count fuzz docker-test screenshots deps clean

## run: build (release) and start the emulator on 127.0.0.1:$(PORT)
run: release
	$(BIN_RELEASE) serve --port $(PORT) $(ARGS)

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

## test: every test — Swift unit tests (debug build), then end-to-end tests with real clients against the release binary
test: unit-test e2e-test

unit-test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

e2e-test: release
	@scripts/install-deps.sh --python
	PUSH_EMULATOR_BIN=$(BIN_RELEASE) $(E2E)

## sanitize: the end-to-end tests against an AddressSanitizer build, then a ThreadSanitizer build (8 loop threads)
sanitize: sanitize-address sanitize-thread

sanitize-address: deps
	@scripts/install-deps.sh --python
	PUSH_EMULATOR_SANITIZER=address $(SWIFT) build --sanitize=address --scratch-path .build-asan
	PUSH_EMULATOR_SANITIZER=address PUSH_EMULATOR_BIN=$(BIN_ASAN) $(E2E)

sanitize-thread: deps
	@scripts/install-deps.sh --python
	PUSH_EMULATOR_SANITIZER=thread $(SWIFT) build --sanitize=thread --scratch-path .build-tsan
	PUSH_EMULATOR_SANITIZER=thread PUSH_EMULATOR_TEST_THREADS=8 PUSH_EMULATOR_BIN=$(BIN_TSAN) $(E2E)

## stress: bounded stress scenarios against the release binary (1M queued messages then reads, 500
## zero-window streams, the reconnect race, 8 senders to 1,000 devices at --threads 8 with streams
## coming, going and uninstalled, the descriptor limit, padded and delayed sends, clients that never
## read an export, replayed token grants); fails on a lost or misreported delivery, a slow /healthz
## or memory over its documented bound (docs/performance.md)
stress: release
	@scripts/install-deps.sh --python
	.venv/bin/python Tests/Stress/stress.py $(BIN_RELEASE)

## bench: h2load/wrk against the emulator and nghttpd in one run, printed as ratios
bench: release
	@scripts/install-deps.sh --bench
	scripts/bench.sh $(BIN_RELEASE)

## bench-compare: the h2c FCM send of BASELINE (another build's binary) and this release build in one run, as ratios to nghttpd
bench-compare: release
	@scripts/install-deps.sh --bench
	scripts/bench-compare.sh $(BASELINE) $(BIN_RELEASE)

## bench-scaling: throughput at --threads 1, 2, 4, ... up to max(cores, 8) (SCALING_THREADS), for /healthz, FCM sends and APNs pushes to 64 devices of one project, and nghttpd's static file
bench-scaling: release
	@scripts/install-deps.sh --bench
	scripts/bench-scaling.sh $(BIN_RELEASE)

## scaling-bundle: .scaling/ with the release binary, h2load, nghttpd and their libraries, to run bench-scaling's workloads on a machine with none of our packages (bash .scaling/run.sh there)
scaling-bundle: release
	@scripts/install-deps.sh --bench
	scripts/scaling-bundle.sh $(BIN_RELEASE)

## perf-count: callgrind's instructions per request (FCM send, APNs push, /healthz; HTTP/2 and HTTP/1.1; nghttpd's static file) in one run
perf-count: release
	scripts/perf-count.sh $(BIN_RELEASE)

## fuzz: run every fuzz target of scripts/fuzz.sh for FUZZ_SECONDS each (default 30); its `openapi` target
## runs schemathesis against the release binary (FUZZ_EXAMPLES: examples per operation, default 1000)
fuzz: release
	@scripts/install-deps.sh --python
	@for target in $$(scripts/fuzz.sh --list); do echo "== $$target"; scripts/fuzz.sh $$target $${FUZZ_SECONDS:-30} || exit 1; done

## docker-test: docker/Dockerfile built with podman (no registry needed: scripts/docker-test.sh makes the
## base images), a container of it until healthy, a send to it from the host, then docker/compose.yaml under
## podman-compose with its sample backend; before that, the Testcontainers example (examples/testcontainers-python)
## through podman's Docker API; prints the image's size and its start-to-healthy time
docker-test:
	scripts/docker-test.sh

## screenshots: the web inbox in Debian's Chromium, wide, narrow and dark, written to docs/images/;
## prints how long a send takes to appear in an open page (docs/inbox.md)
screenshots: release
	@scripts/install-deps.sh --python
	.venv/bin/python scripts/inbox-screenshots.py $(BIN_RELEASE) docs/images

clean:
	rm -rf .build .build-asan .build-tsan .build-docker .venv
