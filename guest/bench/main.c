// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the guest side of `make bench`: sets the guest up and runs the
 * benchmark groups (one file each in guest/bench/) in order.
 *
 * Runs as /init of a minimal initramfs in a QEMU guest booted with
 * -icount shift=0,sleep=off, where guest time is an exact count of guest
 * instructions (one nanosecond each).  Every figure is therefore a cost in
 * guest instructions, and a run repeats exactly.
 *
 * Each measurement is taken REPS times after one warm-up run; the line
 *   @@BENCH <key> <median> <min> <max> <unit>
 * reports the median and the spread.  The host (scripts/bench-report.py)
 * pairs the lines of the mainline guest with those of ours.
 *
 * The x86_64 guest runs benchmarks 1-9 (software events; it has no PMU),
 * the arm64 guest benchmark 10 (the emulated PMUv3).
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <termios.h>
#include <unistd.h>

#include "bench.h"

const char *self_path = "/init";
const char *tiny_path = "/tiny";

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void setup(void)
{
	struct rlimit rl = { MAXFD + 64, MAXFD + 64 };

	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	if (setrlimit(RLIMIT_NOFILE, &rl))
		die("RLIMIT_NOFILE");
	setvbuf(stdout, NULL, _IOLBF, 0);
	pin_cpu0();
}

static const char *cmdline_arg(const char *name)
{
	static char buf[1024];
	char *p, *save = NULL;
	size_t len = strlen(name);
	int fd = open("/proc/cmdline", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = 0;
	for (p = strtok_r(buf, " \n", &save); p; p = strtok_r(NULL, " \n", &save))
		if (!strncmp(p, name, len) && p[len] == '=')
			return p + len + 1;
	return NULL;
}

int main(int argc, char **argv)
{
	const char *only;
	uint64_t t0;

	if (getpid() != 1 && argc > 2) {
		self_path = argv[1];
		tiny_path = argv[2];
	}
	if (getpid() == 1)
		setup();
	only = cmdline_arg("bench.only");
	if (!only)
		only = getenv("BENCH_ONLY");
#ifdef __aarch64__
	if (!only)
		only = "pmu";
#endif
	t0 = now_ns();
	printf("@@BENCH-START\n");
	group_runner = getpid();
#define RUN(name, fn) do {						\
		if ((only ? !!strstr(only, name) : strcmp(name, "pmu")) &&	\
		    !setjmp(group_failed))					\
			fn();							\
	} while (0)
	RUN("open", bench_open);
	RUN("read", bench_read);
	RUN("ctxsw", bench_ctxsw);
	RUN("fork", bench_fork);
	RUN("allcpu", bench_all_cpus);
	RUN("sample", bench_sampling);
	RUN("sample", bench_process_buffer);
	RUN("sideband", bench_sideband);
	RUN("ioctl", bench_ioctl);
	RUN("scale", bench_scale);
	RUN("memory", bench_memory);
	RUN("pmu", bench_pmu);
	printf("@@BENCH-END guest_ns=%llu\n", (unsigned long long)(now_ns() - t0));
	fflush(stdout);
	if (getpid() == 1) {
		/* the console must have sent the last line before power-off */
		tcdrain(STDOUT_FILENO);
		sync();
		reboot(RB_POWER_OFF);
	}
	return 0;
}
