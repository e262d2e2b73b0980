# journal: the two commands that matter are `make demo` and `make test`.
SHELL := /bin/bash
APT_PACKAGES := libsqlite3-dev libssl-dev liblz4-dev libpq-dev libmicrohttpd-dev pkg-config golang-go \
                golang-golang-x-mod-dev
SWIFT ?= swift
SWIFTC ?= swiftc
FUZZ_SECONDS ?= 60

.PHONY: all deps test-deps build release demo test examples lint soak fuzz bench bench-quick bench-pg clean

all: build

# Installs the Debian packages in $(1) that are not installed yet; nothing when all are.
apt_install_missing = missing=$$(for p in $(1); do \
	  dpkg-query -W -f='$${db:Status-Status}' $$p 2>/dev/null | grep -qx installed || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:" $$missing; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $$missing; \
	fi

# The Debian packages the system-library targets need.
deps:
	@$(call apt_install_missing,$(APT_PACKAGES))

# What the tests need beyond the build: PostgreSQL 15's server programs (the PostgreSQL tests
# start a private server in a temporary folder; no default cluster is created or started), and
# headless Chromium, its driver and Python's selenium for the browser tests (tests/browser), and
# Python's cryptography, the independent Ed25519 of the cosignature/v1 tests.
# Selenium comes from Debian (python3-selenium) for Debian's own python3; a python3 of another
# origin (pyenv, a virtual environment) that lacks it gets it from PyPI through its pip.
TEST_APT_PACKAGES := postgresql-15 chromium chromium-driver
test-deps: deps
	@if ! dpkg-query -W -f='$${db:Status-Status}' postgresql-15 2>/dev/null | grep -qx installed \
	    && [ ! -f /etc/postgresql-common/createcluster.conf ]; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO mkdir -p /etc/postgresql-common && \
	  echo "create_main_cluster = false" | $$SUDO tee /etc/postgresql-common/createcluster.conf >/dev/null; \
	fi
	@$(call apt_install_missing,$(TEST_APT_PACKAGES) $$(for m in selenium cryptography; do \
	  python3 -c "import $$m" 2>/dev/null || [ "$$(command -v python3)" != /usr/bin/python3 ] || echo python3-$$m; \
	  done))
	@for m in selenium cryptography; do python3 -c "import $$m" 2>/dev/null || { \
	  echo "installing $$m for $$(command -v python3) with pip"; \
	  python3 -m pip install --quiet $$m || python3 -m pip install --quiet --break-system-packages $$m; }; done

build: deps
	$(SWIFT) build

# The Swift runtime is linked statically: fewer shared libraries for the dynamic loader to resolve
# before `main`, which is most of a one-shot command such as `journal prove` (BENCHMARKS.md).
RELEASE_FLAGS := -c release --static-swift-stdlib

# libstdc++, the static Swift runtime's C++ library, goes into the executable too: a linker script
# named libstdc++.so in the products folder, which the linker searches before the compiler's,
# stands for the archive (docs/decisions/static-libstdcxx.md). Without the archive, there is no
# script and libstdc++ stays a shared library. The build does not see the script as an input, so
# the executable is removed when the script changes, to be linked again.
STATIC_CXX := $(shell cc -print-file-name=libstdc++.a 2>/dev/null)

release: deps
	@bin=$$($(SWIFT) build $(RELEASE_FLAGS) --show-bin-path) && mkdir -p "$$bin" && \
	script=$$( [ -f "$(STATIC_CXX)" ] && printf 'INPUT(%s)' "$(STATIC_CXX)" ); \
	if [ "$$script" != "$$(cat "$$bin/libstdc++.so" 2>/dev/null)" ]; then \
	  rm -f "$$bin/journal" "$$bin/libstdc++.so"; \
	  if [ -n "$$script" ]; then echo "$$script" > "$$bin/libstdc++.so"; fi; \
	fi
	$(SWIFT) build $(RELEASE_FLAGS) --product journal

# The main job: a realistic workload into a fresh journal, verified, audited, replayed, analysed.
demo: release
	@db=$$(mktemp -d)/demo.db; .build/release/journal demo --db "$$db"

# Every test (Swift Testing), on a fresh machine included: the PostgreSQL and browser suites too.
test: test-deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# The example packages (Examples/, docs/embedding.md): each depends on this one by path, builds
# in its own .build and runs; a failure of the example is a failure of the target.
examples: deps
	$(SWIFT) build --package-path Examples/ThreeDSService
	Examples/ThreeDSService/.build/debug/ThreeDSService

# The house format (.swift-format, docs/decisions/formatting.md): `swift format lint` in strict mode
# (a warning fails), then the 120-column limit on the lines swift format cannot break (string
# literals, comments). `swift format format --in-place FILES` fixes most of what this reports.
# Then every relative link and #anchor of the docs (scripts/check-doc-links.py), and that the
# Evidence library links neither SQLite, libpq nor LZ4 (scripts/check-evidence-deps.py); and that
# unsafety stays contained: at most ten `@unchecked Sendable`, each with its reason, and the C
# library imported only in JournalCore's system layers (scripts/check-unsafety.py).
LINT_PATHS := Sources Tests bench tools Examples/ThreeDSService/Sources Examples/ThreeDSService/Package.swift \
              Package.swift
lint:
	$(SWIFT) format lint --strict --recursive --parallel $(LINT_PATHS)
	python3 scripts/check-line-length.py $(LINT_PATHS)
	python3 scripts/check-doc-links.py
	python3 scripts/check-evidence-deps.py
	python3 scripts/check-unsafety.py

# Release-mode benchmarks (issue 7): the journal, a raw SQLite baseline and the Python
# eventsourcing peer on the same simulator events, and `journal serve` under the C load
# generator (bench/serve/loadgen.c, built with cc). Not part of `make test`. BENCHMARKS.md.
BENCH_JSON ?= bench/out/bench.json
bench: release
	$(SWIFT) build -c release --product bench
	@mkdir -p $(dir $(BENCH_JSON))
	.build/release/bench --json $(BENCH_JSON) $(BENCH_ARGS)

bench-quick: release
	$(SWIFT) build -c release --product bench
	@mkdir -p $(dir $(BENCH_JSON))
	.build/release/bench --quick --json $(BENCH_JSON:.json=-quick.json) $(BENCH_ARGS)

# The PostgreSQL store beside the SQLite store and raw libpq pipeline mode, on a private
# PostgreSQL 15 it starts itself (BENCHMARKS.md, "PostgreSQL"; docs/postgres.md#benchmark).
bench-pg: deps
	$(SWIFT) build -c release --product journal-pg-writer
	.build/release/journal-pg-writer bench 50000

# The long form of the reliability tests (Tests/ReliabilityTests, RELIABILITY.md): 60 SIGKILLs of
# imports and 60 of library appenders, 10,250 hostile import cases through the CLI and 20,000 in
# process, bigger concurrent writers. Each test's figures go to .build/soak-stats.txt.
# JOURNAL_SOAK_SEED=N changes every seeded choice.
soak: test-deps
	$(SWIFT) build --build-tests
	@rm -f .build/soak-stats.txt
	JOURNAL_SOAK=1 JOURNAL_SOAK_STATS=$(CURDIR)/.build/soak-stats.txt $(SWIFT) test --skip-build --filter ReliabilityTests
	@cat .build/soak-stats.txt

# libFuzzer (coverage-guided, with AddressSanitizer) on the envelope decoder and the JSON parser
# (tools/fuzz/EnvelopeFuzzer.swift) for FUZZ_SECONDS; a crash leaves its input in crash-*.
fuzz:
	@mkdir -p .build/fuzz-corpus && cp -n tools/fuzz/corpus/* .build/fuzz-corpus/
	set -o pipefail; $(SWIFTC) -sanitize=fuzzer,address -parse-as-library -O Sources/JournalCore/*.swift \
	    tools/fuzz/EnvelopeFuzzer.swift -o .build/fuzz-envelope 2>&1 | { grep -v "Cannot export local symbol" || true; }
	.build/fuzz-envelope -max_total_time=$(FUZZ_SECONDS) -max_len=4096 .build/fuzz-corpus

clean:
	rm -rf .build
