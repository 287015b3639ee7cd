// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2) on the arm64 PMUv3 driver: its sysfs description,
 * the event types that reach it (generic, cache, raw, its own dynamic
 * type), the exception-level filters, counter and group limits,
 * multiplexing, sampling, EL0 counter reads and CPU hotplug.
 *
 * Every test needs a PMU whose name starts with "armv8_pmuv3" in
 * /sys/bus/event_source/devices and skips without one (x86_64, or an
 * arm64 machine without PMUv3).  Bounds on counts are loose: the test
 * guests emulate the CPU (QEMU TCG) on a host that may be busy.  Exact
 * counts need the instructions event, which QEMU has only under -icount.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define PMU_DEVICES	"/sys/bus/event_source/devices"
#define PMU_PREFIX	"armv8_pmuv3"
#define USER_ACCESS	"/proc/sys/kernel/perf_user_access"
#define MAX_RATE	"/proc/sys/kernel/perf_event_max_sample_rate"

/* Common event numbers of the Arm ARM (PMEVTYPER<n>_EL0.evtCount). */
#define EV_SW_INCR		0x00
#define EV_L1I_CACHE_REFILL	0x01
#define EV_L1D_CACHE_REFILL	0x03
#define EV_L1D_CACHE		0x04
#define EV_INST_RETIRED		0x08
#define EV_BR_MIS_PRED		0x10
#define EV_CPU_CYCLES		0x11
#define EV_CHAIN		0x1e
#define EV_STALL_FRONTEND	0x23
#define EV_STALL_BACKEND	0x24
#define EV_STALL		0x3c

/* config1 fields, as the PMU's format/ directory describes them. */
#define CFG1_LONG		0x1ULL
#define CFG1_RDPMC		0x2ULL
#define CFG1_THRESHOLD_SHIFT	5

#define TIMES		(PERF_FORMAT_TOTAL_TIME_ENABLED | \
			 PERF_FORMAT_TOTAL_TIME_RUNNING)
#define SPIN_LOOPS	(20UL * 1000 * 1000)
#define BURN_NS		(50 * 1000 * 1000LL)
#define NR_MUX		12
#define MAX_MEMBERS	32
#define HP_CPU		1
#define HP_ONLINE	"/sys/devices/system/cpu/cpu1/online"

struct reading {
	__u64 value, enabled, running;
};

/* Where the PMU is in sysfs, and its dynamic type. */
struct pmuv3 {
	char dir[PATH_MAX];
	__u32 type;
};

/* Copy the file @dir/@name into @buf, less trailing whitespace. */
static int read_text(const char *dir, const char *name, char *buf,
		     size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = '\0';
	return 0;
}

/* Find the first armv8_pmuv3* PMU; 0, or -1 if there is none. */
static int find_pmuv3(struct pmuv3 *pmu)
{
	char buf[32];
	glob_t g;

	if (glob(PMU_DEVICES "/" PMU_PREFIX "*", 0, NULL, &g))
		return -1;
	snprintf(pmu->dir, sizeof(pmu->dir), "%s", g.gl_pathv[0]);
	globfree(&g);
	if (read_text(pmu->dir, "type", buf, sizeof(buf)))
		return -1;
	pmu->type = strtoul(buf, NULL, 10);
	return 0;
}

static void hw_attr(struct perf_event_attr *attr, __u32 type, __u64 config,
		    __u64 config1)
{
	memset(attr, 0, sizeof(*attr));
	attr->size = sizeof(*attr);
	attr->type = type;
	attr->config = config;
	attr->config1 = config1;
}

/* A counter on the calling thread, any CPU. */
static int open_counter(__u32 type, __u64 config, __u64 config1,
			__u64 read_format, int group_fd)
{
	struct perf_event_attr attr;

	hw_attr(&attr, type, config, config1);
	attr.read_format = read_format;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

static int open_errno_cfg(__u32 type, __u64 config, __u64 config1)
{
	struct perf_event_attr attr;

	hw_attr(&attr, type, config, config1);
	return perf_open_errno(&attr);
}

static int read_times(int fd, struct reading *r)
{
	return read(fd, r, sizeof(*r)) == sizeof(*r) ? 0 : -1;
}

/* Busy work that stays at EL0: no system call, no vDSO. */
static void spin(unsigned long loops)
{
	unsigned long i;

	for (i = 0; i < loops; i++)
		__asm__ __volatile__("" : : "r" (i) : "memory");
}

/* @a and @b differ by at most @pct percent of the larger. */
static int close_enough(__u64 a, __u64 b, unsigned int pct)
{
	__u64 hi = a > b ? a : b, lo = a > b ? b : a;

	return (hi - lo) * 100 <= hi * pct;
}

FIXTURE(pmu) {
	struct pmuv3 pmu;
	int max_rate;		/* perf_event_max_sample_rate before, or -1 */
};

FIXTURE_SETUP(pmu)
{
	if (find_pmuv3(&self->pmu))
		SKIP(return, "no %s* PMU in %s", PMU_PREFIX, PMU_DEVICES);
	if (geteuid() || read_int(MAX_RATE, &self->max_rate))
		self->max_rate = -1;
}

/*
 * The kernel lowers perf_event_max_sample_rate when overflow interrupts
 * take long (debug kernels under emulation do): give the tests that run
 * after these their rate back.
 */
FIXTURE_TEARDOWN(pmu)
{
	int rate;

	if (self->max_rate > 0 && !read_int(MAX_RATE, &rate) &&
	    rate != self->max_rate && write_int(MAX_RATE, self->max_rate))
		TH_LOG("could not restore %s", MAX_RATE);
}

/* type, format/ (how tools build config and config1) and caps/. */
TEST_F(pmu, sysfs_format_caps)
{
	static const char * const caps[] = {
		"caps/slots", "caps/bus_slots", "caps/bus_width",
		"caps/threshold_max",
	};
	static const char * const format[][2] = {
		{ "format/event", "config:0-15" },
		{ "format/long", "config1:0" },
		{ "format/rdpmc", "config1:1" },
		{ "format/threshold_count", "config1:2" },
		{ "format/threshold_compare", "config1:3-4" },
		{ "format/threshold", "config1:5-16" },
	};
	unsigned long val = 0;
	char buf[64], *end;
	unsigned int i;

	EXPECT_LE(PERF_TYPE_MAX, self->pmu.type);
	EXPECT_EQ(0, open_errno_cfg(self->pmu.type, EV_CPU_CYCLES, 0));
	for (i = 0; i < ARRAY_SIZE(format); i++) {
		ASSERT_EQ(0, read_text(self->pmu.dir, format[i][0], buf,
				       sizeof(buf))) TH_LOG("%s", format[i][0]);
		EXPECT_STREQ(format[i][1], buf) TH_LOG("%s", format[i][0]);
	}

	/* caps/ files are hex; a threshold above threshold_max is refused */
	for (i = 0; i < ARRAY_SIZE(caps); i++) {
		ASSERT_EQ(0, read_text(self->pmu.dir, caps[i], buf,
				       sizeof(buf))) TH_LOG("%s", caps[i]);
		EXPECT_EQ(0, strncmp(buf, "0x", 2))
			TH_LOG("%s: %s", caps[i], buf);
		val = strtoul(buf, &end, 16);
		EXPECT_TRUE(end > buf + 2 && !*end)
			TH_LOG("%s: %s", caps[i], buf);
	}
	/* val: threshold_max; the threshold field is 12 bits wide */
	ASSERT_GT(4096, val);
	EXPECT_EQ(EINVAL, open_errno_cfg(self->pmu.type, EV_CPU_CYCLES,
					 (val + 1) << CFG1_THRESHOLD_SHIFT))
		TH_LOG("threshold %lu", val + 1);
	if (val)
		EXPECT_EQ(0, open_errno_cfg(self->pmu.type, EV_CPU_CYCLES,
					    val << CFG1_THRESHOLD_SHIFT));
}

/* events/: cpu_cycles is there, each entry is "event=0x..." and opens. */
TEST_F(pmu, sysfs_events)
{
	char pattern[PATH_MAX + 16], name[PATH_MAX], buf[64];
	unsigned int ev;
	size_t i;
	glob_t g;
	int used;

	ASSERT_EQ(0, read_text(self->pmu.dir, "events/cpu_cycles", buf,
			       sizeof(buf)));
	EXPECT_STREQ("event=0x0011", buf);

	snprintf(pattern, sizeof(pattern), "%s/events/*", self->pmu.dir);
	ASSERT_EQ(0, glob(pattern, 0, NULL, &g));
	for (i = 0; i < g.gl_pathc; i++) {
		snprintf(name, sizeof(name), "events/%s",
			 strrchr(g.gl_pathv[i], '/') + 1);
		ASSERT_EQ(0, read_text(self->pmu.dir, name, buf, sizeof(buf)));
		used = 0;
		if (sscanf(buf, "event=0x%x%n", &ev, &used) != 1)
			used = 0;
		EXPECT_TRUE(used > 8 && !buf[used] && ev <= 0xffff)
			TH_LOG("%s: %s", name, buf);
		EXPECT_EQ(0, open_errno_cfg(self->pmu.type, ev, 0))
			TH_LOG("%s", name);
	}
	globfree(&g);
}

/*
 * CPU cycles by every name the PMU answers to: the generic event, the
 * generic event aimed at this PMU (extended type), PERF_TYPE_RAW, the
 * dynamic type, and the dynamic type with a 64-bit counter.  All count
 * about as much over the same loop.
 */
TEST_F(pmu, cycles_every_type)
{
	const struct {
		__u32 type;
		__u64 config, config1;
	} ev[] = {
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0 },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES |
		  (__u64)self->pmu.type << PERF_PMU_TYPE_SHIFT, 0 },
		{ PERF_TYPE_RAW, EV_CPU_CYCLES, 0 },
		{ self->pmu.type, EV_CPU_CYCLES, 0 },
		{ self->pmu.type, EV_CPU_CYCLES, CFG1_LONG },
	};
	__u64 before[ARRAY_SIZE(ev)], after[ARRAY_SIZE(ev)];
	int fd[ARRAY_SIZE(ev)];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		fd[i] = open_counter(ev[i].type, ev[i].config, ev[i].config1,
				     0, -1);
		ASSERT_LE(0, fd[i]) TH_LOG("event %u: %s", i, strerror(errno));
	}
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		before[i] = read_value(fd[i]);
	spin(SPIN_LOOPS);
	for (i = 0; i < ARRAY_SIZE(ev); i++)
		after[i] = read_value(fd[i]);
	for (i = 0; i < ARRAY_SIZE(ev); i++) {
		ASSERT_NE(~0ULL, after[i]);
		EXPECT_LT(before[i], after[i]) TH_LOG("event %u", i);
		EXPECT_TRUE(close_enough(after[0] - before[0],
					 after[i] - before[i], 50))
			TH_LOG("event %u: %llu cycles, generic: %llu", i,
			       (unsigned long long)(after[i] - before[i]),
			       (unsigned long long)(after[0] - before[0]));
		close(fd[i]);
	}
}

/*
 * Exception-level filters: of a loop that stays in user space, the
 * count with exclude_kernel is a good part of the unfiltered count, and
 * the two filtered counts add up to the whole.  The kernel's part is
 * interrupt handling: on a debug kernel under emulation on a loaded host
 * it can pass half of the cycles, so the user part is only required to
 * be a quarter of them.
 */
TEST_F(pmu, exclude_user_kernel)
{
	struct perf_event_attr attr;
	__u64 all, user, kernel;
	int fd[3], i;

	for (i = 0; i < 3; i++) {
		hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0);
		attr.exclude_kernel = i == 1;
		attr.exclude_user = i == 2;
		attr.disabled = 1;
		fd[i] = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, fd[i]) TH_LOG("event %d: %s", i, strerror(errno));
	}
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	spin(5 * SPIN_LOOPS);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	all = read_value(fd[0]);
	user = read_value(fd[1]);
	kernel = read_value(fd[2]);
	for (i = 0; i < 3; i++)
		close(fd[i]);
	TH_LOG("cycles: all %llu, user %llu, kernel %llu",
	       (unsigned long long)all, (unsigned long long)user,
	       (unsigned long long)kernel);
	EXPECT_LT(0, user);
	EXPECT_LE(user, all + all / 20);
	EXPECT_LT(all / 4, user);
	EXPECT_TRUE(close_enough(all, user + kernel, 10));
}

/*
 * exclude_hv, exclude_host and exclude_guest are accepted (a kernel
 * without a hypervisor below it has none to exclude); exclude_idle is
 * beyond the PMU's filters and refused with EOPNOTSUPP.
 */
TEST_F(pmu, exclude_other_bits)
{
	struct perf_event_attr attr;
	__u64 count;
	int i, fd;

	for (i = 0; i < 3; i++) {
		hw_attr(&attr, self->pmu.type, EV_CPU_CYCLES, 0);
		attr.exclude_hv = i == 0;
		attr.exclude_guest = i == 1;
		attr.exclude_host = i == 2;
		fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, fd) TH_LOG("bit %d: %s", i, strerror(errno));
		spin(SPIN_LOOPS / 10);
		count = read_value(fd);
		close(fd);
		ASSERT_NE(~0ULL, count);
		/* On a VHE host, exclude_host also hides EL0. */
		if (i < 2)
			EXPECT_LT(0, count) TH_LOG("bit %d", i);
	}
	hw_attr(&attr, self->pmu.type, EV_CPU_CYCLES, 0);
	attr.exclude_idle = 1;
	EXPECT_EQ(EOPNOTSUPP, perf_open_errno(&attr));
}

/*
 * Generic events open when the CPU has the common event behind them and
 * fail with ENOENT when it has not; configs outside the generic tables
 * fail with EINVAL.  Raw events open whether or not the CPU implements
 * them, but for CHAIN, which only pairs counters.
 */
TEST_F(pmu, event_mapping)
{
	static const struct {
		__u64 config;
		const char *needs;	/* in events/; NULL: nothing can do */
	} generic[] = {
		{ PERF_COUNT_HW_CPU_CYCLES, "cpu_cycles" },
		{ PERF_COUNT_HW_CACHE_REFERENCES, "l1d_cache" },
		{ PERF_COUNT_HW_CACHE_MISSES, "l1d_cache_refill" },
		{ PERF_COUNT_HW_BRANCH_MISSES, "br_mis_pred" },
		{ PERF_COUNT_HW_STALLED_CYCLES_FRONTEND, "stall_frontend" },
		{ PERF_COUNT_HW_STALLED_CYCLES_BACKEND, "stall_backend" },
		{ PERF_COUNT_HW_REF_CPU_CYCLES, NULL },
	};
	static const __u64 raw[] = {
		EV_SW_INCR, EV_L1I_CACHE_REFILL, EV_L1D_CACHE_REFILL,
		EV_L1D_CACHE, EV_BR_MIS_PRED, 0x3ff,
	};
	const __u64 l1d_read = PERF_COUNT_HW_CACHE_L1D |
			       PERF_COUNT_HW_CACHE_OP_READ << 8;
	char name[64], buf[64];
	unsigned int i;
	int has;

	for (i = 0; i < ARRAY_SIZE(generic); i++) {
		has = 0;
		if (generic[i].needs) {
			snprintf(name, sizeof(name), "events/%s",
				 generic[i].needs);
			has = !read_text(self->pmu.dir, name, buf, sizeof(buf));
		}
		EXPECT_EQ(has ? 0 : ENOENT,
			  open_errno_cfg(PERF_TYPE_HARDWARE, generic[i].config,
					 0))
			TH_LOG("generic event %llu",
			       (unsigned long long)generic[i].config);
	}
	EXPECT_EQ(EINVAL, open_errno_cfg(PERF_TYPE_HARDWARE,
					 PERF_COUNT_HW_MAX, 0));

	/* L1D reads: op, result and cache out of range, then misses */
	EXPECT_EQ(EINVAL, open_errno_cfg(PERF_TYPE_HW_CACHE,
					 PERF_COUNT_HW_CACHE_L1D |
					 PERF_COUNT_HW_CACHE_OP_MAX << 8, 0));
	EXPECT_EQ(EINVAL, open_errno_cfg(PERF_TYPE_HW_CACHE, l1d_read |
					 PERF_COUNT_HW_CACHE_RESULT_MAX << 16,
					 0));
	EXPECT_EQ(EINVAL, open_errno_cfg(PERF_TYPE_HW_CACHE,
					 PERF_COUNT_HW_CACHE_MAX, 0));
	has = !read_text(self->pmu.dir, "events/l1d_cache_refill", buf,
			 sizeof(buf));
	EXPECT_EQ(has ? 0 : ENOENT,
		  open_errno_cfg(PERF_TYPE_HW_CACHE, l1d_read |
				 PERF_COUNT_HW_CACHE_RESULT_MISS << 16, 0));

	for (i = 0; i < ARRAY_SIZE(raw); i++)
		EXPECT_EQ(0, open_errno_cfg(PERF_TYPE_RAW, raw[i], 0))
			TH_LOG("raw %#llx", (unsigned long long)raw[i]);
	EXPECT_EQ(EINVAL, open_errno_cfg(self->pmu.type, EV_CHAIN, 0));
}

/*
 * A group has to fit the PMU at once: the cycle counter plus the event
 * counters.  Members are added (enabled: disabled ones do not count
 * against the limit) until one is refused with EINVAL; the group that
 * opened is then scheduled whole.  Its first two members count cycles:
 * one on the cycle counter, one on an event counter.
 */
TEST_F(pmu, group_fits_counters)
{
	static const __u64 raw[] = {
		EV_CPU_CYCLES, EV_STALL_FRONTEND, EV_STALL_BACKEND, EV_STALL,
		EV_SW_INCR, EV_L1D_CACHE_REFILL, EV_L1D_CACHE,
		EV_L1I_CACHE_REFILL,
	};
	struct {
		__u64 nr, enabled, running;
		__u64 value[MAX_MEMBERS];
	} g;
	int fd[MAX_MEMBERS], n, i;

	fd[0] = open_counter(PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES, 0,
			     PERF_FORMAT_GROUP | TIMES, -1);
	ASSERT_LE(0, fd[0]) TH_LOG("leader: %s", strerror(errno));
	for (n = 1; n < MAX_MEMBERS; n++) {
		fd[n] = open_counter(PERF_TYPE_RAW,
				     raw[(n - 1) % ARRAY_SIZE(raw)], 0, 0,
				     fd[0]);
		if (fd[n] < 0)
			break;
	}
	ASSERT_GT(MAX_MEMBERS, n) TH_LOG("no member was refused");
	EXPECT_EQ(EINVAL, errno) TH_LOG("member %d: %s", n, strerror(errno));
	EXPECT_LE(2, n);
	TH_LOG("a group of %d opened", n);

	/* the members started at their opens: start all from zero here */
	ASSERT_EQ(0, ioctl(fd[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP));
	spin(SPIN_LOOPS / 4);
	/*
	 * Stop the group (all members at once) before reading it: without
	 * icount QEMU's cycles follow host time, so members read one after
	 * the other while counting can differ by whatever the host took
	 * the vCPU away for in between.
	 */
	ASSERT_EQ(0, disable(fd[0]));
	ASSERT_LT(0, read(fd[0], &g, sizeof(g)));
	EXPECT_EQ(n, g.nr);
	EXPECT_LT(0, g.enabled);
	EXPECT_EQ(g.enabled, g.running);
	EXPECT_LT(0, g.value[0]);
	/* member 1 counts cycles too, on an event counter */
	EXPECT_TRUE(close_enough(g.value[0], g.value[1], 10))
		TH_LOG("%llu vs %llu cycles", (unsigned long long)g.value[0],
		       (unsigned long long)g.value[1]);
	for (i = 0; i < n; i++)
		close(fd[i]);
}

/*
 * More cycles events than counters: each gets part of the time, and
 * scaled by enabled / running they all estimate the same count.
 */
TEST_F(pmu, multiplexing)
{
	struct reading r[NR_MUX];
	__u64 scaled, lo = ~0ULL, hi = 0;
	struct perf_event_attr attr;
	int fd[NR_MUX], i, shared = 0;

	for (i = 0; i < NR_MUX; i++) {
		hw_attr(&attr, i % 2 ? PERF_TYPE_HARDWARE : self->pmu.type,
			i % 2 ? PERF_COUNT_HW_CPU_CYCLES : EV_CPU_CYCLES, 0);
		attr.read_format = TIMES;
		attr.disabled = 1;
		fd[i] = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_LE(0, fd[i]) TH_LOG("event %d: %s", i, strerror(errno));
	}
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	burn_cpu(4 * BURN_NS);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	for (i = 0; i < NR_MUX; i++) {
		ASSERT_EQ(0, read_times(fd[i], &r[i]));
		close(fd[i]);
		EXPECT_LT(0, r[i].value) TH_LOG("event %d", i);
		EXPECT_LT(0, r[i].running) TH_LOG("event %d", i);
		EXPECT_LE(r[i].running, r[i].enabled);
		if (!r[i].running)
			continue;
		shared += r[i].running < r[i].enabled;
		scaled = (double)r[i].value * r[i].enabled / r[i].running;
		lo = scaled < lo ? scaled : lo;
		hi = scaled > hi ? scaled : hi;
	}
	EXPECT_LT(0, shared);
	EXPECT_LE(hi, 2 * lo) TH_LOG("scaled counts from %llu to %llu",
				     (unsigned long long)lo,
				     (unsigned long long)hi);
}

/* The IP, TID, TIME and PERIOD sample layout. */
struct ip_sample {
	struct perf_event_header header;
	__u64 ip;
	__u32 pid, tid;
	__u64 time, period;
};

struct sample_stats {
	int samples, in_text, wrong_task, lost, zero_period, backwards;
	__u64 period, last_time;
	unsigned long text_lo, text_hi;	/* the mapping holding spin() */
};

/* Bounds of the mapping that holds @addr, from /proc/self/maps. */
static int mapping_of(unsigned long addr, unsigned long *lo,
		      unsigned long *hi)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long a, b;
	char line[512];
	int ret = -1;

	while (f && ret && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx", &a, &b) == 2 && a <= addr &&
		    addr < b) {
			*lo = a;
			*hi = b;
			ret = 0;
		}
	}
	if (f)
		fclose(f);
	return ret;
}

static void count_samples(struct ring *r, struct sample_stats *st)
{
	struct perf_event_header *h;
	struct ip_sample *s;
	char buf[256];

	while ((h = ring_next(r, buf, sizeof(buf)))) {
		st->lost += h->type == PERF_RECORD_LOST;
		if (h->type != PERF_RECORD_SAMPLE || h->size != sizeof(*s))
			continue;
		s = (struct ip_sample *)h;
		st->samples++;
		st->in_text += (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
			       PERF_RECORD_MISC_USER &&
			       s->ip >= st->text_lo && s->ip < st->text_hi;
		st->wrong_task += s->pid != getpid() || s->tid != gettid();
		st->zero_period += !s->period;
		st->backwards += s->time < st->last_time;
		st->last_time = s->time;
		st->period = s->period;
	}
	ring_publish(r);
}

/*
 * Sample the user-space cycles of this thread until @want samples came
 * or 3 s of CPU time went by (emulators can be slow to raise overflow
 * interrupts), and check the samples.
 */
static void sample_cycles(struct __test_metadata *_metadata, __u32 type,
			  int freq, __u64 period, int want)
{
	long long end = thread_cpu_ns() + 3000000000LL;
	struct perf_event_attr attr;
	struct sample_stats st;
	struct ring r;
	int fd;

	memset(&st, 0, sizeof(st));
	ASSERT_EQ(0, mapping_of((unsigned long)spin, &st.text_lo,
				&st.text_hi));
	/* one CPU: sample times from one clock */
	ASSERT_EQ(0, pin_to_cpu(0, sched_getcpu()));
	hw_attr(&attr, type, type == PERF_TYPE_HARDWARE ?
		PERF_COUNT_HW_CPU_CYCLES : EV_CPU_CYCLES, 0);
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD;
	attr.freq = freq;
	attr.sample_period = period;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("open: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 16, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	while (st.samples < want && thread_cpu_ns() < end) {
		spin(SPIN_LOOPS / 20);
		count_samples(&r, &st);
	}
	ASSERT_EQ(0, disable(fd));
	count_samples(&r, &st);
	EXPECT_EQ(0, r.bad);
	ring_unmap(&r);
	close(fd);

	TH_LOG("%d samples, %d in this program's text, last period %llu",
	       st.samples, st.in_text, (unsigned long long)st.period);
	EXPECT_LT(0, st.samples);
	/*
	 * Most land in the spinning loop; the rest in libc, around the
	 * ring reads and clock calls between spins (a quarter to a half of
	 * them with short frequency periods on a debug kernel).
	 */
	EXPECT_LE(st.samples, 4 * st.in_text);
	EXPECT_EQ(0, st.wrong_task);
	EXPECT_EQ(0, st.lost);
	EXPECT_EQ(0, st.zero_period);
	EXPECT_EQ(0, st.backwards);
	if (!freq && st.samples)
		EXPECT_EQ(period, st.period);
}

TEST_F(pmu, sampling_period)
{
	sample_cycles(_metadata, PERF_TYPE_HARDWARE, 0, 100000, 20);
}

TEST_F(pmu, sampling_freq)
{
	sample_cycles(_metadata, self->pmu.type, 1, 1000, 10);
}

/* @n turns of a loop of two instructions. */
static void counted_loop(unsigned long n)
{
#ifdef __aarch64__
	__asm__ __volatile__("1:	subs	%0, %0, #1\n"
			     "	b.ne	1b\n" : "+r" (n) : : "cc");
#else
	spin(n);
#endif
}

/*
 * The fewest user-space instructions that group @fd (of two) counts
 * around counted_loop(@n) in 10 tries: QEMU's counts under -icount also
 * take in what the other vCPUs run meanwhile, now and then.
 */
static __u64 count_loop(int fd, unsigned long n, __u64 *member)
{
	__u64 g[3], lead = ~0ULL;
	int i;

	*member = ~0ULL;
	for (i = 0; i < 10; i++) {
		ioctl(fd, PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
		ioctl(fd, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
		counted_loop(n);
		ioctl(fd, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
		if (read(fd, g, sizeof(g)) != sizeof(g) || g[0] != 2)
			return 0;
		lead = g[1] < lead ? g[1] : lead;
		*member = g[2] < *member ? g[2] : *member;
	}
	return lead;
}

/*
 * Exact counts, where the CPU has an instructions event (QEMU: under
 * -icount only): a loop of a known number of instructions counts that
 * many in user space, as the generic event and as raw INST_RETIRED.
 */
TEST_F(pmu, instructions_exact)
{
	const unsigned long n1 = 100000, n2 = 300000;
	__u64 c1, c2, raw1, raw2;
	struct perf_event_attr attr;
	int fd[2];

	hw_attr(&attr, PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS, 0);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	attr.disabled = 1;
	attr.read_format = PERF_FORMAT_GROUP;
	fd[0] = sys_perf_event_open(&attr, 0, -1, -1, 0);
	if (fd[0] < 0 && errno == ENOENT)
		SKIP(return, "no instructions event (QEMU: only with -icount)");
	ASSERT_LE(0, fd[0]) TH_LOG("instructions: %s", strerror(errno));
	hw_attr(&attr, self->pmu.type, EV_INST_RETIRED, 0);
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd[1] = sys_perf_event_open(&attr, 0, -1, fd[0], 0);
	ASSERT_LE(0, fd[1]) TH_LOG("inst_retired: %s", strerror(errno));

	c1 = count_loop(fd[0], n1, &raw1);
	c2 = count_loop(fd[0], n2, &raw2);
	TH_LOG("%lu turns: %llu, %lu turns: %llu", n1,
	       (unsigned long long)c1, n2, (unsigned long long)c2);
	EXPECT_LE(2 * n1, c1);
	EXPECT_GE(2 * n1 + 1000, c1);
	/* Same code around both loops: the difference is exact. */
	EXPECT_EQ(2 * (n2 - n1), c2 - c1);
	EXPECT_EQ(c1, raw1);
	EXPECT_EQ(c2, raw2);
	close(fd[1]);
	close(fd[0]);
}

/*
 * EL0 reads of the counters.  The register number is part of the MRS
 * instruction, hence one case per event counter (@n: index - 1).
 */
#define READ_EVCNTR(n)							\
	case n:								\
		__asm__ __volatile__("mrs %0, pmevcntr" #n "_el0"	\
				     : "=r" (v));			\
		break

static __u64 read_pmc(unsigned int n)
{
	__u64 v = 0;

#ifdef __aarch64__
	switch (n) {
	READ_EVCNTR(0); READ_EVCNTR(1); READ_EVCNTR(2); READ_EVCNTR(3);
	READ_EVCNTR(4); READ_EVCNTR(5); READ_EVCNTR(6); READ_EVCNTR(7);
	READ_EVCNTR(8); READ_EVCNTR(9); READ_EVCNTR(10); READ_EVCNTR(11);
	READ_EVCNTR(12); READ_EVCNTR(13); READ_EVCNTR(14); READ_EVCNTR(15);
	READ_EVCNTR(16); READ_EVCNTR(17); READ_EVCNTR(18); READ_EVCNTR(19);
	READ_EVCNTR(20); READ_EVCNTR(21); READ_EVCNTR(22); READ_EVCNTR(23);
	READ_EVCNTR(24); READ_EVCNTR(25); READ_EVCNTR(26); READ_EVCNTR(27);
	READ_EVCNTR(28); READ_EVCNTR(29); READ_EVCNTR(30);
	case 31:
		__asm__ __volatile__("mrs %0, pmccntr_el0" : "=r" (v));
		break;
	}
#endif
	return v;
}

/*
 * Read the count of the event behind @pc from user space, by the
 * protocol of struct perf_event_mmap_page: read lock, then index,
 * offset and the counter, and retry if lock has changed meanwhile.
 * 0 and the count in *@count, or -1 if the page offers no counter.
 */
static int user_read(struct perf_event_mmap_page *pc, __u64 *count)
{
	__u32 seq, index;
	__u64 offset, pmc;
	int width;

	do {
		seq = pc->lock;
		__asm__ __volatile__("" : : : "memory");
		index = pc->index;
		offset = pc->offset;
		width = pc->pmc_width;
		if (!pc->cap_user_rdpmc || !index || width < 1 || width > 64)
			return -1;
		pmc = read_pmc(index - 1);
		__asm__ __volatile__("" : : : "memory");
	} while (pc->lock != seq);
	/* the counter's value, sign-extended from pmc_width bits */
	pmc = (__u64)((__s64)(pmc << (64 - width)) >> (64 - width));
	*count = offset + pmc;
	return 0;
}

FIXTURE(uacc) {
	struct pmuv3 pmu;
	int saved;
};

FIXTURE_SETUP(uacc)
{
	if (find_pmuv3(&self->pmu))
		SKIP(return, "no %s* PMU in %s", PMU_PREFIX, PMU_DEVICES);
	if (geteuid() || read_int(USER_ACCESS, &self->saved) ||
	    access(USER_ACCESS, W_OK))
		SKIP(return, "needs root and %s", USER_ACCESS);
}

/* In the parent: the sysctl comes back even if the test died. */
FIXTURE_TEARDOWN_PARENT(uacc)
{
	if (write_int(USER_ACCESS, self->saved))
		TH_LOG("could not restore %s", USER_ACCESS);
}

static struct perf_event_mmap_page *map_user_page(int fd)
{
	void *p = mmap(NULL, sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED,
		       fd, 0);

	return p == MAP_FAILED ? NULL : p;
}

/*
 * With perf_user_access on, @nr self-monitoring cycles counters with
 * config1 @config1 are readable at EL0: the values grow and agree with
 * read(2).
 */
static void check_user_read(struct __test_metadata *_metadata, __u32 type,
			    __u64 config1, int nr)
{
	struct perf_event_mmap_page *pc[2];
	__u64 u1, u2, k, u3;
	int fd[2], i;

	ASSERT_EQ(0, write_int(USER_ACCESS, 1));
	for (i = 0; i < nr; i++) {
		fd[i] = open_counter(type, EV_CPU_CYCLES, config1, 0, -1);
		/*
		 * Documentation/arch/arm64/perf.rst: a 64-bit counter with
		 * EL0 access fails to open where the event counters have
		 * 32 bits (before PMUv3p5; QEMU's cortex-a57, for one).
		 */
		if (fd[i] < 0 && errno == EOPNOTSUPP && (config1 & CFG1_LONG))
			SKIP(return, "no 64-bit event counters here");
		ASSERT_LE(0, fd[i]) TH_LOG("%s", strerror(errno));
		pc[i] = map_user_page(fd[i]);
		ASSERT_NE(NULL, pc[i]) TH_LOG("mmap: %s", strerror(errno));
	}
	for (i = 0; i < nr; i++) {
		TH_LOG("counter %d: cap_user_rdpmc %d index %u pmc_width %u",
		       i, (int)pc[i]->cap_user_rdpmc, pc[i]->index,
		       pc[i]->pmc_width);
		EXPECT_EQ(1, (int)pc[i]->cap_user_rdpmc);
		EXPECT_NE(0, pc[i]->index);
		EXPECT_TRUE(pc[i]->pmc_width == 32 || pc[i]->pmc_width == 64);
		if (config1 & CFG1_LONG)
			EXPECT_EQ(64, pc[i]->pmc_width);
		ASSERT_EQ(0, user_read(pc[i], &u1));
		spin(SPIN_LOOPS / 4);
		ASSERT_EQ(0, user_read(pc[i], &u2));
		EXPECT_LT(u1, u2);
		k = read_value(fd[i]);
		ASSERT_EQ(0, user_read(pc[i], &u3));
		EXPECT_LE(u2, k);
		EXPECT_LE(k, u3);
		/* a read(2) does not upset the next EL0 reads */
		spin(SPIN_LOOPS / 4);
		ASSERT_EQ(0, user_read(pc[i], &u1));
		k = read_value(fd[i]);
		EXPECT_LT(u3, u1);
		EXPECT_LE(u1, k);
	}
	if (nr > 1)	/* only one can have the cycle counter */
		EXPECT_TRUE(pc[0]->index != 32 || pc[1]->index != 32);
	for (i = 0; i < nr; i++) {
		munmap(pc[i], sysconf(_SC_PAGESIZE));
		close(fd[i]);
	}
}

TEST_F(uacc, user_read_32bit)
{
	check_user_read(_metadata, self->pmu.type, CFG1_RDPMC, 1);
}

TEST_F(uacc, user_read_64bit)
{
	check_user_read(_metadata, self->pmu.type, CFG1_RDPMC | CFG1_LONG, 1);
}

/* Two of them: one lands on an event counter, read with PMEVCNTR<n>. */
TEST_F(uacc, user_read_event_counter)
{
	check_user_read(_metadata, self->pmu.type, CFG1_RDPMC, 2);
}

/*
 * Without perf_user_access, or without the rdpmc bit, the page names no
 * counter (index 0): user space has to fall back to read(2).  EL0 reads
 * are for self-monitoring only: a CPU-wide event cannot ask for them.
 */
TEST_F(uacc, user_read_refused)
{
	struct perf_event_mmap_page *pc;
	struct perf_event_attr attr;
	int fd;

	ASSERT_EQ(0, write_int(USER_ACCESS, 0));
	fd = open_counter(self->pmu.type, EV_CPU_CYCLES, CFG1_RDPMC, 0, -1);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	pc = map_user_page(fd);
	ASSERT_NE(NULL, pc);
	TH_LOG("perf_user_access 0: cap_user_rdpmc %d index %u",
	       (int)pc->cap_user_rdpmc, pc->index);
	EXPECT_EQ(0, pc->index);
	munmap(pc, sysconf(_SC_PAGESIZE));
	close(fd);

	ASSERT_EQ(0, write_int(USER_ACCESS, 1));
	fd = open_counter(self->pmu.type, EV_CPU_CYCLES, 0, 0, -1);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	pc = map_user_page(fd);
	ASSERT_NE(NULL, pc);
	EXPECT_EQ(0, pc->index);
	EXPECT_EQ(0, (int)pc->cap_user_rdpmc);
	munmap(pc, sysconf(_SC_PAGESIZE));
	close(fd);

	hw_attr(&attr, self->pmu.type, EV_CPU_CYCLES, CFG1_RDPMC);
	fd = sys_perf_event_open(&attr, -1, 0, -1, 0);
	EXPECT_EQ(-1, fd);
	EXPECT_EQ(EINVAL, errno);
	if (fd >= 0)
		close(fd);
}

/*
 * Run in a child with no events of its own, on the CPU its parent keeps
 * an EL0-readable counter on: read the cycle counter at EL0 @tries times,
 * yielding in between so that the parent runs just before each read.
 * The first read must raise SIGILL; the child exits 0 only if none did.
 */
static void read_without_access(unsigned int tries)
{
	while (tries--) {
		sched_yield();
		read_pmc(31);
	}
	_exit(0);
}

/*
 * EL0 access belongs to the task whose events asked for it.  A task
 * that runs after it on the same CPU, with no events at all, must not
 * inherit it: its read of the cycle counter traps (SIGILL).
 */
TEST_F(uacc, user_access_not_inherited_by_next_task)
{
	struct perf_event_mmap_page *pc;
	int fd, status, reads = 0;
	cpu_set_t cpus;
	__u64 v;
	pid_t pid;

	CPU_ZERO(&cpus);
	CPU_SET(0, &cpus);
	ASSERT_EQ(0, sched_setaffinity(0, sizeof(cpus), &cpus));
	ASSERT_EQ(0, write_int(USER_ACCESS, 1));
	fd = open_counter(self->pmu.type, EV_CPU_CYCLES, CFG1_RDPMC, 0, -1);
	ASSERT_LE(0, fd) TH_LOG("%s", strerror(errno));
	pc = map_user_page(fd);
	ASSERT_NE(NULL, pc);
	ASSERT_EQ(0, user_read(pc, &v)) TH_LOG("no EL0 access to begin with");

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid)
		read_without_access(1000);
	/*
	 * Keep the counter readable here while the child tries; read at
	 * least once, as the child may be gone before the parent runs.
	 */
	do {
		if (!user_read(pc, &v))
			reads++;
		sched_yield();
	} while (waitpid(pid, &status, WNOHANG) == 0);
	TH_LOG("parent read its counter at EL0 %d times", reads);
	EXPECT_LT(0, reads);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGILL)
		TH_LOG("child status 0x%x: it read the cycle counter", status);
	munmap(pc, sysconf(_SC_PAGESIZE));
	close(fd);
}

/*
 * The same with a CPU-wide cycles event on that CPU as well, which keeps
 * the PMU's counters in use across every switch there.  Task A, with an
 * EL0-readable counter, and task B, of another user and with no events,
 * take turns on CPU 1; each of B's reads of the cycle counter must trap
 * (it would show the CPU-wide event's count, another user's).  B counts
 * the reads that trapped (SIGILL, caught) and those that did not.
 */
#define UA_CPU		1
#define UA_RUN_NS	(1000 * 1000 * 1000LL)
#define UA_NOBODY	65534

static sigjmp_buf ua_env;
static volatile int ua_read_ok, ua_trapped;

static void ua_on_sigill(int sig)
{
	(void)sig;
	siglongjmp(ua_env, 1);
}

/* Task A: its counter, readable at EL0 (1 on @ready), then yield a lot. */
static void ua_owner(__u32 type, int go, int ready)
{
	struct perf_event_mmap_page *pc = NULL;
	long long end;
	char c = 0;
	__u64 v;
	int fd;

	if (pin_to_cpu(0, UA_CPU))
		_exit(2);
	fd = open_counter(type, EV_CPU_CYCLES, CFG1_RDPMC, 0, -1);
	if (fd >= 0)
		pc = map_user_page(fd);
	c = pc && !user_read(pc, &v);
	if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1)
		_exit(1);
	end = monotonic_ns() + UA_RUN_NS;
	while (monotonic_ns() < end) {
		user_read(pc, &v);
		sched_yield();
	}
	_exit(0);
}

/* Task B: another user, no events; {reads done, reads trapped} to @out. */
static void ua_reader(int go, int out)
{
	struct sigaction sa;
	long long end;
	int res[2];
	char c;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = ua_on_sigill;
	if (pin_to_cpu(0, UA_CPU) || sigaction(SIGILL, &sa, NULL) ||
	    setresgid(UA_NOBODY, UA_NOBODY, UA_NOBODY) ||
	    setresuid(UA_NOBODY, UA_NOBODY, UA_NOBODY))
		_exit(2);
	if (read(go, &c, 1) != 1)
		_exit(1);
	end = monotonic_ns() + UA_RUN_NS;
	while (monotonic_ns() < end) {
		sched_yield();
		if (sigsetjmp(ua_env, 1)) {
			ua_trapped++;
			continue;
		}
		read_pmc(31);
		__asm__ __volatile__("" : : : "memory");
		ua_read_ok++;
	}
	res[0] = ua_read_ok;
	res[1] = ua_trapped;
	_exit(write(out, res, sizeof(res)) == sizeof(res) ? 0 : 1);
}

TEST_F(uacc, user_access_closed_with_cpu_wide_event)
{
	int fd, go[2], ready[2], out[2], res[2] = { -1, -1 }, status;
	struct perf_event_attr attr;
	pid_t a, b;
	char c = 0;

	if (sysconf(_SC_NPROCESSORS_ONLN) <= UA_CPU)
		SKIP(return, "needs CPU %d", UA_CPU);
	ASSERT_EQ(0, write_int(USER_ACCESS, 1));
	hw_attr(&attr, self->pmu.type, EV_CPU_CYCLES, 0);
	fd = sys_perf_event_open(&attr, -1, UA_CPU, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("cycles on CPU %d: %s", UA_CPU,
				strerror(errno));
	ASSERT_EQ(0, pipe(go));
	ASSERT_EQ(0, pipe(ready));
	ASSERT_EQ(0, pipe(out));

	a = fork();
	ASSERT_LE(0, a);
	if (!a)
		ua_owner(self->pmu.type, go[0], ready[1]);
	ASSERT_EQ(1, read(ready[0], &c, 1));
	ASSERT_EQ(1, c) TH_LOG("task A has no EL0 access to begin with");
	b = fork();
	ASSERT_LE(0, b);
	if (!b)
		ua_reader(go[0], out[1]);
	close(out[1]);
	ASSERT_EQ(2, write(go[1], "gg", 2));

	EXPECT_EQ(sizeof(res), read(out[0], res, sizeof(res)));
	ASSERT_EQ(b, waitpid(b, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("task B: status 0x%x", status);
	ASSERT_EQ(a, waitpid(a, &status, 0));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status))
		TH_LOG("task A: status 0x%x", status);
	TH_LOG("task B: %d reads of the cycle counter worked, %d trapped",
	       res[0], res[1]);
	EXPECT_EQ(0, res[0]);
	EXPECT_LT(0, res[1]);
	EXPECT_LT(0, read_value(fd));
	close(fd);
}

/* 1 if CPU 1 is online, 0 if not, -1 if that cannot be told. */
static int cpu_online(void)
{
	int on;

	return read_int(HP_ONLINE, &on) ? -1 : on == 1;
}

/*
 * Hotplug runs only in the test guests, whose kernel command line
 * carries harness.plan=: offlining a CPU of a developer's machine is not
 * a thing a selftest should do unasked.
 */
static int in_test_guest(void)
{
	char buf[4096];

	return !read_text("/proc", "cmdline", buf, sizeof(buf)) &&
	       strstr(buf, "harness.plan=");
}

FIXTURE(hp) {
	struct pmuv3 pmu;
};

FIXTURE_SETUP(hp)
{
	if (find_pmuv3(&self->pmu))
		SKIP(return, "no %s* PMU in %s", PMU_PREFIX, PMU_DEVICES);
	if (!in_test_guest())
		SKIP(return, "offlines CPU %d: runs only in the test guest",
		     HP_CPU);
	if (sysconf(_SC_NPROCESSORS_CONF) <= HP_CPU ||
	    access(HP_ONLINE, W_OK) || cpu_online() < 0)
		SKIP(return, "CPU %d cannot be taken offline", HP_CPU);
	if (!cpu_online())
		ASSERT_EQ(0, write_int(HP_ONLINE, 1));
}

FIXTURE_TEARDOWN_PARENT(hp)
{
	if (cpu_online() == 0 && write_int(HP_ONLINE, 1))
		TH_LOG("could not bring CPU %d back online", HP_CPU);
}

/* Burn CPU time in a child pinned to CPU @cpu; 0 if that worked. */
static int burn_on(int cpu)
{
	pid_t pid;
	int go;

	pid = fork_waiting_burner(BURN_NS, &go);
	if (pid < 0)
		return -1;
	if (pin_to_cpu(pid, cpu)) {
		release_child(pid, go);
		return -1;
	}
	return release_child(pid, go);
}

/*
 * A CPU-wide cycles event on CPU 1 across an offline / online cycle:
 * frozen while the CPU is away, readable afterwards; a new event on the
 * returned CPU counts, so the PMU was set up again.  Whether the old
 * event resumes is only logged: mainline leaves it stopped.
 */
TEST_F(hp, cpu_cycles_across_offline)
{
	struct perf_event_attr attr;
	struct reading a, b, c, d;
	__u64 fresh;
	int fd, fd2;

	hw_attr(&attr, self->pmu.type, EV_CPU_CYCLES, 0);
	attr.read_format = TIMES;
	fd = sys_perf_event_open(&attr, -1, HP_CPU, -1, 0);
	ASSERT_LE(0, fd) TH_LOG("cycles on CPU %d: %s", HP_CPU,
				strerror(errno));
	ASSERT_EQ(0, burn_on(HP_CPU));
	ASSERT_EQ(0, read_times(fd, &a));
	EXPECT_LT(0, a.value);
	EXPECT_LT(0, a.running);

	ASSERT_EQ(0, write_int(HP_ONLINE, 0)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, read_times(fd, &b));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, read_times(fd, &c));
	EXPECT_LE(a.value, b.value);
	EXPECT_EQ(b.value, c.value);
	EXPECT_EQ(b.running, c.running);

	ASSERT_EQ(0, write_int(HP_ONLINE, 1)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, burn_on(HP_CPU));
	ASSERT_EQ(0, read_times(fd, &d));
	EXPECT_LE(c.value, d.value);
	EXPECT_LE(d.running, d.enabled);
	TH_LOG("old event after online: %s (%llu -> %llu)",
	       d.value > c.value ? "counts again" : "stays stopped",
	       (unsigned long long)c.value, (unsigned long long)d.value);

	attr.read_format = 0;
	fd2 = sys_perf_event_open(&attr, -1, HP_CPU, -1, 0);
	ASSERT_LE(0, fd2) TH_LOG("new event: %s", strerror(errno));
	ASSERT_EQ(0, burn_on(HP_CPU));
	fresh = read_value(fd2);
	EXPECT_NE(~0ULL, fresh);
	EXPECT_LT(0, fresh);
	close(fd2);
	close(fd);
}

TEST_HARNESS_MAIN
