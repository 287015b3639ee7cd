#!/bin/sh
# The base tree's own tools/testing/selftests/perf_events/, as an external suite.
# On arm64 under TCG, sigtrap_threads' four tests reach the kselftest
# harness's 30 s limit on mainline and ours alike, at every attempt (120 s
# each): it runs once there.
once=
[ "$(uname -m)" = aarch64 ] && once=sigtrap_threads
ONCE=$once exec /harness/suites/run-kselftests.sh /harness/bin/mainline-selftests
