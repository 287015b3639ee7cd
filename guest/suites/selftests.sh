#!/bin/sh
# Our selftests: linux/tools/testing/selftests/perf_events/.
exec /harness/suites/run-kselftests.sh /harness/bin/selftests
