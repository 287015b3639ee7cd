#!/bin/bash
# insn-profile.sh TREE ARCH ONLY [BASE]: guest instructions per kernel
# function while the bench image (scripts/bench-image.sh) runs the rows
# whose names contain ONLY (bench.only=ONLY), under -icount like make
# bench, counted by a QEMU TCG plugin (scripts/insn-profile/plugin.c).
# A second boot with bench.only=BASE (default: a name no row has) gives
# what boot and set-up cost; the report is the difference, per function,
# largest first, and its total.  Needs the tree's kernel built and the
# bench image made (scripts/bench.sh does both).  Output in
# out/insn-profile/TREE-ARCH-ONLY.txt.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
tree=$1 arch=$2 only=$3 base=${4:-none-at-all}
out=$top/out/insn-profile
mkdir -p "$out"
plugin=$out/insn_prof.so
gcc -O2 -Wall -shared -fPIC -o "$plugin" "$top/scripts/insn-profile/plugin.c"
kdir=$top/build/out/$tree-$arch
case $arch in
x86_64) qemu=(qemu-system-x86_64 -M pc -cpu max -kernel "$kdir/bzImage")
	con=ttyS0 ;;
arm64)	qemu=(qemu-system-aarch64 -M virt,gic-version=3 -cpu max,pauth-impdef=on
	      -kernel "$kdir/Image")
	con=ttyAMA0 ;;
esac
boot() { # ONLY RESULT
	timeout -s KILL 1200 "${qemu[@]}" -smp 1 -m 2G -nographic -no-reboot \
		-icount shift=0,sleep=off \
		-plugin "$plugin,out=$2" \
		-initrd "$top/build/bench/$arch/initramfs.cpio" \
		-append "console=$con loglevel=4 panic=-1 harness.plan=bench norandmaps bench.only=$1" \
		< /dev/null > "$2.log" 2>&1
}
boot "$only" "$out/$tree-$arch-$only.raw" &
boot "$base" "$out/$tree-$arch-$base.raw" &
wait
python3 - "$kdir/System.map" "$out/$tree-$arch-$only.raw" \
	"$out/$tree-$arch-$base.raw" > "$out/$tree-$arch-$only.txt" <<'PY'
import bisect, collections, sys
syms = []
for line in open(sys.argv[1]):
    addr, kind, name = line.split()[:3]
    if kind in 'tTwW':
        syms.append((int(addr, 16), name))
syms.sort()
addrs = [a for a, _ in syms]
def load(path):
    per, calls = collections.Counter(), collections.Counter()
    for line in open(path):
        a, n, runs = line.split()
        a = int(a, 16)
        i = bisect.bisect_right(addrs, a) - 1
        kernel = i >= 0 and a >= 0xffff000000000000
        name = syms[i][1] if kernel else '[user]'
        per[name] += int(n)
        # a block that starts at the symbol: one call (or a loop back to it)
        if kernel and a == syms[i][0]:
            calls[name] += int(runs)
    return per, calls
(run, rcalls), (base, bcalls) = load(sys.argv[2]), load(sys.argv[3])
diff = {k: run[k] - base.get(k, 0) for k in set(run) | set(base)}
total = sum(diff.values())
print(f"total {total}")
print(f"{'insns':>14} {'share':>7} {'entries':>10} {'per':>6} function")
for name, n in sorted(diff.items(), key=lambda kv: -kv[1]):
    if abs(n) * 1000 < abs(total):
        continue
    c = rcalls.get(name, 0) - bcalls.get(name, 0)
    per = f"{n / c:6.1f}" if c > 0 else "     -"
    print(f"{n:14d} {100.0 * n / total:6.2f}% {c:10d} {per} {name}")
PY
grep -a "@@BENCH\|ioctl\|read\." "$out/$tree-$arch-$only.raw.log" | head -20 || true
head -40 "$out/$tree-$arch-$only.txt"
