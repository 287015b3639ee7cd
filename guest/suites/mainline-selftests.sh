#!/bin/sh
# The base tree's own tools/testing/selftests/perf_events/, as an external suite.
exec /harness/suites/run-kselftests.sh /harness/bin/mainline-selftests
