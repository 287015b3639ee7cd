// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): the read(2) layouts of every read_format
 * combination (TOTAL_TIME_ENABLED, TOTAL_TIME_RUNNING, ID, GROUP, LOST):
 * their exact sizes, ENOSPC for a buffer one byte short, the two times
 * while enabled, disabled and never enabled, group members with read
 * formats of their own, and inherited counts folded into the parent's
 * read once the child has exited.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define TE		PERF_FORMAT_TOTAL_TIME_ENABLED
#define TR		PERF_FORMAT_TOTAL_TIME_RUNNING
#define ID		PERF_FORMAT_ID
#define GRP		PERF_FORMAT_GROUP
#define LOST		PERF_FORMAT_LOST
#define ALL_FORMATS	(TE | TR | ID | GRP | LOST)

#define BURN_NS		(10 * 1000 * 1000LL)
#define CHILD_BURN_NS	(50 * 1000 * 1000LL)
#define MAX_MEMBERS	4
#define BUF_WORDS	32

static int open_clock(__u64 read_format, int disabled, int inherit,
		      int group_fd)
{
	struct perf_event_attr attr;

	sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
	attr.read_format = read_format;
	attr.disabled = disabled;
	attr.inherit = inherit;
	return sys_perf_event_open(&attr, 0, -1, group_fd, 0);
}

/* The documented size of a read with @fmt from a group of @nr events. */
static size_t layout_size(__u64 fmt, int nr)
{
	size_t words;

	words = !!(fmt & TE) + !!(fmt & TR);
	if (fmt & GRP)
		words += 1 + nr * (1 + !!(fmt & ID) + !!(fmt & LOST));
	else
		words += 1 + !!(fmt & ID) + !!(fmt & LOST);
	return words * sizeof(__u64);
}

/* A read decoded by its read_format. */
struct reading {
	__u64 nr;
	__u64 enabled;
	__u64 running;
	__u64 value[MAX_MEMBERS];
	__u64 id[MAX_MEMBERS];
	__u64 lost[MAX_MEMBERS];
};

/*
 * Decode @buf as documented:
 *   no GROUP: value, [enabled], [running], [id], [lost]
 *   GROUP:    nr, [enabled], [running], { value, [id], [lost] } x nr
 */
static int decode(__u64 fmt, const __u64 *buf, struct reading *r)
{
	const __u64 *p = buf;
	__u64 i;

	memset(r, 0, sizeof(*r));
	if (fmt & GRP) {
		r->nr = *p++;
		if (r->nr < 1 || r->nr > MAX_MEMBERS)
			return -1;
	} else {
		r->nr = 1;
		r->value[0] = *p++;
	}
	if (fmt & TE)
		r->enabled = *p++;
	if (fmt & TR)
		r->running = *p++;
	for (i = 0; i < r->nr; i++) {
		if (fmt & GRP)
			r->value[i] = *p++;
		if (fmt & ID)
			r->id[i] = *p++;
		if (fmt & LOST)
			r->lost[i] = *p++;
	}
	return 0;
}

/* Read @fd, expecting exactly layout_size(@fmt, @nr) bytes. */
static int read_exact(int fd, __u64 fmt, int nr, struct reading *r)
{
	__u64 buf[BUF_WORDS];
	size_t size = layout_size(fmt, nr);

	memset(buf, 0xff, sizeof(buf));
	if (read(fd, buf, sizeof(buf)) != (ssize_t)size)
		return -1;
	/* Nothing is written past the layout. */
	if (buf[size / sizeof(__u64)] != ~0ULL)
		return -1;
	return decode(fmt, buf, r);
}

static const char *fmt_name(__u64 fmt)
{
	static char s[64];

	snprintf(s, sizeof(s), "%s%s%s%s%s",
		 fmt & GRP ? "GROUP " : "", fmt & TE ? "ENABLED " : "",
		 fmt & TR ? "RUNNING " : "", fmt & ID ? "ID " : "",
		 fmt & LOST ? "LOST" : "");
	return s;
}

/*
 * Open a group of @nr task-clock events, all with @fmt; the ids go into
 * @id. Returns 0 or -1; opened fds are in @fd (others are -1).
 */
static int open_group(__u64 fmt, int nr, int disabled, int *fd, __u64 *id)
{
	int i;

	for (i = 0; i < MAX_MEMBERS; i++)
		fd[i] = -1;
	for (i = 0; i < nr; i++) {
		fd[i] = open_clock(fmt, disabled, 0, i ? fd[0] : -1);
		if (fd[i] < 0 || ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]))
			return -1;
	}
	return 0;
}

static void close_all(int *fd, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (fd[i] >= 0)
			close(fd[i]);
}

/* Find @id among the @nr ids of @r; -1 if absent or repeated. */
static int find_id(const struct reading *r, __u64 id)
{
	int i, at = -1;

	for (i = 0; i < (int)r->nr; i++) {
		if (r->id[i] != id)
			continue;
		if (at >= 0)
			return -1;
		at = i;
	}
	return at;
}

/*
 * Every combination of the five bits: the exact size, and each field.
 * GROUP formats are read from a lone leader and from a group of three.
 */
TEST(every_layout)
{
	int fd[MAX_MEMBERS], nr, i;
	__u64 fmt, id[MAX_MEMBERS];
	struct reading r;

	for (fmt = 0; fmt <= ALL_FORMATS; fmt++) {
		for (nr = 1; nr <= 3; nr += 2) {
			if (nr > 1 && !(fmt & GRP))
				continue;
			ASSERT_EQ(0, open_group(fmt, nr, 0, fd, id))
				TH_LOG("%s x%d: %s", fmt_name(fmt), nr,
				       strerror(errno));
			burn_cpu(BURN_NS / 4);
			ASSERT_EQ(0, read_exact(fd[0], fmt, nr, &r))
				TH_LOG("%s x%d: expected %zu bytes",
				       fmt_name(fmt), nr,
				       layout_size(fmt, nr));
			EXPECT_EQ(nr, r.nr);
			for (i = 0; i < nr; i++)
				EXPECT_GT(r.value[i], 0);
			if (fmt & TE)
				EXPECT_GT(r.enabled, 0);
			if (fmt & TR)
				EXPECT_GT(r.running, 0);
			if ((fmt & TE) && (fmt & TR))
				EXPECT_GE(r.enabled, r.running);
			for (i = 0; (fmt & ID) && i < nr; i++)
				EXPECT_LE(0, find_id(&r, id[i]))
					TH_LOG("%s: id of member %d",
					       fmt_name(fmt), i);
			/* Counting events lose nothing. */
			for (i = 0; i < nr; i++)
				EXPECT_EQ(0, r.lost[i]);
			close_all(fd, nr);
		}
	}
}

/* A buffer one byte short of the layout gives ENOSPC. */
TEST(short_buffer_enospc)
{
	int fd[MAX_MEMBERS], nr;
	__u64 fmt, id[MAX_MEMBERS], buf[BUF_WORDS];
	size_t size;

	for (fmt = 0; fmt <= ALL_FORMATS; fmt++) {
		nr = fmt & GRP ? 3 : 1;
		ASSERT_EQ(0, open_group(fmt, nr, 0, fd, id));
		size = layout_size(fmt, nr);
		EXPECT_EQ(-1, read(fd[0], buf, size - 1))
			TH_LOG("%s: %zu bytes", fmt_name(fmt), size - 1);
		EXPECT_EQ(ENOSPC, errno);
		EXPECT_EQ(-1, read(fd[0], buf, 1));
		EXPECT_EQ(ENOSPC, errno);
		EXPECT_EQ(size, read(fd[0], buf, size));
		close_all(fd, nr);
	}
}

/* Adding a sibling grows the leader's GROUP layout by one entry. */
TEST(group_size_follows_members)
{
	__u64 fmt = GRP | TE | ID, buf[BUF_WORDS];
	int fd[MAX_MEMBERS], i;

	for (i = 0; i < MAX_MEMBERS; i++) {
		fd[i] = open_clock(fmt, 0, 0, i ? fd[0] : -1);
		ASSERT_GE(fd[i], 0) TH_LOG("member %d: %s", i,
					   strerror(errno));
		EXPECT_EQ(layout_size(fmt, i + 1),
			  read(fd[0], buf, sizeof(buf)));
		EXPECT_EQ(i + 1, buf[0]);
		if (i) {
			/* The size that fitted one member fewer is short. */
			EXPECT_EQ(-1, read(fd[0], buf, layout_size(fmt, i)));
			EXPECT_EQ(ENOSPC, errno);
		}
	}
	close_all(fd, MAX_MEMBERS);
}

static int read_times(int fd, __u64 *value, __u64 *enabled, __u64 *running)
{
	__u64 buf[3];

	if (read(fd, buf, sizeof(buf)) != sizeof(buf))
		return -1;
	*value = buf[0];
	*enabled = buf[1];
	*running = buf[2];
	return *running <= *enabled ? 0 : -1;
}

/* Both times advance while enabled and stop while disabled. */
TEST(times_follow_enable_state)
{
	__u64 v[3], e[3], r[3];
	int fd;

	fd = open_clock(TE | TR, 0, 0, -1);
	ASSERT_GE(fd, 0) TH_LOG("task-clock: %s", strerror(errno));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, read_times(fd, &v[0], &e[0], &r[0]));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_DISABLE, 0));
	ASSERT_EQ(0, read_times(fd, &v[1], &e[1], &r[1]));
	EXPECT_GT(v[1], v[0]);
	EXPECT_GT(e[1], e[0]);
	EXPECT_GT(r[1], r[0]);

	burn_cpu(BURN_NS);
	usleep(10000);
	ASSERT_EQ(0, read_times(fd, &v[2], &e[2], &r[2]));
	EXPECT_EQ(v[1], v[2]);
	EXPECT_EQ(e[1], e[2]);
	EXPECT_EQ(r[1], r[2]);

	ASSERT_EQ(0, ioctl(fd, PERF_EVENT_IOC_ENABLE, 0));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, read_times(fd, &v[0], &e[0], &r[0]));
	EXPECT_GT(v[0], v[2]);
	EXPECT_GT(e[0], e[2]);
	EXPECT_GT(r[0], r[2]);
	close(fd);
}

/* An event that was never enabled has both times at zero. */
TEST(never_enabled_times_zero)
{
	__u64 fmt, id[MAX_MEMBERS];
	int fd[MAX_MEMBERS], nr, i;
	struct reading r;

	for (fmt = TE; fmt <= (GRP | TE | TR); fmt++) {
		if (!(fmt & (TE | TR)) || (fmt & (ID | LOST)))
			continue;
		nr = fmt & GRP ? 2 : 1;
		ASSERT_EQ(0, open_group(fmt, nr, 1, fd, id));
		burn_cpu(BURN_NS);
		usleep(10000);
		ASSERT_EQ(0, read_exact(fd[0], fmt, nr, &r));
		EXPECT_EQ(0, r.enabled) TH_LOG("%s", fmt_name(fmt));
		EXPECT_EQ(0, r.running) TH_LOG("%s", fmt_name(fmt));
		for (i = 0; i < nr; i++)
			EXPECT_EQ(0, r.value[i]);
		close_all(fd, nr);
	}
}

/*
 * Members with read formats of their own: a GROUP read returns the whole
 * group in the format of the fd it is issued on; a non-GROUP read returns
 * that member alone.
 */
TEST(group_members_own_formats)
{
	static const __u64 fmt[MAX_MEMBERS] = {
		GRP | TE | ID,
		0,
		GRP | TR | LOST,
		ID | LOST | TE,
	};
	__u64 id[MAX_MEMBERS];
	int fd[MAX_MEMBERS], i;
	struct reading r;

	for (i = 0; i < MAX_MEMBERS; i++) {
		fd[i] = open_clock(fmt[i], 0, 0, i ? fd[0] : -1);
		ASSERT_GE(fd[i], 0) TH_LOG("member %d: %s", i,
					   strerror(errno));
		ASSERT_EQ(0, ioctl(fd[i], PERF_EVENT_IOC_ID, &id[i]));
	}
	burn_cpu(BURN_NS);

	/* The leader: nr, enabled, { value, id } x 4. */
	ASSERT_EQ(0, read_exact(fd[0], fmt[0], MAX_MEMBERS, &r));
	EXPECT_EQ(MAX_MEMBERS, r.nr);
	EXPECT_GT(r.enabled, 0);
	for (i = 0; i < MAX_MEMBERS; i++) {
		EXPECT_LE(0, find_id(&r, id[i])) TH_LOG("member %d", i);
		EXPECT_GT(r.value[i], 0);
	}

	/* Member 1: its own value only. */
	ASSERT_EQ(0, read_exact(fd[1], fmt[1], 1, &r));
	EXPECT_GT(r.value[0], 0);

	/* Member 2: nr, running, { value, lost } x 4. */
	ASSERT_EQ(0, read_exact(fd[2], fmt[2], MAX_MEMBERS, &r));
	EXPECT_EQ(MAX_MEMBERS, r.nr);
	EXPECT_GT(r.running, 0);
	for (i = 0; i < MAX_MEMBERS; i++) {
		EXPECT_GT(r.value[i], 0);
		EXPECT_EQ(0, r.lost[i]);
	}

	/* Member 3: value, enabled, id, lost. */
	ASSERT_EQ(0, read_exact(fd[3], fmt[3], 1, &r));
	EXPECT_GT(r.value[0], 0);
	EXPECT_GT(r.enabled, 0);
	EXPECT_EQ(id[3], r.id[0]);
	EXPECT_EQ(0, r.lost[0]);
	close_all(fd, MAX_MEMBERS);
}

/* Fork a child that burns CHILD_BURN_NS of CPU and exits; reap it. */
static int run_child(void)
{
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0) {
		burn_cpu(CHILD_BURN_NS);
		_exit(0);
	}
	return reap_child(pid);
}

/*
 * Once an inheriting child has exited (and been waited for), its count
 * and times are part of what the parent's fd reads, in every non-GROUP
 * format; the layout itself does not change.
 */
TEST(inherited_counts_folded)
{
	struct reading inh, own;
	__u64 fmt, id;
	int fi, fo;

	for (fmt = 0; fmt <= ALL_FORMATS; fmt++) {
		if (fmt & GRP)
			continue;
		fi = open_clock(fmt, 0, 1, -1);
		fo = open_clock(fmt, 0, 0, -1);
		ASSERT_GE(fi, 0) TH_LOG("%s: %s", fmt_name(fmt),
					strerror(errno));
		ASSERT_GE(fo, 0);
		ASSERT_EQ(0, ioctl(fi, PERF_EVENT_IOC_ID, &id));
		ASSERT_EQ(0, run_child());
		ASSERT_EQ(0, read_exact(fi, fmt, 1, &inh))
			TH_LOG("%s", fmt_name(fmt));
		ASSERT_EQ(0, read_exact(fo, fmt, 1, &own));
		EXPECT_GE(inh.value[0], own.value[0] + CHILD_BURN_NS / 2)
			TH_LOG("%s: inherited %llu, own %llu", fmt_name(fmt),
			       (unsigned long long)inh.value[0],
			       (unsigned long long)own.value[0]);
		if (fmt & TE)
			EXPECT_GE(inh.enabled, CHILD_BURN_NS / 2);
		if (fmt & TR)
			EXPECT_GE(inh.running, CHILD_BURN_NS / 2);
		if ((fmt & TE) && (fmt & TR))
			EXPECT_GE(inh.enabled, inh.running);
		if (fmt & ID)
			EXPECT_EQ(id, inh.id[0]);
		EXPECT_EQ(0, inh.lost[0]);
		close(fi);
		close(fo);
	}
}

TEST_HARNESS_MAIN
