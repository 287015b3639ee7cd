/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf_fuzz's own declarations, shared by its files: perf_fuzz.c (the
 * supervisor, the workers, the log and the argument pickers),
 * fuzz_attr.c (perf_event_attr generation) and fuzz_calls.c (the
 * operations a worker draws from).  fuzz_ops.h holds the calls
 * themselves, which reproducers made by mkrepro.sh include as well.
 */
#ifndef FUZZ_H
#define FUZZ_H

#include "fuzz_ops.h"

#include <dirent.h>
#include <getopt.h>
#include <grp.h>
#include <limits.h>
#include <stddef.h>
#include <stdarg.h>
#include <sys/resource.h>

#include "../../kselftest.h"	/* __printf() */

#define MAX_WORKERS	64
#define MAX_TP_IDS	8192
#define MAX_PMUS	64
#define UNPRIV_UID	1000
#define NR_ERRNO	530	/* kernel-internal errnos (512..) leaking out count too */

/* ---- what the host sees: call kinds and their counters -------------- */

enum kind {
	K_OPEN, K_CLOSE, K_DUP,
	K_ENABLE, K_DISABLE, K_REFRESH, K_RESET, K_PERIOD, K_SET_OUTPUT,
	K_SET_FILTER, K_ID, K_SET_BPF, K_PAUSE_OUTPUT, K_QUERY_BPF,
	K_MODIFY_ATTR, K_IOCTL_OTHER,
	K_MMAP, K_MUNMAP, K_MREMAP, K_MMAP_AUX, K_RING, K_READ, K_WRITE,
	K_POLL, K_FCNTL, K_PRCTL, K_BPF, K_FORK, K_KILL, K_WAIT, K_THREADS,
	K_WORK, K_SYSCTL, K_HOTPLUG, K_CGROUP,
	NR_KINDS
};

extern const char * const kind_name[NR_KINDS];

struct kind_stats {
	unsigned long calls, ok, skipped;
};

/* Shared by every worker and the supervisor (MAP_SHARED). */
struct shared {
	atomic_int stop;
	atomic_llong deadline_ns;
	unsigned long errnos[NR_KINDS][NR_ERRNO];
	struct {
		struct kind_stats k[NR_KINDS];
		atomic_ulong done;
		atomic_int cur;		/* kind of the call under way */
		atomic_ulong sigtrap, sigio;
		atomic_int finished;
	} w[MAX_WORKERS];
};

extern struct shared *sh;

/* ---- options and what the system offers ------------------------------ */

struct fz_opt {
	unsigned long long seed;
	long ops;
	int seconds;
	int threads, procs;
	int unpriv, hotplug, sysctl, dry_run, quiet, only, progress, results;
	int steady, guided;
	long corpus_ops;	/* calls of the corpus to replay, at most */
	const char *log;
	const char *corpus;
};

extern struct fz_opt opt;

struct pmu {
	char name[64];
	unsigned int type;
};

struct fz_sys {
	int ncpus;
	int ntp;
	__u64 tp[MAX_TP_IDS];
	int nhot;
	__u64 hot[32];			/* tracepoints that fire often */
	int npmu;
	struct pmu pmu[MAX_PMUS];
	int kprobe, uprobe;		/* index in pmu[], or -1 */
	char mux[MAX_PMUS][160];	/* perf_event_mux_interval_ms files */
	int nmux;
	__u64 uprobe_off[6];
	int logfd;
};

extern struct fz_sys sys_info;

/*
 * Whom an event is for: a kind and, for kid[] and cgfd[], an index.  The
 * choice is remembered per fd slot, so that a later event can join a
 * group with the same target (a group must be on one task and CPU).
 */
enum { P_NUM, P_GETPID, P_GETTID, P_BUDDY, P_KID, P_CGROUP };

struct target {
	int kind;
	long n;		/* the number, or the index */
	int cpu;
};

/* ---- a worker -------------------------------------------------------- */

struct worker {
	int idx;
	int is_thread;
	__u64 s[4];			/* xoshiro256** state */
	long ops;
	int dry;
	int log;
	int fd[FZ_FDS];
	int prog[FZ_PROGS];
	int cgfd[FZ_CGROUPS];
	pid_t kid[FZ_KIDS];
	struct fz_map mp[FZ_MAPS];
	int last;			/* slot of the latest open */
	struct target target[FZ_FDS];	/* what each slot's open was for */
	__u32 type[FZ_FDS];		/* its attr.type + 1; 0: none */
	size_t len;			/* of line[] */
	char line[16384];
};

/* ---- PRNG ------------------------------------------------------------ */

static inline __u64 splitmix64(__u64 *x)
{
	__u64 z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline void rng_seed(struct worker *w, __u64 seed, int idx)
{
	__u64 x = seed * 0x100000001b3ULL + (__u64)idx * 0x9e3779b97f4a7c15ULL;
	int i;

	for (i = 0; i < 4; i++)
		w->s[i] = splitmix64(&x);
}

static inline __u64 rotl(__u64 x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline __u64 rnd64(struct worker *w)
{
	__u64 *s = w->s;
	__u64 r = rotl(s[1] * 5, 7) * 9;
	__u64 t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return r;
}

/* Uniform in [0, n). */
static inline unsigned int rnd(struct worker *w, unsigned int n)
{
	return n ? (unsigned int)(rnd64(w) % n) : 0;
}

/* True @pct percent of the time. */
static inline int chance(struct worker *w, unsigned int pct)
{
	return rnd(w, 100) < pct;
}

#define PICK(w, arr)	((arr)[rnd(w, sizeof(arr) / sizeof((arr)[0]))])

/* A 64-bit value that is often on an edge. */
static inline __u64 rnd_edge(struct worker *w)
{
	static const __u64 edges[] = {
		0, 1, 2, 3, 7, 8, 64, 255, 4096, 65535, 1ULL << 31,
		(1ULL << 32) - 1, 1ULL << 32, (1ULL << 62), (1ULL << 63) - 1,
		1ULL << 63, (1ULL << 63) + 1, ~0ULL - 1, ~0ULL,
	};
	unsigned int b;

	switch (rnd(w, 4)) {
	case 0:
		return PICK(w, edges);
	case 1:
		b = rnd(w, 64);
		return (1ULL << b) + rnd(w, 3) - 1;
	case 2:
		return rnd(w, 1000);
	default:
		return rnd64(w);
	}
}

/* ---- perf_fuzz.c: the log, accounting, arguments ---------------------- */

struct arg {
	long v;
	char t[48];
};

__printf(2, 3) void lg(struct worker *w, const char *fmt, ...);
void lg_begin(struct worker *w);
void lg_end(struct worker *w);
void lg_str(struct worker *w, const char *s);
const char *errno_name(int e);
void account(struct worker *w, enum kind k, long ret, int err);
__printf(4, 5)
void arg_set(struct worker *w, struct arg *a, long v, const char *fmt, ...);
void arg_num(struct worker *w, struct arg *a, long v);
int pick_slot(struct worker *w);
void pick_fd(struct worker *w, struct arg *a);
void target_pid(struct worker *w, const struct target *t, struct arg *a);
void pick_target(struct worker *w, struct target *t);
int pick_cpu(struct worker *w, int no_task);

/*
 * Make a call (unless this is a dry run) and account for it.  The
 * expression is evaluated once, errno read right after it.
 */
#define CALL(wk, k, expr)						\
	do {								\
		struct worker *__w = (wk);				\
		enum kind __k = (k);					\
		long __r = FZ_SKIP;					\
		int __e = 0;						\
		sh->w[__w->idx].cur = __k;				\
		if (!__w->dry) {					\
			errno = 0;					\
			__r = (expr);					\
			__e = errno;					\
		}							\
		account(__w, __k, __r, __e);				\
	} while (0)

/* ---- fuzz_attr.c: attrs ------------------------------------------------ */

struct gattr {
	struct perf_event_attr a;
	char c1[96];	/* config1 as C text, where it is a pointer */
	char c2[64];	/* config2 as C text */
	int null;	/* pass NULL instead */
	unsigned int alloc, tail;
};

void gen_attr(struct worker *w, struct gattr *g);
void gen_breakpoint(struct worker *w, struct gattr *g);
void gen_flags(struct worker *w, struct perf_event_attr *a);
void gen_sampling(struct worker *w, struct perf_event_attr *a);
void lg_attr(struct worker *w, const struct gattr *g);

/* ---- call sequences and the corpus (fuzz_corpus.c) ------------------- */

#define FZ_SEGS		32	/* segments of a sequence, at most */

/* A call sequence: worker 0's operations, drawn segment by segment. */
struct fz_entry {
	int n;
	unsigned int gain;	/* edges it added when it was kept, or 0 */
	struct fz_seg {
		__u64 seed;
		unsigned int ops;
	} s[FZ_SEGS];
};

struct fz_cover;

/* perf_fuzz.c */
pid_t start_sequence(const struct fz_entry *e, struct fz_cover *cov);
void track_sequence(pid_t pid);
unsigned long all_done(void);
void progress(void);
void final_report(int stuck);
void restore_state(void);
extern long long t_start;

/* fuzz_corpus.c: in a sequence's process */
int cover_open(void);
void cover_op_begin(void);
void cover_op_end(void);
void cover_merge(struct fz_cover *cov);
/* fuzz_corpus.c: in the supervisor; 1 when a sequence got stuck */
int corpus_load(const char *path);
int corpus_replay(long long deadline);
int guided_run(long long deadline);

/* ---- fuzz_calls.c: the operations ---------------------------------------- */

/* Draw one operation for @w and make its call(s). */
void do_op(struct worker *w);

/* The perf sysctls op_sysctl() writes; the supervisor puts them back. */
#define NR_SYSCTLS	5
extern const char * const sysctls[NR_SYSCTLS];

#endif /* FUZZ_H */
