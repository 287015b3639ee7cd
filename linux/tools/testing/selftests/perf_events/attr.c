// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): struct perf_event_attr size negotiation and
 * argument validation.  Only software events are used so that the test
 * runs on machines without a hardware PMU.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#ifndef PERF_ATTR_SIZE_VER8
#define PERF_ATTR_SIZE_VER8	136
#endif

/* Offset of the u64 that holds disabled, inherit, ... __reserved_1. */
#define ATTR_FLAGS_OFFSET	40

/* Offsets of the padding after sample_max_stack and aux_sample_size. */
#define ATTR_RESERVED_2_OFFSET	offsetof(struct perf_event_attr, __reserved_2)
#define ATTR_RESERVED_3_OFFSET	\
	(offsetof(struct perf_event_attr, aux_sample_size) + sizeof(__u32))

/* Big enough for any attr size the tests below hand to the kernel. */
#define ATTR_BUF_SIZE		512

/* Zero @len bytes at @buf and describe a task-clock event in them. */
static struct perf_event_attr *task_clock_attr(void *buf, size_t len,
					       __u32 size)
{
	struct perf_event_attr *attr = buf;

	memset(buf, 0, len);
	attr->type = PERF_TYPE_SOFTWARE;
	attr->config = PERF_COUNT_SW_TASK_CLOCK;
	attr->size = size;
	return attr;
}

/* Open @attr for the calling task and return the errno, 0 on success. */
static int open_errno(void *attr, pid_t pid, int cpu, int group_fd,
		      unsigned long flags)
{
	int fd = sys_perf_event_open(attr, pid, cpu, group_fd, flags);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* Ask the kernel for its attr size via the E2BIG write-back. */
static __u32 kernel_attr_size(void)
{
	__u64 buf[ATTR_BUF_SIZE / 8];
	struct perf_event_attr *attr;

	attr = task_clock_attr(buf, sizeof(buf), ATTR_BUF_SIZE);
	((char *)buf)[ATTR_BUF_SIZE - 1] = 1;
	if (sys_perf_event_open(attr, 0, -1, -1, 0) >= 0 || errno != E2BIG)
		return 0;
	return attr->size;
}

TEST(size_zero_means_ver0)
{
	__u64 buf[ATTR_BUF_SIZE / 8];
	struct perf_event_attr *attr = task_clock_attr(buf, sizeof(buf), 0);
	int fd;

	fd = sys_perf_event_open(attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("size 0 rejected: %s", strerror(errno));
	close(fd);
}

TEST(published_sizes_accepted)
{
	static const __u32 sizes[] = {
		PERF_ATTR_SIZE_VER0, PERF_ATTR_SIZE_VER1, PERF_ATTR_SIZE_VER2,
		PERF_ATTR_SIZE_VER3, PERF_ATTR_SIZE_VER4, PERF_ATTR_SIZE_VER5,
		PERF_ATTR_SIZE_VER6, PERF_ATTR_SIZE_VER7, PERF_ATTR_SIZE_VER8,
	};
	__u64 buf[ATTR_BUF_SIZE / 8];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		task_clock_attr(buf, sizeof(buf), sizes[i]);
		EXPECT_EQ(0, open_errno(buf, 0, -1, -1, 0))
			TH_LOG("attr size %u rejected", sizes[i]);
	}
}

TEST(larger_size_with_zero_tail_accepted)
{
	long page = sysconf(_SC_PAGESIZE);
	char *buf = calloc(1, page);

	ASSERT_NE(NULL, buf);
	task_clock_attr(buf, page, ATTR_BUF_SIZE);
	EXPECT_EQ(0, open_errno(buf, 0, -1, -1, 0));
	/* The man page allows sizes up to one page. */
	task_clock_attr(buf, page, page);
	EXPECT_EQ(0, open_errno(buf, 0, -1, -1, 0));
	free(buf);
}

TEST(nonzero_tail_gives_e2big_and_kernel_size)
{
	__u64 buf[ATTR_BUF_SIZE / 8];
	struct perf_event_attr *attr;
	__u32 ksize;
	int fd;

	attr = task_clock_attr(buf, sizeof(buf), ATTR_BUF_SIZE);
	((char *)buf)[ATTR_BUF_SIZE - 1] = 1;
	fd = sys_perf_event_open(attr, 0, -1, -1, 0);
	ASSERT_EQ(-1, fd);
	ASSERT_EQ(E2BIG, errno);

	ksize = attr->size;
	TH_LOG("kernel perf_event_attr size: %u", ksize);
	ASSERT_GE(ksize, PERF_ATTR_SIZE_VER8);
	ASSERT_LT(ksize, ATTR_BUF_SIZE);
	ASSERT_EQ(0, ksize % 8);

	/* The first byte the kernel does not know about must be zero ... */
	task_clock_attr(buf, sizeof(buf), ksize + 8);
	((char *)buf)[ksize] = 1;
	EXPECT_EQ(E2BIG, open_errno(buf, 0, -1, -1, 0));
	/* ... while the last byte it does know is not part of the tail. */
	task_clock_attr(buf, sizeof(buf), ksize + 8);
	((char *)buf)[ksize - 1] = 1;
	EXPECT_NE(E2BIG, open_errno(buf, 0, -1, -1, 0));
	/* The reported size itself is always acceptable. */
	task_clock_attr(buf, sizeof(buf), ksize);
	EXPECT_EQ(0, open_errno(buf, 0, -1, -1, 0));
}

TEST(too_small_size_gives_e2big)
{
	__u64 buf[ATTR_BUF_SIZE / 8];
	struct perf_event_attr *attr;
	__u32 ksize = kernel_attr_size();

	ASSERT_NE(0, ksize);
	attr = task_clock_attr(buf, sizeof(buf), PERF_ATTR_SIZE_VER0 - 8);
	ASSERT_EQ(-1, sys_perf_event_open(attr, 0, -1, -1, 0));
	ASSERT_EQ(E2BIG, errno);
	EXPECT_EQ(ksize, attr->size);
}

TEST(size_above_page_gives_e2big)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr *attr;
	char *buf = calloc(1, page + 64);
	__u32 ksize = kernel_attr_size();

	ASSERT_NE(NULL, buf);
	ASSERT_NE(0, ksize);
	attr = task_clock_attr(buf, page + 64, page + 8);
	EXPECT_EQ(-1, sys_perf_event_open(attr, 0, -1, -1, 0));
	EXPECT_EQ(E2BIG, errno);
	EXPECT_EQ(ksize, attr->size);
	free(buf);
}

TEST(bad_attr_pointer_efault)
{
	EXPECT_EQ(-1, sys_perf_event_open(NULL, 0, -1, -1, 0));
	EXPECT_EQ(EFAULT, errno);
}

TEST(unknown_type_enoent)
{
	struct perf_event_attr attr;

	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	attr.type = 0x7ffffff0;
	EXPECT_EQ(ENOENT, open_errno(&attr, 0, -1, -1, 0));
}

TEST(unknown_software_config_enoent)
{
	struct perf_event_attr attr;

	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	attr.config = PERF_COUNT_SW_MAX;
	EXPECT_EQ(ENOENT, open_errno(&attr, 0, -1, -1, 0));
	attr.config = 0x10000;
	EXPECT_EQ(ENOENT, open_errno(&attr, 0, -1, -1, 0));
}

TEST(invalid_flags_einval)
{
	struct perf_event_attr attr;

	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	EXPECT_EQ(EINVAL, open_errno(&attr, 0, -1, -1, 1UL << 4));
	EXPECT_EQ(EINVAL, open_errno(&attr, 0, -1, -1, 1UL << 31));
	EXPECT_EQ(EINVAL, open_errno(&attr, 0, -1, -1, ~0UL));
}

TEST(cloexec_flag)
{
	struct perf_event_attr attr;
	int fd;

	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	fd = sys_perf_event_open(&attr, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	ASSERT_GE(fd, 0);
	EXPECT_TRUE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);

	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0);
	EXPECT_FALSE(fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
}

TEST(bad_group_fd_ebadf)
{
	struct perf_event_attr attr;
	int closed_fd, pipefd[2];

	task_clock_attr(&attr, sizeof(attr), sizeof(attr));

	closed_fd = dup(0);
	ASSERT_GE(closed_fd, 0);
	close(closed_fd);
	EXPECT_EQ(EBADF, open_errno(&attr, 0, -1, closed_fd, 0));

	/* An open file that is not a perf event is not a valid group_fd. */
	ASSERT_EQ(0, pipe(pipefd));
	EXPECT_EQ(EBADF, open_errno(&attr, 0, -1, pipefd[0], 0));
	close(pipefd[0]);
	close(pipefd[1]);
}

TEST(nonexistent_pid_esrch)
{
	struct perf_event_attr attr;
	pid_t child;

	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	/* Larger than any possible pid_max. */
	EXPECT_EQ(ESRCH, open_errno(&attr, INT_MAX, -1, -1, 0));

	/* A task that has exited and been reaped. */
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(0);
	ASSERT_EQ(child, waitpid(child, NULL, 0));
	EXPECT_EQ(ESRCH, open_errno(&attr, child, -1, -1, 0));
}

TEST(pid_and_cpu_both_minus_one_einval)
{
	struct perf_event_attr attr;

	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	EXPECT_EQ(EINVAL, open_errno(&attr, -1, -1, -1, 0));
}

/* Number of possible CPUs, from the highest id in the sysfs range list. */
static int possible_cpus(void)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int lo, hi = -1;
	char sep;

	if (f) {
		while (fscanf(f, "%d%c", &lo, &sep) == 2) {
			hi = lo;
			if (sep == '\n')
				break;
		}
		fclose(f);
	}
	if (hi < 0)
		return sysconf(_SC_NPROCESSORS_CONF);
	return hi + 1;
}

TEST(cpu_out_of_range_einval)
{
	struct perf_event_attr attr;
	int ncpus = possible_cpus();

	ASSERT_GT(ncpus, 0);
	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	EXPECT_EQ(EINVAL, open_errno(&attr, 0, ncpus, -1, 0))
		TH_LOG("cpu %d (= number of possible cpus)", ncpus);
	EXPECT_EQ(EINVAL, open_errno(&attr, 0, INT_MAX, -1, 0));
	EXPECT_EQ(EINVAL, open_errno(&attr, 0, -2, -1, 0));
	/* cpu 0 always exists. */
	EXPECT_EQ(0, open_errno(&attr, 0, 0, -1, 0));
}

TEST(reserved_flag_bits_einval)
{
	struct perf_event_attr attr;
	__u64 flags;

	/* Top bit of the bitfield word: part of __reserved_1. */
	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	memcpy(&flags, (char *)&attr + ATTR_FLAGS_OFFSET, sizeof(flags));
	flags |= 1ULL << 63;
	memcpy((char *)&attr + ATTR_FLAGS_OFFSET, &flags, sizeof(flags));
	EXPECT_EQ(EINVAL, open_errno(&attr, 0, -1, -1, 0));

	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	attr.__reserved_1 = 1;
	EXPECT_EQ(EINVAL, open_errno(&attr, 0, -1, -1, 0));
}

TEST(reserved_padding_einval)
{
	__u64 buf[ATTR_BUF_SIZE / 8];
	__u16 pad16 = 1;
	__u32 word;

	/* __reserved_2, the u16 after sample_max_stack. */
	task_clock_attr(buf, sizeof(buf), PERF_ATTR_SIZE_VER8);
	memcpy((char *)buf + ATTR_RESERVED_2_OFFSET, &pad16, sizeof(pad16));
	EXPECT_EQ(EINVAL, open_errno(buf, 0, -1, -1, 0));

	/*
	 * The u32 after aux_sample_size: only its low bits have ever been
	 * given a meaning (AUX actions), the top bit is reserved.
	 */
	task_clock_attr(buf, sizeof(buf), PERF_ATTR_SIZE_VER8);
	word = 1U << 31;
	memcpy((char *)buf + ATTR_RESERVED_3_OFFSET, &word, sizeof(word));
	EXPECT_EQ(EINVAL, open_errno(buf, 0, -1, -1, 0));
}

TEST(unknown_read_format_and_sample_type_einval)
{
	struct perf_event_attr attr;

	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	attr.read_format = 1ULL << 40;
	EXPECT_EQ(EINVAL, open_errno(&attr, 0, -1, -1, 0));

	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	attr.sample_type = 1ULL << 60;
	EXPECT_EQ(EINVAL, open_errno(&attr, 0, -1, -1, 0));
}

/*
 * The software PMUs have no branch records: EOPNOTSUPP, tested before the
 * config, so that even a config no software PMU knows gives it.
 */
TEST(branch_stack_on_software_events_eopnotsupp)
{
	static const __u64 configs[] = {
		PERF_COUNT_SW_CPU_CLOCK, PERF_COUNT_SW_TASK_CLOCK,
		PERF_COUNT_SW_PAGE_FAULTS, PERF_COUNT_SW_DUMMY, 0x2f,
	};
	struct perf_event_attr attr;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(configs); i++) {
		task_clock_attr(&attr, sizeof(attr), sizeof(attr));
		attr.config = configs[i];
		attr.exclude_kernel = 1;
		attr.sample_period = 1000;
		attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_BRANCH_STACK;
		attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY |
					  PERF_SAMPLE_BRANCH_USER;
		EXPECT_EQ(EOPNOTSUPP, open_errno(&attr, 0, -1, -1, 0))
			TH_LOG("software config %llu", (unsigned long long)configs[i]);
	}
}

/*
 * Where an attr is wrong in more than one way, the PMU's refusal comes
 * first: before a callchain deeper than perf_event_max_stack (EOVERFLOW),
 * an unknown clockid (EINVAL) and a cgroup fd that is no cgroup.
 */
TEST(pmu_refusal_comes_before_later_checks)
{
	struct perf_event_attr attr;
	int fd;

	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	attr.config = 0x2f;			/* no software PMU has it */
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_CALLCHAIN;
	attr.sample_max_stack = 0xffff;
	EXPECT_EQ(ENOENT, open_errno(&attr, 0, -1, -1, 0));
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	EXPECT_EQ(EOVERFLOW, open_errno(&attr, 0, -1, -1, 0));

	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	attr.config = 0x2f;
	attr.use_clockid = 1;
	attr.clockid = 0x7fff;
	EXPECT_EQ(ENOENT, open_errno(&attr, 0, -1, -1, 0));
	attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	EXPECT_EQ(EINVAL, open_errno(&attr, 0, -1, -1, 0));

	fd = open("/", O_RDONLY | O_DIRECTORY);	/* a directory, not a cgroup */
	ASSERT_GE(fd, 0);
	task_clock_attr(&attr, sizeof(attr), sizeof(attr));
	attr.config = 0x2f;
	EXPECT_EQ(ENOENT, open_errno(&attr, fd, 0, -1, PERF_FLAG_PID_CGROUP));
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 1000;
	attr.sample_type = PERF_SAMPLE_BRANCH_STACK;
	attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	EXPECT_EQ(EOPNOTSUPP, open_errno(&attr, fd, 0, -1, PERF_FLAG_PID_CGROUP));
	close(fd);
}

/*
 * HARDWARE and HW_CACHE configs may name a PMU in bits 32-63.  A type
 * that names no PMU gets the answer of an unnamed config: every PMU is
 * asked (arm64: PMUv3 refuses the config with EINVAL; no CPU PMU:
 * ENOENT).  Found by the differential checker.
 */
TEST(extended_type_naming_no_pmu)
{
	static const struct {
		__u32 type;
		__u64 config;
	} cases[] = {
		{ PERF_TYPE_HARDWARE, 0x6d5e00bd },
		{ PERF_TYPE_HARDWARE, PERF_COUNT_HW_MAX },
		{ PERF_TYPE_HW_CACHE, 0xffffffff },
		{ PERF_TYPE_HW_CACHE, 0x7fffffff },
	};
	struct perf_event_attr attr;
	unsigned int i;
	int plain;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = cases[i].type;
		attr.config = cases[i].config;
		attr.exclude_kernel = 1;
		plain = open_errno(&attr, 0, -1, -1, 0);
		attr.config |= 0x7fffffffULL << 32;
		EXPECT_EQ(plain, open_errno(&attr, 0, -1, -1, 0))
			TH_LOG("type %u config %#llx", cases[i].type,
			       (unsigned long long)cases[i].config);
	}
}

TEST_HARNESS_MAIN
