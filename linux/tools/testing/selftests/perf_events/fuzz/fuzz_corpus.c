// SPDX-License-Identifier: GPL-2.0
/*
 * Call sequences, the corpus and coverage-guided runs.
 *
 * A sequence is a list of segments (seed, ops): worker 0's PRNG is seeded
 * from each segment's seed in turn and draws that many operations.  As an
 * operation's arguments never depend on what an earlier call returned, a
 * sequence is replayed exactly by its text, "SEED:OPS SEED:OPS ...", one
 * sequence a line in a corpus file ('#' starts a comment; "# new=N" after
 * a sequence is the number of edges it added when it was kept, which
 * orders a replay with a budget of calls: --corpus-ops).
 *
 * --guided runs one sequence at a time, each in a process of its own with
 * KCOV tracing the perf core (the kernel built with only kernel/events/
 * and the PMU driver instrumented): consecutive PCs of one call, hashed
 * into a map of 2^16 bytes, stand for the edges it took.  A sequence that
 * sets a byte no earlier one set is kept and printed ("@@FUZZ corpus new=N
 * edges=T seq ..."); the next ones are mutations of kept ones: a segment
 * added, dropped or reseeded, its length changed, two sequences spliced.
 */
#include "fuzz.h"

#include <linux/kcov.h>

#define COVER_WORDS	(1UL << 18)	/* PCs one call may record */
#define MAP_BITS	16
#define MAP_SIZE	(1UL << MAP_BITS)
#define MAX_CORPUS	4096
#define MAX_SEQ_OPS	1024		/* operations of a sequence, at most */
#define SEQ_SECONDS	120		/* a sequence's time, at most */

/* Shared by the supervisor and the sequences' processes. */
struct fz_cover {
	unsigned char map[MAP_SIZE];	/* edges any sequence reached */
	unsigned long edges;		/* bytes set in map */
	unsigned long new_edges;	/* of the latest sequence */
};

/* ---- in a sequence's process -------------------------------------------- */

static unsigned long *cover;		/* KCOV's buffer: count, then PCs */
static unsigned char seen[MAP_SIZE];	/* this sequence's edges */

/* Open KCOV and trace this thread's PCs; 0, or -1. */
int cover_open(void)
{
	int fd = open("/sys/kernel/debug/kcov", O_RDWR);

	if (fd < 0)
		return -1;
	if (ioctl(fd, KCOV_INIT_TRACE, COVER_WORDS))
		goto fail;
	cover = mmap(NULL, COVER_WORDS * sizeof(unsigned long),
		     PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (cover == MAP_FAILED)
		goto fail;
	if (ioctl(fd, KCOV_ENABLE, KCOV_TRACE_PC))
		goto fail;
	return 0;
fail:
	close(fd);
	return -1;
}

void cover_op_begin(void)
{
	__atomic_store_n(&cover[0], 0, __ATOMIC_RELAXED);
}

/* The PCs of one operation, as hashed pairs of consecutive PCs. */
void cover_op_end(void)
{
	unsigned long n = __atomic_load_n(&cover[0], __ATOMIC_RELAXED);
	unsigned long i, prev = 0;

	if (n > COVER_WORDS - 1)
		n = COVER_WORDS - 1;
	for (i = 1; i <= n; i++) {
		unsigned long pc = cover[i];

		seen[((pc ^ prev) * 0x9e3779b97f4a7c15ULL) >> (64 - MAP_BITS)] = 1;
		prev = pc >> 1;
	}
}

void cover_merge(struct fz_cover *cov)
{
	unsigned long i, n = 0;

	for (i = 0; i < MAP_SIZE; i++) {
		if (seen[i] && !cov->map[i]) {
			cov->map[i] = 1;
			n++;
		}
	}
	cov->new_edges = n;
	cov->edges += n;
}

/* ---- in the supervisor: the corpus ---------------------------------------- */

static struct fz_entry *corpus;
static int ncorpus;

static void corpus_add(const struct fz_entry *e)
{
	if (!corpus)
		corpus = calloc(MAX_CORPUS, sizeof(*corpus));
	if (corpus && ncorpus < MAX_CORPUS)
		corpus[ncorpus++] = *e;
}

/* Parse "SEED:OPS ..." into @e; 0, or -1 for a line that is not one. */
static int parse_entry(char *line, struct fz_entry *e)
{
	char *tok, *save = NULL, *end, *gain = strstr(line, "# new=");

	e->n = 0;
	e->gain = gain ? strtoul(gain + 6, NULL, 10) : 0;
	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		if (*tok == '#')
			break;
		if (e->n == FZ_SEGS)
			return -1;
		e->s[e->n].seed = strtoull(tok, &end, 0);
		if (*end != ':')
			return -1;
		e->s[e->n].ops = strtoul(end + 1, &end, 0);
		if (*end || !e->s[e->n].ops || e->s[e->n].ops > MAX_SEQ_OPS)
			return -1;
		e->n++;
	}
	return e->n ? 0 : -1;
}

/* Load a corpus file; the number of sequences, or -1 (errno set). */
int corpus_load(const char *path)
{
	FILE *f = fopen(path, "r");
	char line[2048];
	struct fz_entry e;
	int n = 0, bad = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " \t");

		if (*p == '#' || *p == '\n' || !*p)
			continue;
		if (parse_entry(p, &e)) {
			bad++;
			continue;
		}
		corpus_add(&e);
		n++;
	}
	fclose(f);
	printf("@@FUZZ corpus %s: %d sequences%s\n", path, n,
	       bad ? " (and lines that are not sequences)" : "");
	return n;
}

static void print_entry(const struct fz_entry *e)
{
	int i;

	for (i = 0; i < e->n; i++)
		printf(" %#llx:%u", (unsigned long long)e->s[i].seed, e->s[i].ops);
	printf("\n");
}

/*
 * Run @e in a process of its own and wait for it: 0, 4 when KCOV could
 * not be set up, -1 when it could not start, 1 when it got stuck (it was
 * killed and, if it did not go, reported).
 */
static int run_entry(const struct fz_entry *e, struct fz_cover *cov,
		     long long deadline)
{
	long long start = fz_now_ns(), limit;
	int status, killed = 0;
	pid_t pid;

	if (cov)
		cov->new_edges = 0;
	pid = start_sequence(e, cov);
	if (pid < 0)
		return -1;
	track_sequence(pid);
	limit = start + SEQ_SECONDS * 1000000000LL;
	if (limit > deadline + 10 * 1000000000LL)
		limit = deadline + 10 * 1000000000LL;
	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			return -1;
		if (fz_now_ns() >= limit) {
			if (killed) {
				printf("@@FUZZ stuck worker=0 in %s after %lu ops\n",
				       kind_name[sh->w[0].cur], sh->w[0].done);
				return 1;
			}
			if (fz_now_ns() >= deadline)
				sh->stop = 1;
			kill(-pid, SIGKILL);
			kill(pid, SIGKILL);
			killed = 1;
			limit = fz_now_ns() + 30 * 1000000000LL;
		}
		usleep(20000);
	}
	kill(-pid, SIGKILL);	/* what its calls left behind */
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 4)
		return 4;
	if (WIFSIGNALED(status) && !killed)
		printf("@@FUZZ worker-process 0 died: signal %d (during %s)\n",
		       WTERMSIG(status), kind_name[sh->w[0].cur]);
	return 0;
}

static unsigned int entry_ops(const struct fz_entry *e)
{
	unsigned int n = 0;
	int i;

	for (i = 0; i < e->n; i++)
		n += e->s[i].ops;
	return n;
}

/* More edges a call first; then the file's order. */
static int by_gain(const void *a, const void *b)
{
	const struct fz_entry *x = &corpus[*(const int *)a];
	const struct fz_entry *y = &corpus[*(const int *)b];
	double gx = (double)x->gain / entry_ops(x);
	double gy = (double)y->gain / entry_ops(y);

	if (gx != gy)
		return gx > gy ? -1 : 1;
	return *(const int *)a - *(const int *)b;
}

/*
 * The sequences of the corpus, each once in its own process: all of
 * them, or with --corpus-ops those that added the most edges per call
 * first, while their calls fit in the budget.  Either way the replay
 * takes a quarter of the pass's time at most: on a slow kernel the whole
 * corpus could fill a pass and leave the workers none.
 */
int corpus_replay(long long deadline)
{
	unsigned long before = all_done(), budget = opt.corpus_ops;
	long long now = fz_now_ns();
	long long next = now + opt.progress * 1000000000LL;
	long long stop = now + (deadline - now) / 4;
	int i, n = 0, *order;

	if (!ncorpus)
		return 0;
	order = calloc(ncorpus, sizeof(*order));
	if (!order)
		return 0;
	for (i = 0; i < ncorpus; i++)
		order[i] = i;
	if (opt.corpus_ops > 0)
		qsort(order, ncorpus, sizeof(*order), by_gain);
	for (i = 0; i < ncorpus && fz_now_ns() < stop && !sh->stop; i++) {
		const struct fz_entry *e = &corpus[order[i]];

		if (opt.corpus_ops > 0) {
			if (entry_ops(e) > budget)
				continue;
			budget -= entry_ops(e);
		}
		if (run_entry(e, NULL, deadline) == 1) {
			free(order);
			return 1;
		}
		n++;
		if (fz_now_ns() >= next) {
			progress();
			next += opt.progress * 1000000000LL;
		}
	}
	free(order);
	printf("@@FUZZ corpus replayed=%d of %d ops=%lu\n", n, ncorpus,
	       all_done() - before);
	sh->w[0].finished = 0;
	return 0;
}

/* ---- in the supervisor: mutations ----------------------------------------- */

static void random_seg(struct worker *r, struct fz_seg *s)
{
	s->seed = rnd64(r);
	s->ops = 1 + rnd(r, 64);
}

static void mutate(struct worker *r, struct fz_entry *e)
{
	int m, i, cut, total;

	if (!ncorpus || chance(r, 5)) {
		e->n = 1;
		e->gain = 0;
		random_seg(r, &e->s[0]);
		return;
	}
	*e = corpus[rnd(r, ncorpus)];
	e->gain = 0;
	for (m = 1 + rnd(r, 3); m > 0; m--) {
		i = rnd(r, e->n);
		switch (rnd(r, 5)) {
		case 0:		/* one more segment, anywhere */
			if (e->n == FZ_SEGS)
				break;
			cut = rnd(r, e->n + 1);
			memmove(&e->s[cut + 1], &e->s[cut],
				(e->n - cut) * sizeof(e->s[0]));
			random_seg(r, &e->s[cut]);
			e->n++;
			break;
		case 1:		/* other calls, as many */
			e->s[i].seed = rnd64(r);
			break;
		case 2:		/* the same calls, fewer or more */
			e->s[i].ops = 1 + rnd(r, 2 * e->s[i].ops + 8);
			break;
		case 3: {	/* this one's start, another one's end */
			const struct fz_entry *o = &corpus[rnd(r, ncorpus)];
			int from = rnd(r, o->n);

			cut = 1 + rnd(r, e->n);
			while (cut < FZ_SEGS && from < o->n)
				e->s[cut++] = o->s[from++];
			e->n = cut;
			break;
		}
		default:	/* a segment fewer */
			if (e->n == 1)
				break;
			memmove(&e->s[i], &e->s[i + 1],
				(e->n - i - 1) * sizeof(e->s[0]));
			e->n--;
		}
	}
	for (i = 0, total = 0; i < e->n; i++) {
		if (total >= MAX_SEQ_OPS) {
			e->n = i;
			break;
		}
		if (e->s[i].ops > MAX_SEQ_OPS - total)
			e->s[i].ops = MAX_SEQ_OPS - total;
		total += e->s[i].ops;
	}
}

/*
 * run_entry() for guided_run(): 1 when the run must end (no KCOV here,
 * or @e got stuck), with guided_run()'s answer in *@result.
 */
static int guided_exec(const struct fz_entry *e, struct fz_cover *cov,
		       long long deadline, int *result)
{
	int rc = run_entry(e, cov, deadline);

	if (rc == 4)
		printf("@@FUZZ guided: no KCOV here (/sys/kernel/debug/kcov)\n");
	*result = rc == 1;
	return rc == 1 || rc == 4;
}

/*
 * The coverage-guided run: the corpus first (its edges are the start),
 * then mutations until the deadline or --ops calls.  1 when a sequence
 * got stuck.
 */
int guided_run(long long deadline)
{
	struct fz_cover *cov;
	struct worker *r;
	struct fz_entry e;
	long long next = fz_now_ns() + opt.progress * 1000000000LL;
	unsigned long execs = 0;
	int i, kept = 0, rc, base = ncorpus;

	cov = mmap(NULL, sizeof(*cov), PROT_READ | PROT_WRITE,
		   MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	r = calloc(1, sizeof(*r));
	if (cov == MAP_FAILED || !r) {
		printf("@@FUZZ guided: out of memory\n");
		return 0;
	}
	memset(cov, 0, sizeof(*cov));
	rng_seed(r, opt.seed, MAX_WORKERS);

	for (i = 0; i < base && fz_now_ns() < deadline && !sh->stop; i++) {
		if (guided_exec(&corpus[i], cov, deadline, &rc))
			return rc;
		execs++;
	}
	printf("@@FUZZ guided start corpus=%d edges=%lu\n", base, cov->edges);
	while (fz_now_ns() < deadline && all_done() < (unsigned long)opt.ops &&
	       !sh->stop) {
		mutate(r, &e);
		if (guided_exec(&e, cov, deadline, &rc))
			return rc;
		execs++;
		if (cov->new_edges) {
			e.gain = cov->new_edges;
			corpus_add(&e);
			kept++;
			printf("@@FUZZ corpus new=%lu edges=%lu ops=%lu seq",
			       cov->new_edges, cov->edges, all_done());
			print_entry(&e);
		}
		if (fz_now_ns() >= next) {
			printf("@@FUZZ guided execs=%lu kept=%d edges=%lu ops=%lu elapsed=%llds\n",
			       execs, kept, cov->edges, all_done(),
			       (fz_now_ns() - t_start) / 1000000000LL);
			next += opt.progress * 1000000000LL;
		}
	}
	printf("@@FUZZ guided end execs=%lu kept=%d edges=%lu\n", execs, kept,
	       cov->edges);
	return 0;
}
