#!/bin/bash
# check-links.sh DIR: fail if a source file DIR shares with the pristine tree
# (a hard link, see tree.py) was written in place since the tree was made;
# such a write would have changed the pristine tree and every other tree too.
set -e
dir=$1
stamp=$dir/.harness-pristine
[ -f "$stamp" ] || exit 0
bad=$(find "$dir" -xdev -type f -links +1 -newer "$stamp" -print | head -20)
if [ -n "$bad" ]; then
	echo "check-links.sh: files shared with build/pristine were modified in place:" >&2
	echo "$bad" >&2
	echo "check-links.sh: run 'make distclean' and find what wrote them" >&2
	exit 1
fi
