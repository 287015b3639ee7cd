#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mkrepro.sh [-w N] [-n LINES] [-o OUT] [-k KHDR] LOG
#
# Turn worker N's lines of a perf_fuzz --log file (or of a console log that
# has them) into a C program, OUT.c, and compile it statically into OUT.
# Each of the worker's lines is one C statement; they run in order in
# main(), single-threaded, after fz_repro_init().  -n keeps only the first
# LINES statements (to shrink: halve it until the bug goes away, then
# delete lines from OUT.c by hand and run "make -f /dev/null OUT" or the
# printed compiler command again).
#
# CC picks the compiler (CC=aarch64-linux-gnu-gcc for arm64); KHDR (or -k)
# a directory of installed UAPI headers (make headers_install's usr/include);
# by default the tree's own usr/include or include/uapi.
set -eu

dir=$(cd "$(dirname "$0")" && pwd)
worker=0 lines=0 out=repro khdr=${KHDR:-}
while getopts "w:n:o:k:" o; do
	case $o in
	w) worker=$OPTARG ;;
	n) lines=$OPTARG ;;
	o) out=$OPTARG ;;
	k) khdr=$OPTARG ;;
	*) sed -n '3,18s/^# \{0,1\}//p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || { sed -n '3,18s/^# \{0,1\}//p' "$0" >&2; exit 2; }
log=$1

ksrc=$(cd "$dir/../../../../.." && pwd)
if [ -z "$khdr" ]; then
	if [ -d "$ksrc/usr/include/linux" ]; then
		khdr=$ksrc/usr/include
	else
		khdr=$ksrc/include/uapi
	fi
fi

{
	echo "/* Worker $worker of $(basename "$log"), made by mkrepro.sh. */"
	echo '#include "fuzz_ops.h"'
	echo
	echo 'FZ_REPRO_STATE;'
	echo
	echo 'int main(int argc, char **argv)'
	echo '{'
	echo '	fz_repro_init(argc, argv, fd, prog, cgfd, kid, mp);'
	# The worker's statements, wherever on a console line they start; a
	# last line cut short (the guest died while writing it) is dropped.
	tr -d '\r' < "$log" |
		sed -n "s|^.*\(/\*w$worker\*/ \)|\1|p" |
		grep -E ';$|\*/$' |
		awk -v n="$lines" 'n == 0 || /\/\* worker / || ++i <= n { print "\t" $0 }'
	echo '	return 0;'
	echo '}'
} > "$out.c"

cc=${CC:-gcc}
set -x
$cc -static -O1 -g -I "$dir" -I "$khdr" -o "$out" "$out.c" "$dir/fuzz_ops.c" -lpthread
