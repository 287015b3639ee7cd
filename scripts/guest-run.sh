#!/bin/bash
# guest-run.sh TREE ARCH VARIANT PLAN LOG: boot build/out/TREE-ARCH[-VARIANT]
# in QEMU (TCG) with harness.plan=PLAN; the console goes to LOG.
# PLAN "shell" gives an interactive shell instead.
# The console shows kernel messages of level ERR and above only, so that
# they do not cut into the tests' output; the whole log is dumped at the end.
# Environment: SMP (2), MEM (2G; clients: 3G), ICOUNT (1: -icount
# shift=0; exact: with
# sleep=off as well, so that idle time is skipped deterministically),
# TIMEOUT (s), INITRD (another initramfs), CPU (arm64: QEMU's -cpu, default
# max; cortex-a57 has a PMUv3 without 64-bit counters), TCG_THREAD
# (single: one host thread for all vCPUs; the fuzzer needs it, see
# scripts/fuzz.sh), FIRMWARE (arm64: boot through this UEFI image, e.g.
# Debian's /usr/share/qemu-efi-aarch64/QEMU_EFI.fd, which gives the kernel
# ACPI tables; with the acpi variant's kernel and APPEND=acpi=force).
# A guest that does not power off by itself within TIMEOUT is killed; the
# exit status is then 124.
set -uo pipefail
tree=$1 arch=$2 variant=$3 plan=$4 log=$5
top=$(cd "$(dirname "$0")/.." && pwd)
# VARIANT names the kernel config (debug), or "icount": the plain kernel
# booted under -icount shift=0, or "clients": the plain kernel booted with
# the tree's client image (the BPF tracers' userspace and the kernel's
# headers, guest-image.sh), which needs more memory.
kvariant=$variant image=initramfs defmem=2G
case $variant in
icount) kvariant= ;;
clients) kvariant= image=clients-$tree defmem=3G ;;
esac
name=$tree-$arch${kvariant:+-$kvariant}
smp=${SMP:-2} mem=${MEM:-$defmem} timeout=${TIMEOUT:-2400}
initrd=${INITRD:-$top/build/guest/$arch/$image.cpio}
icount=()
[ "${ICOUNT:-1}" = 1 ] && icount=(-icount shift=0)
[ "${ICOUNT:-1}" = exact ] && icount=(-icount shift=0,sleep=off)
[ -n "${TCG_THREAD:-}" ] && icount+=(-accel "tcg,thread=$TCG_THREAD")
append="loglevel=4 log_buf_len=8M panic=-1 oops=panic harness.plan=$plan harness.timeout=${TEST_TIMEOUT:-300} harness.retry=${RETRY:-1} ${APPEND:-}"
case $arch in
x86_64)
	qemu=(qemu-system-x86_64 -M pc -cpu max -smp "$smp,sockets=$smp"
	      -kernel "$top/build/out/$name/bzImage")
	append="console=ttyS0 $append" ;;
arm64)
	qemu=(qemu-system-aarch64 -M virt,gic-version=3 -cpu "${CPU:-max,pauth-impdef=on}"
	      -smp "$smp" -kernel "$top/build/out/$name/Image")
	[ -n "${FIRMWARE:-}" ] && qemu+=(-bios "$FIRMWARE")
	# The PMU interrupt as a pseudo-NMI (CONFIG_ARM64_PSEUDO_NMI);
	# summary.py fails an arm64 run whose kernel log lacks "using NMIs".
	append="console=ttyAMA0 irqchip.gicv3_pseudo_nmi=1 $append" ;;
esac
qemu+=(-m "$mem" -nographic -no-reboot "${icount[@]}" -initrd "$initrd" -append "$append")
if [ "$plan" = shell ]; then
	exec "${qemu[@]}"
fi
mkdir -p "$(dirname "$log")"
timeout -s KILL "$timeout" "${qemu[@]}" < /dev/null > "$log" 2>&1
rc=$?
[ $rc = 137 ] && rc=124
exit $rc
