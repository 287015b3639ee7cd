#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# docs-check.sh - build the documentation of our perf core
# (linux/Documentation/perf/core/) with the kernel's own Sphinx set-up and
# fail on any warning or error.
#
# Prepares the "ours" tree (scripts/tree.py: pristine + linux/ + edits/) in
# build/src/docs, removes the previous documentation output there (Sphinx
# builds incrementally and would not repeat the warnings of unchanged
# files), runs `make htmldocs SPHINXDIRS=perf/core` under nice, and keeps
# the log in out/docs-check.log.  Needs python3-sphinx,
# python3-sphinx-rtd-theme and python3-yaml.  Does not build a kernel.
#
# Environment: DOCS_TREE (default build/src/docs), DOCS_LOG (default
# out/docs-check.log).  Exit status: 0 clean, 1 warnings or errors, or the
# failure of tree.py / make.
set -u

ROOT=$(cd "$(dirname "$0")/.." && pwd)
TREE=${DOCS_TREE:-$ROOT/build/src/docs}
LOG=${DOCS_LOG:-$ROOT/out/docs-check.log}

python3 "$ROOT/scripts/tree.py" prepare ours "$TREE" || exit $?

mkdir -p "$(dirname "$LOG")"
rm -rf "$TREE/Documentation/output"

nice make -C "$TREE" htmldocs SPHINXDIRS=perf/core >"$LOG" 2>&1
rc=$?

problems=$(grep -c -E 'WARNING|ERROR' "$LOG")
if [ "$problems" -ne 0 ]; then
	grep -E 'WARNING|ERROR' "$LOG"
fi
echo "docs-check: make htmldocs SPHINXDIRS=perf/core: exit $rc," \
     "$problems warning/error line(s); log: $LOG"

if [ "$rc" -ne 0 ]; then
	tail -n 20 "$LOG"
	exit "$rc"
fi
[ "$problems" -eq 0 ]
