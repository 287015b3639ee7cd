#!/bin/bash
# install.sh KSRC: lay our patch (linux/ and edits/) over an existing Linux
# 6.12 tree: the mainline files we replace are removed, ours copied in, the
# edits applied.  Running it twice is harmless.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
exec python3 "$top/scripts/tree.py" install "$1"
