// SPDX-License-Identifier: GPL-2.0
/*
 * perf_fuzz: the operations a worker draws from, each with its weight.
 * Every one draws all its arguments first, logs the call as a line of
 * C, then makes it (see CALL() in fuzz.h).
 */
#include "fuzz.h"

/* ---- the operations ------------------------------------------------- */

/*
 * A member of the other kind than its leader, enabled: a hardware event
 * joins a software-only group (which then moves to the hardware context
 * as a whole, running), a software event joins a hardware group.  The
 * attr was drawn already; this picks no new numbers, so the draws of
 * every later operation stay as they were.
 */
static void other_kind(struct worker *w, struct gattr *g, int leader,
		       unsigned int join)
{
	__u32 lt = w->type[leader];

	if (lt == PERF_TYPE_SOFTWARE + 1) {
		g->a.type = PERF_TYPE_HARDWARE;
		g->a.config = join & 1 ? PERF_COUNT_HW_INSTRUCTIONS :
			PERF_COUNT_HW_CPU_CYCLES;
	} else if (lt == PERF_TYPE_HARDWARE + 1 || lt == PERF_TYPE_RAW + 1 ||
		   lt == PERF_TYPE_HW_CACHE + 1) {
		g->a.type = PERF_TYPE_SOFTWARE;
		g->a.config = join & 1 ? PERF_COUNT_SW_TASK_CLOCK :
			PERF_COUNT_SW_CPU_CLOCK;
	} else {
		return;
	}
	g->a.disabled = 0;
	g->null = 0;
}

static void op_open(struct worker *w)
{
	static const unsigned long flag_sets[] = {
		PERF_FLAG_FD_CLOEXEC, PERF_FLAG_FD_NO_GROUP, PERF_FLAG_FD_OUTPUT,
		PERF_FLAG_FD_CLOEXEC | PERF_FLAG_FD_NO_GROUP,
		PERF_FLAG_FD_OUTPUT | PERF_FLAG_FD_NO_GROUP, 1UL << 4, ~0UL,
	};
	struct gattr g;
	struct target t;
	struct arg pid, grp;
	unsigned long flags = 0;
	unsigned int join;
	int slot, r, leader = -1;

	slot = chance(w, 30) ? rnd(w, 8) : rnd(w, FZ_FDS);
	gen_attr(w, &g);
	r = rnd(w, 100);
	if (r < 65) {
		arg_num(w, &grp, -1);
	} else if (r < 96) {
		leader = chance(w, 60) ? w->last : pick_slot(w);
		arg_set(w, &grp, w->fd[leader], "fd[%d]", leader);
	} else {
		arg_num(w, &grp, PICK(w, ((int[]){ 0, 9999, -2 })));
	}
	/* One draw, as before the kind switch below: a corpus still replays. */
	join = leader >= 0 ? rnd(w, 100) : 100;
	if (join < 80) {
		t = w->target[leader];		/* join the leader's group */
		if (join < 12)
			other_kind(w, &g, leader, join);
	} else {
		pick_target(w, &t);
		t.cpu = pick_cpu(w, t.kind == P_NUM && t.n == -1);
	}
	r = rnd(w, 100);
	if (r < 22) {
		flags = PERF_FLAG_FD_CLOEXEC;
	} else if (r < 28) {
		flags = PICK(w, flag_sets);
	} else if (r < 34) {
		flags = PERF_FLAG_PID_CGROUP | (chance(w, 50) ? PERF_FLAG_FD_CLOEXEC : 0);
		t.kind = P_CGROUP;
		t.n = rnd(w, FZ_CGROUPS);
		if (chance(w, 90))
			t.cpu = rnd(w, sys_info.ncpus);
	} else if (r < 38) {
		/* bit 4 with what it asks for: no task, no CPU, no group */
		flags = (1UL << 4) | (chance(w, 50) ? PERF_FLAG_FD_CLOEXEC : 0);
		t.kind = P_NUM;
		t.n = -1;
		t.cpu = -1;
		if (chance(w, 90))
			arg_num(w, &grp, -1);
	}
	if (t.kind == P_CGROUP && !(flags & PERF_FLAG_PID_CGROUP))
		flags |= PERF_FLAG_PID_CGROUP;
	target_pid(w, &t, &pid);
	w->target[slot] = t;
	w->type[slot] = g.null ? 0 : g.a.type + 1;
	if (w->log) {
		lg_begin(w);
		lg(w, "fz_open(&fd[%d], ", slot);
		lg_attr(w, &g);
		lg(w, ", %u, %#x, %s, %d, %s, %#lx);", g.alloc, g.tail, pid.t,
		   t.cpu, grp.t, flags);
		lg_end(w);
	}
	CALL(w, K_OPEN, fz_open(&w->fd[slot], g.null ? NULL : &g.a, g.alloc,
				g.tail, pid.v, t.cpu, (int)grp.v, flags));
	w->last = slot;
}

static void op_close(struct worker *w)
{
	int s = pick_slot(w);

	if (w->log) {
		lg_begin(w);
		lg(w, "fz_close(&fd[%d]);", s);
		lg_end(w);
	}
	CALL(w, K_CLOSE, fz_close(&w->fd[s]));
}

static void op_dup(struct worker *w)
{
	int dst = rnd(w, FZ_FDS);
	struct arg src;

	pick_fd(w, &src);
	if (w->log) {
		lg_begin(w);
		lg(w, "fz_dup(&fd[%d], %s);", dst, src.t);
		lg_end(w);
	}
	CALL(w, K_DUP, fz_dup(&w->fd[dst], (int)src.v));
}

/* A string for PERF_EVENT_IOC_SET_FILTER: tracepoint or address filters. */
static void gen_filter(struct worker *w, char *buf, size_t len)
{
	static const char * const tp[] = {
		"common_pid == %u", "common_pid != %u && common_type > %u",
		"prev_pid == %u || next_pid > %u", "ret < 0", "(((",
		"common_pid == ", "0", "1", "comm == \"fz-%u\"",
		"comm ~ \"fz*\"", "nr == %u", "common_preempt_count & %u",
		"((common_pid > %u) && (common_pid < %u)) || common_flags",
		"pid >= %u", "!(common_pid == %u)", "", "\t\040\n",
	};
	static const char * const addr[] = {
		"filter 0x%x/0x%x@/bin/true", "start 0x%x@/proc/self/exe",
		"stop 0x%x/0x%x@/proc/self/exe", "filter *", "tracestop 0/%u@/bin/sh",
		"filter 0x%x/0x%x", "start 0x%x", "filter 0x%x/0x%x@",
		"filter 0x%x/0x%x@/nonexistent", "filter fz_probe_target",
		"filter 0x%x/0x%x@/proc/self/exe filter 0x%x/0x%x@/bin/true",
		"start 0x%x/0x%x@/bin/true,stop 0x%x/0x%x@/bin/true",
		"filter 0xffffffff81000000/0x1000", "stop 0x%x/0x%x@//",
		"filter %u/%u@/tmp",
	};
	const char *f = chance(w, 50) ? PICK(w, tp) : PICK(w, addr);
	unsigned int v[4];
	size_t n;
	int i;

	for (i = 0; i < 4; i++)
		v[i] = chance(w, 50) ? rnd(w, 0x10000) : (unsigned int)rnd_edge(w);
	snprintf(buf, len, f, v[0], v[1], v[2], v[3]);
	if (chance(w, 5)) {	/* a random printable tail */
		n = strlen(buf);
		for (i = 0; i < 24 && n + 1 < len; i++)
			buf[n++] = 32 + rnd(w, 95);
		buf[n] = 0;
	}
}

static void op_ioctl(struct worker *w)
{
	static const unsigned long odd_reqs[] = {
		_IO('$', 12), _IO('$', 13), _IO('$', 31), _IOW('$', 4, __u32),
		_IOR('$', 7, __u32), _IOW('$', 6, __u64), _IO('$', 255),
		_IOWR('$', 10, __u64), _IO('$', 8), _IO('$', 11),
		_IOW('$', 11, __u32), 0, 0x5401, ~0UL,
	};
	static const long refresh[] = { 0, 1, 2, 3, 100, -1, INT_MAX, 1L << 40 };
	static const long groupish[] = {
		0, 0, 0, PERF_IOC_FLAG_GROUP, PERF_IOC_FLAG_GROUP, 2, 3, -1,
	};
	struct arg fd, a;
	unsigned int r = rnd(w, 100);
	char filter[256];
	struct gattr g;
	int k, which;
	unsigned long req;
	__u64 v;

	pick_fd(w, &fd);
	if (w->log)
		lg_begin(w);
	if (r < 14 || r >= 96) {
		static const unsigned long reqs[] = {
			PERF_EVENT_IOC_ENABLE, PERF_EVENT_IOC_DISABLE,
			PERF_EVENT_IOC_RESET,
		};
		static const char * const names[] = {
			"PERF_EVENT_IOC_ENABLE", "PERF_EVENT_IOC_DISABLE",
			"PERF_EVENT_IOC_RESET",
		};
		static const enum kind kinds[] = { K_ENABLE, K_DISABLE, K_RESET };

		k = rnd(w, 3);
		arg_num(w, &a, PICK(w, groupish));
		if (w->log) {
			lg(w, "fz_ioctl(%s, %s, %s);", fd.t, names[k], a.t);
			lg_end(w);
		}
		CALL(w, kinds[k], fz_ioctl(fd.v, reqs[k], a.v));
	} else if (r < 24) {
		arg_num(w, &a, chance(w, 20) ? PICK(w, groupish) : PICK(w, refresh));
		if (w->log) {
			lg(w, "fz_ioctl(%s, PERF_EVENT_IOC_REFRESH, %s);", fd.t, a.t);
			lg_end(w);
		}
		CALL(w, K_REFRESH, fz_ioctl(fd.v, PERF_EVENT_IOC_REFRESH, a.v));
	} else if (r < 34) {
		static const __u64 periods[] = {
			0, 1, 2, 100, 10000, 1000000, 1ULL << 62, 1ULL << 63,
			(1ULL << 63) - 1, ~0ULL,
		};

		v = chance(w, 85) ? PICK(w, periods) : rnd_edge(w);
		if (chance(w, 4)) {
			which = 1 + rnd(w, 2);
			if (w->log) {
				lg(w, "fz_ioctl_ptr(%s, PERF_EVENT_IOC_PERIOD, %d);",
				   fd.t, which);
				lg_end(w);
			}
			CALL(w, K_PERIOD, fz_ioctl_ptr(fd.v, PERF_EVENT_IOC_PERIOD,
						       which));
		} else {
			if (w->log) {
				lg(w, "fz_ioctl_u64(%s, PERF_EVENT_IOC_PERIOD, %#llx);",
				   fd.t, (unsigned long long)v);
				lg_end(w);
			}
			CALL(w, K_PERIOD, fz_ioctl_u64(fd.v, PERF_EVENT_IOC_PERIOD, v));
		}
	} else if (r < 46) {
		pick_fd(w, &a);
		if (w->log) {
			lg(w, "fz_ioctl(%s, PERF_EVENT_IOC_SET_OUTPUT, %s);", fd.t, a.t);
			lg_end(w);
		}
		CALL(w, K_SET_OUTPUT, fz_ioctl(fd.v, PERF_EVENT_IOC_SET_OUTPUT,
					       a.v));
	} else if (r < 56) {
		if (chance(w, 5)) {
			int len = PICK(w, ((int[]){ 4095, 4096, 4097, 65000 }));
			int c = PICK(w, ((int[]){ 'a', ' ', '(', '0' }));

			if (w->log) {
				lg(w, "fz_ioctl_longstr(%s, PERF_EVENT_IOC_SET_FILTER, %d, %d);",
				   fd.t, len, c);
				lg_end(w);
			}
			CALL(w, K_SET_FILTER,
			     fz_ioctl_longstr(fd.v, PERF_EVENT_IOC_SET_FILTER,
					      len, c));
		} else if (chance(w, 4)) {
			if (w->log) {
				lg(w, "fz_ioctl_ptr(%s, PERF_EVENT_IOC_SET_FILTER, 1);",
				   fd.t);
				lg_end(w);
			}
			CALL(w, K_SET_FILTER,
			     fz_ioctl_ptr(fd.v, PERF_EVENT_IOC_SET_FILTER, 1));
		} else {
			gen_filter(w, filter, sizeof(filter));
			if (w->log) {
				lg(w, "fz_ioctl_str(%s, PERF_EVENT_IOC_SET_FILTER, ", fd.t);
				lg_str(w, filter);
				lg(w, ");");
				lg_end(w);
			}
			CALL(w, K_SET_FILTER,
			     fz_ioctl_str(fd.v, PERF_EVENT_IOC_SET_FILTER,
					  filter));
		}
	} else if (r < 62) {
		which = chance(w, 90) ? 0 : 1 + rnd(w, 2);
		if (w->log) {
			lg(w, "fz_ioctl_ptr(%s, PERF_EVENT_IOC_ID, %d);", fd.t, which);
			lg_end(w);
		}
		CALL(w, K_ID, fz_ioctl_ptr(fd.v, PERF_EVENT_IOC_ID, which));
	} else if (r < 70) {
		if (chance(w, 70)) {
			k = rnd(w, FZ_PROGS);
			arg_set(w, &a, w->prog[k], "prog[%d]", k);
		} else {
			pick_fd(w, &a);
		}
		if (w->log) {
			lg(w, "fz_ioctl(%s, PERF_EVENT_IOC_SET_BPF, %s);", fd.t, a.t);
			lg_end(w);
		}
		CALL(w, K_SET_BPF, fz_ioctl(fd.v, PERF_EVENT_IOC_SET_BPF, a.v));
	} else if (r < 77) {
		arg_num(w, &a, chance(w, 90) ? rnd(w, 2) : (long)rnd_edge(w));
		if (w->log) {
			lg(w, "fz_ioctl(%s, PERF_EVENT_IOC_PAUSE_OUTPUT, %s);",
			   fd.t, a.t);
			lg_end(w);
		}
		CALL(w, K_PAUSE_OUTPUT, fz_ioctl(fd.v, PERF_EVENT_IOC_PAUSE_OUTPUT,
						 a.v));
	} else if (r < 82) {
		unsigned int n = PICK(w, ((unsigned int[]){ 0, 1, 2, 8, 64, 256,
							    ~0U }));

		if (chance(w, 10)) {
			if (w->log) {
				lg(w, "fz_ioctl_ptr(%s, PERF_EVENT_IOC_QUERY_BPF, 1);",
				   fd.t);
				lg_end(w);
			}
			CALL(w, K_QUERY_BPF,
			     fz_ioctl_ptr(fd.v, PERF_EVENT_IOC_QUERY_BPF, 1));
		} else {
			if (w->log) {
				lg(w, "fz_ioctl_query(%s, %u);", fd.t, n);
				lg_end(w);
			}
			CALL(w, K_QUERY_BPF, fz_ioctl_query(fd.v, n));
		}
	} else if (r < 90) {
		if (chance(w, 70)) {
			memset(&g, 0, sizeof(g));
			gen_breakpoint(w, &g);
			g.a.size = sizeof(g.a);
			if (chance(w, 30))
				gen_flags(w, &g.a);
			if (chance(w, 30))
				gen_sampling(w, &g.a);
		} else {
			gen_attr(w, &g);
		}
		if (w->log) {
			lg(w, "fz_ioctl_attr(%s, ", fd.t);
			lg_attr(w, &g);
			lg(w, ");");
			lg_end(w);
		}
		CALL(w, K_MODIFY_ATTR, fz_ioctl_attr(fd.v, g.null ? NULL : &g.a));
	} else {
		req = chance(w, 80) ? PICK(w, odd_reqs) : (unsigned long)(__u32)rnd64(w);
		which = rnd(w, 3);
		if (w->log) {
			lg(w, "fz_ioctl_ptr(%s, %#lx, %d);", fd.t, req, which);
			lg_end(w);
		}
		CALL(w, K_IOCTL_OTHER, fz_ioctl_ptr(fd.v, req, which));
	}
}

static unsigned long gen_pages(struct worker *w)
{
	unsigned int r = rnd(w, 100);

	if (r < 62)
		return 1 + (1UL << rnd(w, 8));
	if (r < 72)
		return 1UL << rnd(w, 8);
	if (r < 82)
		return 1;
	if (r < 86)
		return 0;
	if (r < 95)
		return 1 + rnd(w, 300);
	return PICK(w, ((unsigned long[]){ 1UL << 20, 1 + (1UL << 16),
					  1 + (1UL << 30) }));
}

static void op_mmap(struct worker *w)
{
	static const int prots[] = {
		PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE,
		PROT_READ | PROT_WRITE, PROT_READ | PROT_WRITE, PROT_READ,
		PROT_WRITE, PROT_NONE, PROT_READ | PROT_EXEC,
	};
	static const char * const prot_names[] = {
		"PROT_READ | PROT_WRITE", "PROT_READ | PROT_WRITE",
		"PROT_READ | PROT_WRITE", "PROT_READ | PROT_WRITE", "PROT_READ",
		"PROT_WRITE", "PROT_NONE", "PROT_READ | PROT_EXEC",
	};
	int m = rnd(w, FZ_MAPS), p = rnd(w, 8), priv = chance(w, 5);
	unsigned long pages = gen_pages(w), pgoff = 0;
	struct arg fd;

	pick_fd(w, &fd);
	if (chance(w, 8))
		pgoff = chance(w, 50) ? pages : rnd(w, 1024);
	if (w->log) {
		lg_begin(w);
		lg(w, "fz_mmap(&mp[%d], %s, %lu, %s, %s, %lu);", m, fd.t, pages,
		   prot_names[p], priv ? "MAP_PRIVATE" : "MAP_SHARED", pgoff);
		lg_end(w);
	}
	CALL(w, K_MMAP, fz_mmap(&w->mp[m], fd.v, pages, prots[p],
				priv ? MAP_PRIVATE : MAP_SHARED, pgoff));
}

static void op_munmap(struct worker *w)
{
	int m = rnd(w, FZ_MAPS);
	unsigned long first = 0, n = 0;

	if (chance(w, 50)) {
		first = chance(w, 50) ? 0 : rnd(w, 64);
		n = 1 + rnd(w, 8);
	}
	if (w->log) {
		lg_begin(w);
		lg(w, "fz_munmap(&mp[%d], %lu, %lu);", m, first, n);
		lg_end(w);
	}
	CALL(w, K_MUNMAP, fz_munmap(&w->mp[m], first, n));
}

static void op_mremap(struct worker *w)
{
	int m = rnd(w, FZ_MAPS), may = chance(w, 50);
	unsigned long pages = gen_pages(w);

	if (w->log) {
		lg_begin(w);
		lg(w, "fz_mremap(&mp[%d], %lu, %s);", m, pages,
		   may ? "MREMAP_MAYMOVE" : "0");
		lg_end(w);
	}
	CALL(w, K_MREMAP, fz_mremap(&w->mp[m], pages, may ? MREMAP_MAYMOVE : 0));
}

static void op_aux(struct worker *w)
{
	int aux = rnd(w, FZ_MAPS), rb = rnd(w, FZ_MAPS);
	int where = chance(w, 75) ? 0 : 1 + rnd(w, 3);
	int size_mode = chance(w, 10), ro = chance(w, 15);
	unsigned long pages;
	struct arg fd;

	if (aux == rb)
		aux = (aux + 1) % FZ_MAPS;
	pick_fd(w, &fd);
	pages = chance(w, 85) ? 1UL << rnd(w, 7) : gen_pages(w);
	if (w->log) {
		lg_begin(w);
		lg(w, "fz_aux(&mp[%d], &mp[%d], %s, %lu, %d, %d, %s);", aux, rb,
		   fd.t, pages, where, size_mode,
		   ro ? "PROT_READ" : "PROT_READ | PROT_WRITE");
		lg_end(w);
	}
	CALL(w, K_MMAP_AUX, fz_aux(&w->mp[aux], &w->mp[rb], fd.v, pages, where,
				   size_mode, ro ? PROT_READ : PROT_READ | PROT_WRITE));
}

static void op_ring(struct worker *w)
{
	int m = rnd(w, FZ_MAPS), what = rnd(w, 100);
	__u64 v = rnd_edge(w);

	what = what < 35 ? 0 : what < 50 ? 1 : what < 60 ? 2 : what < 82 ? 3 :
		what < 96 ? 4 : 5;
	if (w->log) {
		lg_begin(w);
		lg(w, "fz_ring(&mp[%d], %d, %#llx);", m, what,
		   (unsigned long long)v);
		lg_end(w);
	}
	CALL(w, K_RING, fz_ring(&w->mp[m], what, v));
}

static void op_read(struct worker *w)
{
	static const unsigned int lens[] = {
		0, 1, 7, 8, 16, 24, 32, 40, 48, 64, 100, 256, 4096, 65536,
	};
	unsigned int len = chance(w, 90) ? PICK(w, lens) : rnd(w, 70000);
	int bad = chance(w, 3);
	struct arg fd;

	pick_fd(w, &fd);
	if (w->log) {
		lg_begin(w);
		lg(w, "fz_read(%s, %u, %d);", fd.t, len, bad);
		lg_end(w);
	}
	CALL(w, K_READ, fz_read(fd.v, len, bad));
}

static void op_write(struct worker *w)
{
	unsigned int len = rnd(w, 64);
	struct arg fd;

	pick_fd(w, &fd);
	if (w->log) {
		lg_begin(w);
		lg(w, "fz_write(%s, %u);", fd.t, len);
		lg_end(w);
	}
	CALL(w, K_WRITE, fz_write(fd.v, len));
}

static void op_poll(struct worker *w)
{
	struct arg a, b, c;
	short ev = chance(w, 80) ? POLLIN : POLLIN | POLLOUT | POLLHUP;
	int timeout = chance(w, 85) ? 0 : 1 + rnd(w, 5);

	pick_fd(w, &a);
	pick_fd(w, &b);
	pick_fd(w, &c);
	if (w->log) {
		lg_begin(w);
		lg(w, "fz_poll(%s, %s, %s, %#x, %d);", a.t, b.t, c.t, ev, timeout);
		lg_end(w);
	}
	CALL(w, K_POLL, fz_poll(a.v, b.v, c.v, ev, timeout));
}

static void op_fcntl(struct worker *w)
{
	struct arg fd, a;
	unsigned int r = rnd(w, 100);

	pick_fd(w, &fd);
	if (w->log)
		lg_begin(w);
	if (r < 30) {
		unsigned int o = rnd(w, 4);

		if (o == 0)
			arg_set(w, &a, w->dry ? 1 : getpid(), "getpid()");
		else if (o == 1)
			arg_set(w, &a, w->dry ? 1 : fz_gettid(), "fz_gettid()");
		else if (o == 2)
			arg_set(w, &a, w->dry ? -1 : -getpgrp(), "-getpgrp()");
		else
			arg_num(w, &a, 0);
		if (w->log) {
			lg(w, "fz_fcntl(%s, F_SETOWN, %s);", fd.t, a.t);
			lg_end(w);
		}
		CALL(w, K_FCNTL, fz_fcntl(fd.v, F_SETOWN, a.v));
	} else if (r < 45) {
		int type = PICK(w, ((int[]){ F_OWNER_TID, F_OWNER_PID,
					      F_OWNER_PGRP }));

		if (type == F_OWNER_TID && chance(w, 50))
			arg_set(w, &a, w->dry ? 1 : fz_buddy_tid(), "fz_buddy_tid()");
		else if (type == F_OWNER_PGRP)
			arg_set(w, &a, w->dry ? 1 : getpgrp(), "getpgrp()");
		else
			arg_set(w, &a, w->dry ? 1 : fz_gettid(), "fz_gettid()");
		if (w->log) {
			lg(w, "fz_setown_ex(%s, %d, %s);", fd.t, type, a.t);
			lg_end(w);
		}
		CALL(w, K_FCNTL, fz_setown_ex(fd.v, type, a.v));
	} else if (r < 65) {
		int sig = PICK(w, ((int[]){ 0, SIGIO, SIGUSR1, SIGUSR2,
					     SIGRTMIN, SIGRTMIN + 1 }));

		if (w->log) {
			lg(w, "fz_fcntl(%s, F_SETSIG, %d);", fd.t, sig);
			lg_end(w);
		}
		CALL(w, K_FCNTL, fz_fcntl(fd.v, F_SETSIG, sig));
	} else {
		long fl = PICK(w, ((long[]){ O_ASYNC, O_ASYNC | O_NONBLOCK,
					      O_NONBLOCK, 0 }));

		if (w->log) {
			lg(w, "fz_fcntl(%s, F_SETFL, %#lx);", fd.t, fl);
			lg_end(w);
		}
		CALL(w, K_FCNTL, fz_fcntl(fd.v, F_SETFL, fl));
	}
}

static void op_prctl(struct worker *w)
{
	int en = chance(w, 55);

	if (w->log) {
		lg_begin(w);
		lg(w, "prctl(%s, 0, 0, 0, 0);", en ? "PR_TASK_PERF_EVENTS_ENABLE" :
		   "PR_TASK_PERF_EVENTS_DISABLE");
		lg_end(w);
	}
	CALL(w, K_PRCTL, prctl(en ? PR_TASK_PERF_EVENTS_ENABLE :
			       PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
}

static void op_bpf(struct worker *w)
{
	static const unsigned int types[] = {
		BPF_PROG_TYPE_PERF_EVENT, BPF_PROG_TYPE_PERF_EVENT,
		BPF_PROG_TYPE_KPROBE, BPF_PROG_TYPE_KPROBE,
		BPF_PROG_TYPE_TRACEPOINT, BPF_PROG_TYPE_TRACEPOINT,
		BPF_PROG_TYPE_SOCKET_FILTER, BPF_PROG_TYPE_RAW_TRACEPOINT,
	};
	int k = rnd(w, FZ_PROGS), v = chance(w, 90) ? rnd(w, 2) : 2;
	unsigned int t = PICK(w, types);

	if (w->log) {
		lg_begin(w);
		lg(w, "fz_bpf_load(&prog[%d], %u, %d);", k, t, v);
		lg_end(w);
	}
	CALL(w, K_BPF, fz_bpf_load(&w->prog[k], t, v));
}

static void op_spawn(struct worker *w)
{
	int k = rnd(w, FZ_KIDS), mode = chance(w, 35) ? 3 : rnd(w, 8);

	if (w->log) {
		lg_begin(w);
		lg(w, "fz_spawn(&kid[%d], %d);", k, mode);
		lg_end(w);
	}
	CALL(w, K_FORK, fz_spawn(&w->kid[k], mode));
}

static void op_kill(struct worker *w)
{
	int k = rnd(w, FZ_KIDS);
	int sig = PICK(w, ((int[]){ SIGKILL, SIGKILL, SIGSTOP, SIGCONT,
				     SIGCONT, SIGTERM, SIGUSR1, SIGTRAP }));

	if (w->log) {
		lg_begin(w);
		lg(w, "fz_kill(&kid[%d], %d);", k, sig);
		lg_end(w);
	}
	CALL(w, K_KILL, fz_kill(&w->kid[k], sig));
}

static void op_reap(struct worker *w)
{
	int k = rnd(w, FZ_KIDS), hard = chance(w, 40);

	if (w->log) {
		lg_begin(w);
		lg(w, "fz_reap(&kid[%d], %d);", k, hard);
		lg_end(w);
	}
	CALL(w, K_WAIT, fz_reap(&w->kid[k], hard));
}

static void op_threads(struct worker *w)
{
	int n = 1 + rnd(w, 8), mode = rnd(w, 5);

	if (w->log) {
		lg_begin(w);
		lg(w, "fz_threads(%d, %d);", n, mode);
		lg_end(w);
	}
	CALL(w, K_THREADS, fz_threads(n, mode));
}

static void op_work(struct worker *w)
{
	static const int amount[] = { 200, 16, 32, 4, 128, 8, 4, 8, 1, 0, 0, 0, 100 };
	int mode = rnd(w, 13), n = amount[mode];

	if (mode == 9)
		n = rnd(w, 100);
	else if (mode == 10)
		n = rnd(w, sys_info.ncpus + 1);
	if (w->log) {
		lg_begin(w);
		lg(w, "fz_work(%d, %d);", mode, n);
		lg_end(w);
	}
	CALL(w, K_WORK, fz_work(mode, n));
}

/* The perf sysctls, their values are the supervisor's to put back. */
const char * const sysctls[NR_SYSCTLS] = {
	"/proc/sys/kernel/perf_event_max_sample_rate",
	"/proc/sys/kernel/perf_cpu_time_max_percent",
	"/proc/sys/kernel/perf_event_max_stack",
	"/proc/sys/kernel/perf_event_max_contexts_per_stack",
	"/proc/sys/kernel/perf_event_mlock_kb",
};

static void op_sysctl(struct worker *w)
{
	static const char * const vals[] = {
		"0", "1", "2", "10", "25", "50", "100", "101", "127", "128",
		"516", "1000", "4000", "100000", "2147483647", "4294967296",
		"-1", "abc", "",
	};
	const char *path, *val = PICK(w, vals);
	unsigned int i = rnd(w, 6);

	if (i == 5 && sys_info.nmux)
		path = sys_info.mux[rnd(w, sys_info.nmux)];
	else
		path = sysctls[i % NR_SYSCTLS];
	if (w->log) {
		lg_begin(w);
		lg(w, "fz_write_file(");
		lg_str(w, path);
		lg(w, ", \"%s\");", val);
		lg_end(w);
	}
	CALL(w, K_SYSCTL, fz_write_file(path, val));
	/* --steady: the time limit stays off (not logged: not a call) */
	if (opt.steady && path == sysctls[1] && !w->dry)
		fz_write_file(path, "0");
}

static void op_hotplug(struct worker *w)
{
	char path[96];
	int cpu, on = chance(w, 50);

	if (sys_info.ncpus < 2)
		return;
	cpu = 1 + rnd(w, sys_info.ncpus - 1);
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	if (w->log) {
		lg_begin(w);
		lg(w, "fz_write_file(\"%s\", \"%d\");", path, on);
		lg_end(w);
	}
	CALL(w, K_HOTPLUG, fz_write_file(path, on ? "1" : "0"));
}

static void op_cgroup(struct worker *w)
{
	int k = rnd(w, FZ_CGROUPS);

	if (w->log) {
		lg_begin(w);
		lg(w, "fz_cgroup_enter(%d);", k);
		lg_end(w);
	}
	CALL(w, K_CGROUP, fz_cgroup_enter(k));
}

enum { OPT_NONE, OPT_HOTPLUG, OPT_SYSCTL };

static const struct {
	void (*fn)(struct worker *w);
	int weight;
	int needs;
} ops[] = {
	{ op_open, 220, OPT_NONE }, { op_close, 55, OPT_NONE },
	{ op_dup, 15, OPT_NONE }, { op_ioctl, 190, OPT_NONE },
	{ op_mmap, 60, OPT_NONE }, { op_munmap, 25, OPT_NONE },
	{ op_mremap, 8, OPT_NONE }, { op_aux, 30, OPT_NONE },
	{ op_ring, 40, OPT_NONE }, { op_read, 60, OPT_NONE },
	{ op_write, 4, OPT_NONE }, { op_poll, 20, OPT_NONE },
	{ op_fcntl, 20, OPT_NONE }, { op_prctl, 10, OPT_NONE },
	{ op_bpf, 8, OPT_NONE }, { op_spawn, 14, OPT_NONE },
	{ op_kill, 8, OPT_NONE }, { op_reap, 10, OPT_NONE },
	{ op_threads, 8, OPT_NONE }, { op_work, 140, OPT_NONE },
	{ op_sysctl, 8, OPT_SYSCTL }, { op_hotplug, 2, OPT_HOTPLUG },
	{ op_cgroup, 5, OPT_NONE },
};

#define NR_OPS	((int)ARRAY_SIZE(ops))

static int op_weight(int i)
{
	if (ops[i].needs == OPT_HOTPLUG && !opt.hotplug)
		return 0;
	if (ops[i].needs == OPT_SYSCTL && !opt.sysctl)
		return 0;
	return ops[i].weight;
}

static int pick_op(struct worker *w)
{
	static int total;
	int i, r;

	if (!total)
		for (i = 0; i < NR_OPS; i++)
			total += op_weight(i);
	r = rnd(w, total);
	for (i = 0; i < NR_OPS; i++) {
		r -= op_weight(i);
		if (r < 0)
			return i;
	}
	return 0;
}

void do_op(struct worker *w)
{
	ops[pick_op(w)].fn(w);
}
