#!/bin/sh
# The coverage guests' last suite (scripts/coverage.sh puts it into their
# initramfs): the kernel's gcov counters, as a gzipped tar in base64
# between "@@GCOV begin" and "@@GCOV end".  debugfs shows the .gcda files
# with size 0, so each is read whole with cat, not by tar.
d=/sys/kernel/debug/gcov
if [ ! -d "$d" ]; then
	echo "@@GCOV none"
	exit 0
fi
t=/tmp/gcov
rm -rf "$t"
mkdir -p "$t"
cd "$d" || exit 1
find . -type d -exec mkdir -p "$t/{}" \;
find . -name '*.gcda' | while read -r f; do cat "$f" > "$t/$f"; done
echo "@@GCOV begin"
tar -C "$t" -czf - . | base64
echo "@@GCOV end"
