# shellcheck shell=bash
# TAP helpers of the shell suites (sourced, not a suite of its own):
# result OK|FAIL NAME [DETAIL] and skip NAME REASON number the tests;
# $fails counts the failures for the suite's "@@PROG NAME end rc=".
n=0
fails=0
result() { # result OK|FAIL name detail
	n=$((n + 1))
	if [ "$1" = OK ]; then
		echo "ok $n $2"
	else
		echo "not ok $n $2 # $3"
		fails=$((fails + 1))
	fi
}
skip() { # skip name reason
	n=$((n + 1))
	echo "ok $n $1 # SKIP $2"
}
