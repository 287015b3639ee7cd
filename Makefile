# The harness: build, boot and test our perf_event patch against mainline.
# See README.md.  ARCH=x86_64 (default) or arm64.
ARCH ?= x86_64
KSRC ?=

.PHONY: all deps build build-mainline run run-mainline test test-mainline \
	bench bench-mainline abi compat compat-mainline patch patch-check docs \
	install fuzz fuzz-guided fuzz-proof fuzz-ledger perf-build \
	diffcheck coverage race clean distclean help

all: help

help:
	@sed -n '/^## Commands/,/^## /p' README.md | sed '$$d'

deps:
	@scripts/deps.sh

build: deps
	scripts/build-kernel.sh ours $(ARCH)

build-mainline: deps
	scripts/build-kernel.sh mainline $(ARCH)

run: build
	scripts/guest-image.sh $(ARCH)
	ICOUNT=$${ICOUNT:-1} scripts/guest-run.sh ours $(ARCH) "" shell -

run-mainline: build-mainline
	scripts/guest-image.sh $(ARCH)
	ICOUNT=$${ICOUNT:-1} scripts/guest-run.sh mainline $(ARCH) "" shell -

# The suites, then a short fuzz run (make fuzz) and the differential
# checker (make diffcheck) on the same kernels: fails if any of them does,
# and ends with a verdict that says which and why (scripts/make-test.sh).
# QUICK=1: the x86_64 plain guests with our selftests and perf test only.
test: deps
	python3 scripts/tree.py pristine build/pristine
	python3 scripts/abi-check.py
	QUICK=$(QUICK) scripts/make-test.sh

test-mainline: deps
	RESULTS=$(CURDIR)/out/test-mainline scripts/run-tests.sh mainline

bench: deps
	scripts/bench.sh mainline ours

bench-mainline: deps
	BENCH_OUT=$(CURDIR)/out/bench-mainline scripts/bench.sh mainline

abi:
	python3 scripts/abi-check.py

# perf_fuzz on mainline's kernel and ours, same seeds (make test runs the
# short default).  LONG=1, FUZZ_OPS, FUZZ_SEED, FUZZ_ARCHES...: see
# scripts/fuzz.sh.
fuzz: deps
	scripts/fuzz.sh

# Grow the fuzzer's corpus: perf_fuzz --guided on our kernel with KCOV over
# the perf core (GUIDED_ARCH, GUIDED_SECONDS...: see scripts/fuzz-guided.sh).
fuzz-guided: deps
	scripts/fuzz-guided.sh

# Put back each fault found from outside (scripts/fuzz/faults/) and run
# make fuzz LONG=1's passes on our kernel with it: found or not, after how
# many calls and minutes (FAULTS="name ...", PROOF_SEED, PROOF_SECONDS).
fuzz-proof: deps
	scripts/fuzz-proof.sh $(FAULTS)

# The fuzzer's ledger (notes/fuzz-ledger.md): our calls per arch, with
# mainline's runs beside them, toward ten million.
fuzz-ledger:
	python3 scripts/fuzz-ledger.py

# The perf of 6.12, from the base tree's tools/perf, for both arches
# (build/perf/ARCH/perf; scripts/perf-build.sh).
perf-build:
	scripts/perf-build.sh x86_64
	scripts/perf-build.sh arm64

# The same seeded calls on mainline's kernel and ours, results compared
# call by call (DIFF_ARCHES, DIFF_SEEDS, DIFF_OPS: see scripts/diff-check.sh).
diffcheck: deps
	scripts/diff-check.sh

# Line, function and branch coverage of kernel/events/ (and the PMUv3
# driver) under make test's suites and the fuzzer, ours beside mainline
# (COV_TREES, COV_ARCHES, COV_PLAN: see scripts/coverage.sh).
coverage: deps
	scripts/coverage.sh

# KCSAN over the core: our selftests (x86_64, arm64) and fuzz passes
# (arm64) on KCSAN kernels; fails on a data-race report in kernel/events/
# or a dead guest (RACE_TREES, RACE_ARCHES, RACE_PLAN: scripts/race.sh).
race: deps
	scripts/race.sh

# COMPAT_ARCHES: which of x86_64 arm64 (default both).
compat: deps
	scripts/compat.sh $(COMPAT_ARCHES)

compat-mainline: deps
	scripts/compat.sh --tree mainline $(COMPAT_ARCHES)

patch: deps
	scripts/make-patch.sh

# The series patch by patch: x86_64 tinyconfig build and checkpatch --strict
# after each (scripts/patch-check.sh).
patch-check: deps
	scripts/patch-check.sh

# The kernel documentation in linux/Documentation/ (scripts/docs-check.sh).
docs:
	python3 scripts/tree.py pristine build/pristine
	scripts/docs-check.sh

install:
	@test -n "$(KSRC)" || { echo "usage: make install KSRC=/path/to/linux-6.12"; exit 2; }
	scripts/install.sh "$(KSRC)"

clean:
	rm -rf out build/out build/guest

distclean:
	rm -rf out build
