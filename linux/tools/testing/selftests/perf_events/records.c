// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_open(2): the side-band records sampling.c leaves out.
 * THROTTLE and UNTHROTTLE when a sampler overflows faster than
 * perf_event_max_sample_rate allows; NAMESPACES for a new child; KSYMBOL
 * and BPF_EVENT for a BPF program loaded and freed; TEXT_POKE when kernel
 * text is patched (x86 only: no other architecture reports it); MMAP2
 * with the build-id instead of the inode; MMAP for a path too long for a
 * short buffer; MMAP and MMAP2 of a file through overlayfs; records written
 * whole, with no byte of an older record left in them.
 *
 * Records come from the dummy event on this task, or from the sampler
 * itself.  Tests that change a sysctl put it back in their teardown.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/bpf.h>
#include <linux/elf.h>
#include <linux/perf_event.h>

#include "../kselftest_harness.h"
#include "perf_helpers.h"

#define REC_MAX		8192
#define MAX_RATE_PATH	"/proc/sys/kernel/perf_event_max_sample_rate"

/* A disabled dummy event on this task, for side-band records. */
static void dummy_attr(struct perf_event_attr *attr)
{
	sw_attr(attr, PERF_COUNT_SW_DUMMY);
	attr->disabled = 1;
	attr->exclude_kernel = 1;
	attr->exclude_hv = 1;
}

/* ---------------------------------------------------------------------
 * THROTTLE and UNTHROTTLE
 */

FIXTURE(throttle)
{
	int saved_rate;
};

FIXTURE_SETUP(throttle)
{
	if (read_int(MAX_RATE_PATH, &self->saved_rate))
		self->saved_rate = 0;
}

FIXTURE_TEARDOWN(throttle)
{
	if (self->saved_rate > 0)
		write_int(MAX_RATE_PATH, self->saved_rate);
}

/*
 * A cpu-clock sampler every 10 us against a limit of 100 samples a
 * second: the limit per tick (one) is reached at once, the event is
 * throttled (THROTTLE) until a later tick lets it go on (UNTHROTTLE).
 * Both records carry time, id and stream_id, then the sample_id trailer.
 */
TEST_F(throttle, throttle_and_unthrottle_records)
{
	int fd, throttles = 0, unthrottles = 0, samples = 0, last = 0;
	__u64 buf[REC_MAX / 8], id, prev_time = 0;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	long long t0, t1;
	struct ring r;

	if (self->saved_rate <= 0)
		SKIP(return, "no %s", MAX_RATE_PATH);
	if (write_int(MAX_RATE_PATH, 100))
		SKIP(return, "cannot lower the sample rate: %s",
		     strerror(errno));

	sw_attr(&attr, PERF_COUNT_SW_CPU_CLOCK);
	attr.sample_period = 10000;
	attr.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			   PERF_SAMPLE_ID;
	attr.sample_id_all = 1;
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	attr.exclude_hv = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("cpu-clock sampler: %s", strerror(errno));
	id = event_id(fd);
	ASSERT_EQ(0, ring_map(&r, fd, 16, PROT_READ | PROT_WRITE));

	t0 = monotonic_ns();
	ASSERT_EQ(0, enable(fd));
	burn_cpu(200 * 1000 * 1000LL);
	ASSERT_EQ(0, disable(fd));
	t1 = monotonic_ns();

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			samples++;
			continue;
		}
		if (h->type != PERF_RECORD_THROTTLE &&
		    h->type != PERF_RECORD_UNTHROTTLE)
			continue;
		/* time, id, stream_id; then tid, time, id of sample_id_all */
		ASSERT_EQ(sizeof(*h) + 6 * 8, h->size);
		EXPECT_GE(buf[1], t0);
		EXPECT_LE(buf[1], t1);
		EXPECT_GE(buf[1], prev_time);
		prev_time = buf[1];
		EXPECT_EQ(id, buf[2]);
		EXPECT_EQ(id, buf[3]);
		EXPECT_EQ(getpid(), half(buf[4], 0));
		EXPECT_EQ(gettid(), half(buf[4], 1));
		EXPECT_EQ(id, buf[6]);
		/* they alternate, a throttle first */
		EXPECT_NE(last, h->type);
		last = h->type;
		if (h->type == PERF_RECORD_THROTTLE)
			throttles++;
		else
			unthrottles++;
	}
	EXPECT_FALSE(r.bad);
	TH_LOG("%d samples, %d throttles, %d unthrottles", samples, throttles,
	       unthrottles);
	EXPECT_GE(throttles, 1);
	EXPECT_GE(unthrottles, 1);
	/*
	 * 100 a second is one per tick at any HZ: the interrupt that is
	 * written throttles, and a throttled event writes nothing until a
	 * tick or its next sched-in lets it go (UNTHROTTLE).  So samples and
	 * throttles go in pairs, but for a last sample before the disable.
	 */
	EXPECT_LE(samples, throttles + 1);
	EXPECT_LE(throttles - unthrottles, 1);
	EXPECT_GE(unthrottles, throttles - 1);

	ring_unmap(&r);
	close(fd);
}

/* ---------------------------------------------------------------------
 * NAMESPACES
 */

/* The links in the record's order (NET_NS_INDEX ... CGROUP_NS_INDEX). */
static const char * const ns_names[] = {
	"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
};

TEST(namespaces_record_for_a_child)
{
	struct perf_event_attr attr;
	struct perf_event_header *h;
	__u64 buf[REC_MAX / 8];
	int fd, found = 0;
	struct ring r;
	pid_t child;
	__u64 i;

	dummy_attr(&attr);
	attr.namespaces = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	child = fork();
	ASSERT_GE(child, 0);
	if (child == 0)
		_exit(0);
	ASSERT_EQ(0, reap_child(child));
	ASSERT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_NAMESPACES)
			continue;
		/* pid, tid, nr_namespaces, then { dev, inode } each */
		ASSERT_EQ(7, buf[2]);
		ASSERT_EQ(sizeof(*h) + 2 * 8 + 7 * 16, h->size);
		if (half(buf[1], 0) != child)
			continue;
		EXPECT_EQ(child, half(buf[1], 1));
		/* the child shares all of its parent's namespaces */
		for (i = 0; i < buf[2]; i++) {
			char path[64];
			struct stat st;

			snprintf(path, sizeof(path), "/proc/self/ns/%s",
				 ns_names[i]);
			if (stat(path, &st)) {
				EXPECT_EQ(0, buf[3 + 2 * i + 1]);
				continue;
			}
			EXPECT_EQ((__u64)st.st_dev, buf[3 + 2 * i])
				TH_LOG("%s dev", ns_names[i]);
			EXPECT_EQ((__u64)st.st_ino, buf[3 + 2 * i + 1])
				TH_LOG("%s inode", ns_names[i]);
		}
		found++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(1, found);

	ring_unmap(&r);
	close(fd);
}

/* ---------------------------------------------------------------------
 * KSYMBOL and BPF_EVENT
 */

static int prog_info(int prog, struct bpf_prog_info *info)
{
	union bpf_attr attr;

	memset(info, 0, sizeof(*info));
	memset(&attr, 0, sizeof(attr));
	attr.info.bpf_fd = prog;
	attr.info.info_len = sizeof(*info);
	attr.info.info = (uintptr_t)info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &attr);
}

/* KSYMBOL: addr, len, ksym_type, flags, then the NUL-padded name */
struct ksym_rec {
	struct perf_event_header header;
	__u64 addr;
	__u32 len;
	__u16 ksym_type;
	__u16 flags;
	char name[];
};

/* BPF_EVENT: type, flags, id, tag */
struct bpf_rec {
	struct perf_event_header header;
	__u16 type;
	__u16 flags;
	__u32 id;
	__u8 tag[BPF_TAG_SIZE];
};

TEST(bpf_prog_load_and_unload_records)
{
	int fd, prog, loads = 0, unloads = 0, ksyms = 0, unregs = 0;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	struct bpf_prog_info info;
	__u64 buf[REC_MAX / 8];
	char want[128];
	struct ring r;

	dummy_attr(&attr);
	attr.ksymbol = 1;
	attr.bpf_event = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	prog = load_ret_prog(BPF_PROG_TYPE_SOCKET_FILTER, 0, "pe_records");
	if (prog < 0) {
		close(fd);
		SKIP(return, "BPF_PROG_LOAD: %s", strerror(errno));
	}
	ASSERT_EQ(0, prog_info(prog, &info)) TH_LOG("%s", strerror(errno));
	close(prog);	/* the last reference: the program goes */
	ASSERT_EQ(0, disable(fd));

	snprintf(want, sizeof(want), "bpf_prog_%02x%02x%02x%02x%02x%02x%02x%02x_pe_records",
		 info.tag[0], info.tag[1], info.tag[2], info.tag[3],
		 info.tag[4], info.tag[5], info.tag[6], info.tag[7]);
	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type == PERF_RECORD_BPF_EVENT) {
			struct bpf_rec *b = (void *)buf;

			ASSERT_EQ(sizeof(*b), h->size);
			if (b->id != info.id)
				continue;
			EXPECT_EQ(0, memcmp(b->tag, info.tag, BPF_TAG_SIZE));
			EXPECT_EQ(0, b->flags);
			if (b->type == PERF_BPF_EVENT_PROG_LOAD) {
				/* first loaded, then gone */
				EXPECT_EQ(0, unloads);
				loads++;
			} else {
				EXPECT_EQ(PERF_BPF_EVENT_PROG_UNLOAD, b->type);
				unloads++;
			}
		} else if (h->type == PERF_RECORD_KSYMBOL) {
			struct ksym_rec *k = (void *)buf;
			size_t room = h->size - sizeof(*k);

			ASSERT_GT(room, 0);
			ASSERT_EQ(0, room % 8 ? 1 : 0);
			EXPECT_EQ(0, k->name[room - 1]);
			if (strcmp(k->name, want))
				continue;
			EXPECT_EQ(PERF_RECORD_KSYMBOL_TYPE_BPF, k->ksym_type);
			EXPECT_NE(0, k->addr);
			EXPECT_NE(0, k->len);
			if (k->flags & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER)
				unregs++;
			else
				ksyms++;
		}
	}
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(1, loads);
	EXPECT_EQ(1, unloads);
	/* a program that was not JIT-compiled has no kernel symbol */
	if (info.jited_prog_len) {
		EXPECT_EQ(1, ksyms) TH_LOG("no KSYMBOL for %s", want);
		EXPECT_EQ(1, unregs);
	}

	ring_unmap(&r);
	close(fd);
}

/* ---------------------------------------------------------------------
 * TEXT_POKE
 */

/* TEXT_POKE: addr, old_len, new_len, the old then the new bytes, padding */
struct poke_rec {
	struct perf_event_header header;
	__u64 addr;
	__u16 old_len;
	__u16 new_len;
	__u8 bytes[];
};

#if defined(__x86_64__)
/* The dynamic type of the kprobe PMU, or -1. */
static int kprobe_pmu_type(void)
{
	int type;

	if (read_int("/sys/bus/event_source/devices/kprobe/type", &type))
		return -1;
	return type;
}
#endif

/*
 * A kprobe on a function's entry is armed by patching the function's
 * ftrace call site (or its first instruction) when the probe event is
 * opened, and disarmed when it is closed: kernel text changes, in this
 * task, and the dummy event hears of it.
 */
TEST(text_poke_records)
{
#if defined(__x86_64__)
	struct perf_event_attr attr, probe;
	int fd, kprobe, type, pokes = 0;
	struct perf_event_header *h;
	__u64 buf[REC_MAX / 8];
	struct ring r;

	type = kprobe_pmu_type();
	if (type < 0)
		SKIP(return, "no kprobe PMU");
	dummy_attr(&attr);
	attr.text_poke = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 16, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	memset(&probe, 0, sizeof(probe));
	probe.size = sizeof(probe);
	probe.type = type;
	probe.config1 = (uintptr_t)"vfs_fsync";
	kprobe = sys_perf_event_open(&probe, -1, 0, -1, 0);
	if (kprobe < 0) {
		close(fd);
		SKIP(return, "kprobe on vfs_fsync: %s", strerror(errno));
	}
	close(kprobe);
	ASSERT_EQ(0, disable(fd));

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		struct poke_rec *p = (void *)buf;
		size_t body;

		if (h->type != PERF_RECORD_TEXT_POKE)
			continue;
		body = offsetof(struct poke_rec, bytes) + p->old_len +
		       p->new_len;
		ASSERT_EQ((body + 7) / 8 * 8, h->size);
		EXPECT_GE(p->addr, 0xffff800000000000ULL);
		EXPECT_NE(0, p->old_len + p->new_len);
		if (p->old_len == p->new_len)
			EXPECT_NE(0, memcmp(p->bytes, p->bytes + p->old_len,
					    p->old_len));
		pokes++;
	}
	EXPECT_FALSE(r.bad);
	TH_LOG("%d TEXT_POKE records", pokes);
	EXPECT_GE(pokes, 1);

	ring_unmap(&r);
	close(fd);
#else
	SKIP(return, "only x86 reports text patching to perf");
#endif
}

/* ---------------------------------------------------------------------
 * MMAP2 with build-id, MMAP with a long path
 */

/* the ELF note type of a GNU build-id (libc's <elf.h>; not in the UAPI) */
#define NT_GNU_BUILD_ID	3

/* This program's GNU build-id, from its ELF notes; its size, or 0. */
static int read_build_id(const char *path, __u8 *id, size_t room)
{
	struct elf64_hdr eh;
	struct elf64_phdr ph;
	int fd, i, size = 0;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	for (i = 0; i < eh.e_phnum && !size; i++) {
		char note[1024];
		size_t off = 0, len;

		if (pread(fd, &ph, sizeof(ph), eh.e_phoff + i * sizeof(ph)) !=
		    sizeof(ph) || ph.p_type != PT_NOTE)
			continue;
		len = ph.p_filesz < sizeof(note) ? ph.p_filesz : sizeof(note);
		if (pread(fd, note, len, ph.p_offset) != (ssize_t)len)
			continue;
		while (off + sizeof(struct elf64_note) <= len) {
			struct elf64_note *n = (void *)(note + off);
			size_t name = (n->n_namesz + 3) & ~3UL;
			size_t desc = (n->n_descsz + 3) & ~3UL;
			char *d = note + off + sizeof(*n) + name;

			if (off + sizeof(*n) + name + desc > len)
				break;
			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    !memcmp(note + off + sizeof(*n), "GNU", 4) &&
			    n->n_descsz <= room) {
				memcpy(id, d, n->n_descsz);
				size = n->n_descsz;
				break;
			}
			off += sizeof(*n) + name + desc;
		}
	}
out:
	close(fd);
	return size;
}

TEST(mmap2_build_id)
{
	long page = sysconf(_SC_PAGESIZE);
	int fd, file, found = 0, id_size;
	struct perf_event_attr attr;
	struct perf_event_header *h;
	__u64 buf[REC_MAX / 8];
	char path[PATH_MAX];
	__u8 id[20];
	ssize_t n;
	struct ring r;
	void *p;

	n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	ASSERT_GT(n, 0);
	path[n] = 0;
	id_size = read_build_id(path, id, sizeof(id));
	if (!id_size)
		SKIP(return, "this program has no build-id note");

	dummy_attr(&attr);
	attr.mmap = 1;
	attr.mmap2 = 1;
	attr.build_id = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	file = open(path, O_RDONLY);
	ASSERT_GE(file, 0);
	ASSERT_EQ(0, enable(fd));
	p = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, file, 0);
	ASSERT_EQ(0, disable(fd));
	ASSERT_NE(MAP_FAILED, p);

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		__u8 *b = (__u8 *)&buf[5];

		if (h->type != PERF_RECORD_MMAP2 || buf[2] != (uintptr_t)p)
			continue;
		/* pid/tid, addr, len, pgoff, then size, 3 reserved, id[20] */
		EXPECT_TRUE(h->misc & PERF_RECORD_MISC_MMAP_BUILD_ID);
		EXPECT_EQ(id_size, b[0]);
		EXPECT_EQ(0, b[1]);
		EXPECT_EQ(0, b[2] | b[3]);
		EXPECT_EQ(0, memcmp(b + 4, id, id_size));
		/* prot and flags, then the name, as without build_id */
		EXPECT_EQ(PROT_READ | PROT_EXEC, half(buf[8], 0));
		EXPECT_EQ(0, strcmp((char *)&buf[9], path));
		found++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(1, found);

	munmap(p, page);
	close(file);
	ring_unmap(&r);
	close(fd);
}

/* A path of about 400 characters: twenty 19-character directories. */
static int make_long_path(char *path, size_t room)
{
	static const char part[] = "/perf-long-path-dir";
	size_t len;
	int i, fd;

	snprintf(path, room, "/tmp/pe-records-%d", getpid());
	if (mkdir(path, 0700))
		return -1;
	for (i = 0; i < 20; i++) {
		len = strlen(path);
		snprintf(path + len, room - len, "%s", part);
		if (mkdir(path, 0700))
			return -1;
	}
	len = strlen(path);
	snprintf(path + len, room - len, "/file");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0700);
	if (fd < 0)
		return -1;
	if (ftruncate(fd, sysconf(_SC_PAGESIZE))) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Remove what make_long_path() made, deepest first. */
static void remove_long_path(char *path)
{
	char base[64];
	char *slash;

	snprintf(base, sizeof(base), "/tmp/pe-records-%d", getpid());
	if (strncmp(path, base, strlen(base)))
		return;
	unlink(path);
	while (strlen(path) > strlen(base)) {
		slash = strrchr(path, '/');
		*slash = 0;
		rmdir(path);
	}
}

TEST(mmap_long_path)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	struct perf_event_header *h;
	__u64 buf[REC_MAX / 8];
	int fd, file, found = 0;
	char path[PATH_MAX];
	struct ring r;
	void *p;

	file = make_long_path(path, sizeof(path));
	if (file < 0) {
		remove_long_path(path);
		SKIP(return, "cannot create a long path under /tmp: %s",
		     strerror(errno));
	}
	ASSERT_GT(strlen(path), 300);

	dummy_attr(&attr);
	attr.mmap = 1;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
	ASSERT_EQ(0, ring_map(&r, fd, 4, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));
	p = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, file, 0);
	ASSERT_EQ(0, disable(fd));
	if (p == MAP_FAILED) {
		close(file);
		remove_long_path(path);
		SKIP(return, "/tmp does not allow executable mappings");
	}

	while ((h = ring_next(&r, buf, sizeof(buf)))) {
		if (h->type != PERF_RECORD_MMAP || buf[2] != (uintptr_t)p)
			continue;
		/* pid/tid, addr, len, pgoff, the name in whole u64s */
		EXPECT_EQ(sizeof(*h) + 4 * 8 + (strlen(path) + 8) / 8 * 8,
			  h->size);
		EXPECT_EQ(0, strcmp((char *)&buf[5], path))
			TH_LOG("name %s", (char *)&buf[5]);
		found++;
	}
	EXPECT_FALSE(r.bad);
	EXPECT_EQ(1, found);

	munmap(p, page);
	close(file);
	remove_long_path(path);
	ring_unmap(&r);
	close(fd);
}

/* ---------------------------------------------------------------------
 * MMAP and MMAP2 of a file reached through overlayfs
 */

/*
 * A mapping of a file through an overlay names the path the program
 * opened, not the overlay's backing file in its lower directory (the
 * overlay passes the lower file to the mapping).
 */
TEST(mmap_records_name_the_overlay_file)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_event_attr attr;
	struct perf_event_header *h;
	__u64 buf[REC_MAX / 8];
	int fd[2], file, i, found[2] = { 0, 0 };
	struct overlay o;
	struct ring r[2];
	void *p;

	if (overlay_make(&o, 1))
		SKIP(return, "no overlayfs here: %s", strerror(errno));
	for (i = 0; i < 2; i++) {
		dummy_attr(&attr);
		attr.mmap = 1;
		attr.mmap2 = i;
		fd[i] = sys_perf_event_open(&attr, 0, -1, -1, 0);
		ASSERT_GE(fd[i], 0) TH_LOG("dummy: %s", strerror(errno));
		ASSERT_EQ(0, ring_map(&r[i], fd[i], 4, PROT_READ | PROT_WRITE));
		ASSERT_EQ(0, enable(fd[i]));
	}
	file = open(o.file, O_RDONLY);
	ASSERT_GE(file, 0) TH_LOG("%s: %s", o.file, strerror(errno));
	p = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_PRIVATE, file, 0);
	for (i = 0; i < 2; i++)
		ASSERT_EQ(0, disable(fd[i]));
	if (p == MAP_FAILED) {
		close(file);
		overlay_remove(&o);
		SKIP(return, "no executable mapping of %s", o.file);
	}

	for (i = 0; i < 2; i++) {
		while ((h = ring_next(&r[i], buf, sizeof(buf)))) {
			/* MMAP: the name after 4 words; MMAP2: after 8 */
			char *name = (char *)&buf[i ? 9 : 5];

			if (h->type != (i ? PERF_RECORD_MMAP2 : PERF_RECORD_MMAP) ||
			    buf[2] != (uintptr_t)p)
				continue;
			EXPECT_STREQ(o.file, name);
			found[i]++;
		}
		EXPECT_FALSE(r[i].bad);
		EXPECT_EQ(1, found[i]) TH_LOG("%s records", i ? "MMAP2" : "MMAP");
		ring_unmap(&r[i]);
		close(fd[i]);
	}
	munmap(p, page);
	close(file);
	overlay_remove(&o);
}

/* ---------------------------------------------------------------------
 * Every byte of a record written: header, body, padding and trailer
 */

#define TRAILER_TYPE	(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | \
			 PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER)
#define TRAILER_WORDS	5	/* pid/tid, time, id, cpu/res, identifier */
#define KNOWN_MISC	(PERF_RECORD_MISC_CPUMODE_MASK | (1 << 13) | (1 << 14))

/* 0 if every byte of @p after the string's NUL, up to @len, is zero. */
static int padding_is_zero(const char *p, size_t len)
{
	size_t i = strnlen(p, len);

	if (i == len)
		return -1;	/* no NUL at all */
	for (; i < len; i++)
		if (p[i])
			return -1;
	return 0;
}

/*
 * A one-page buffer wrapped many times with COMM, MMAP2 and TASK records
 * of different lengths: any byte the kernel does not write would show an
 * older record's byte.  Every record's misc has only defined bits, its
 * names are padded with zeros, and its sample_id trailer carries this
 * event's id, a CPU that exists with a zero res word, and this process.
 */
TEST(records_have_no_stale_bytes)
{
	long page = sysconf(_SC_PAGESIZE), ncpus = sysconf(_SC_NPROCESSORS_CONF);
	int fd, round, seen[PERF_RECORD_MAX] = { 0 };
	struct perf_event_attr attr;
	struct perf_event_header *h;
	__u64 buf[REC_MAX / 8], id;
	struct ring r;
	pid_t child;

	dummy_attr(&attr);
	attr.mmap = 1;
	attr.mmap2 = 1;
	attr.mmap_data = 1;
	attr.comm = 1;
	attr.task = 1;
	attr.sample_id_all = 1;
	attr.sample_type = TRAILER_TYPE;
	fd = sys_perf_event_open(&attr, 0, -1, -1, 0);
	ASSERT_GE(fd, 0) TH_LOG("dummy: %s", strerror(errno));
	id = event_id(fd);
	ASSERT_EQ(0, ring_map(&r, fd, 1, PROT_READ | PROT_WRITE));
	ASSERT_EQ(0, enable(fd));

	for (round = 0; round < 300; round++) {
		char name[16];
		void *p;

		/* names of every length, in letters that are not zero */
		memset(name, 0, sizeof(name));
		memset(name, 'a' + round % 26, 1 + round % 15);
		prctl(PR_SET_NAME, name);
		p = mmap(NULL, page * (1 + round % 3), PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		ASSERT_NE(MAP_FAILED, p);
		munmap(p, page * (1 + round % 3));
		if (round % 10 == 0) {
			child = fork();
			if (!child)
				_exit(0);
			ASSERT_GT(child, 0);
			waitpid(child, NULL, 0);
		}

		while ((h = ring_next(&r, buf, sizeof(buf)))) {
			size_t body = h->size - sizeof(*h) - TRAILER_WORDS * 8;
			__u64 *t = &buf[h->size / 8 - TRAILER_WORDS];

			EXPECT_EQ(0, h->misc & ~KNOWN_MISC)
				TH_LOG("type %u misc %#x", h->type, h->misc);
			if (h->type < PERF_RECORD_MAX)
				seen[h->type]++;
			if (h->type == PERF_RECORD_LOST || h->size <
			    sizeof(*h) + TRAILER_WORDS * 8)
				continue;
			EXPECT_EQ(id, t[2]);
			EXPECT_EQ(id, t[4]);
			EXPECT_LT(half(t[3], 0), ncpus);
			EXPECT_EQ(0, half(t[3], 1))
				TH_LOG("type %u: res word %#x", h->type,
				       half(t[3], 1));
			if (h->type == PERF_RECORD_COMM) {
				/* pid/tid, then the name */
				EXPECT_EQ(0, padding_is_zero((char *)&buf[2],
							     body - 8))
					TH_LOG("COMM %.16s", (char *)&buf[2]);
			} else if (h->type == PERF_RECORD_MMAP2) {
				/* 8 words before the name */
				EXPECT_EQ(0, padding_is_zero((char *)&buf[9],
							     body - 64))
					TH_LOG("MMAP2 %s", (char *)&buf[9]);
			}
			if (h->type != PERF_RECORD_FORK &&
			    h->type != PERF_RECORD_EXIT) {
				EXPECT_EQ(getpid(), half(t[0], 0));
			}
		}
		ring_publish(&r);
		ASSERT_FALSE(r.bad);
	}
	ASSERT_EQ(0, disable(fd));
	EXPECT_GE(seen[PERF_RECORD_COMM], 250);
	EXPECT_GE(seen[PERF_RECORD_MMAP2], 250);
	EXPECT_GE(seen[PERF_RECORD_FORK], 25);
	EXPECT_GT(r.tail, 10 * page) TH_LOG("the buffer wrapped too few times");
	ring_unmap(&r);
	close(fd);
}

TEST_HARNESS_MAIN
