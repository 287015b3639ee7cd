// SPDX-License-Identifier: GPL-2.0
/*
 * papi_selfmon: a self-monitoring program built against Debian's libpapi,
 * the way an HPC code uses PAPI, for the papi suite.
 *
 *   papi_selfmon count [-m] [-p PAGES] [-l ITERS] EVENT...
 *	One event set of the named events (multiplexed with -m), started
 *	around a workload that touches PAGES fresh pages and runs a loop of
 *	ITERS iterations twice, read between the two loops and stopped after
 *	them.  Prints "EVENT mid=N end=N" per event and "wall_ns=N"; fails
 *	if a value went backwards between the read and the stop.
 *
 *   papi_selfmon exact [-l ITERS] EVENT
 *	The event counted around loops of ITERS, 2*ITERS and 3*ITERS
 *	iterations, each in its own start/stop.  A count that is exact grows
 *	by the same amount from each to the next: prints the three counts
 *	and "exact=yes" or "exact=no" (and fails for no).
 */
#include <papi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_EVENTS 32

static volatile unsigned long sink;

static void __attribute__((noinline)) loop(unsigned long n)
{
	unsigned long i, x = 1;

	for (i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
}

static int touch_pages(unsigned long pages)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = pages * page;
	char *p;
	unsigned long i;

	if (!pages)
		return 0;
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	for (i = 0; i < pages; i++)
		p[i * page] = 1;
	munmap(p, len);
	return 0;
}

static void die(const char *what, int ret)
{
	fprintf(stderr, "papi_selfmon: %s: %s\n", what, PAPI_strerror(ret));
	exit(2);
}

static int new_eventset(int multiplex, char **names, int n)
{
	int es = PAPI_NULL, ret, i;

	ret = PAPI_create_eventset(&es);
	if (ret != PAPI_OK)
		die("PAPI_create_eventset", ret);
	if (multiplex) {
		int cidx = PAPI_get_component_index("perf_event");

		if (cidx < 0)
			die("PAPI_get_component_index(perf_event)", cidx);
		ret = PAPI_assign_eventset_component(es, cidx);
		if (ret != PAPI_OK)
			die("PAPI_assign_eventset_component", ret);
		ret = PAPI_set_multiplex(es);
		if (ret != PAPI_OK)
			die("PAPI_set_multiplex", ret);
	}
	for (i = 0; i < n; i++) {
		ret = PAPI_add_named_event(es, names[i]);
		if (ret != PAPI_OK) {
			fprintf(stderr, "papi_selfmon: adding %s: %s\n",
				names[i], PAPI_strerror(ret));
			exit(3);
		}
	}
	return es;
}

static int count(int multiplex, unsigned long pages, unsigned long iters,
		 char **names, int n)
{
	long long mid[MAX_EVENTS], end[MAX_EVENTS], t0, t1;
	int es, ret, i, bad = 0;

	es = new_eventset(multiplex, names, n);
	t0 = PAPI_get_real_nsec();
	ret = PAPI_start(es);
	if (ret != PAPI_OK)
		die("PAPI_start", ret);
	if (touch_pages(pages))
		die("mmap", PAPI_ESYS);
	loop(iters);
	ret = PAPI_read(es, mid);
	if (ret != PAPI_OK)
		die("PAPI_read", ret);
	loop(iters);
	ret = PAPI_stop(es, end);
	if (ret != PAPI_OK)
		die("PAPI_stop", ret);
	t1 = PAPI_get_real_nsec();
	for (i = 0; i < n; i++) {
		printf("%s mid=%lld end=%lld\n", names[i], mid[i], end[i]);
		if (end[i] < mid[i] || mid[i] < 0)
			bad = 1;
	}
	printf("wall_ns=%lld\n", t1 - t0);
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return bad;
}

static int exact(unsigned long iters, char *name)
{
	long long c[3];
	int es, ret, k;

	es = new_eventset(0, &name, 1);
	/* One warm-up pass, so that the three measured ones run warm code. */
	for (k = -1; k < 3; k++) {
		long long v;

		ret = PAPI_start(es);
		if (ret != PAPI_OK)
			die("PAPI_start", ret);
		loop(iters * (k < 0 ? 1 : k + 1));
		ret = PAPI_stop(es, &v);
		if (ret != PAPI_OK)
			die("PAPI_stop", ret);
		if (k >= 0)
			c[k] = v;
	}
	printf("%s n=%lld 2n=%lld 3n=%lld\n", name, c[0], c[1], c[2]);
	k = c[0] > 0 && c[1] - c[0] == c[2] - c[1] && c[1] > c[0];
	printf("exact=%s\n", k ? "yes" : "no");
	PAPI_cleanup_eventset(es);
	PAPI_destroy_eventset(&es);
	return !k;
}

int main(int argc, char **argv)
{
	unsigned long pages = 0, iters = 1000000;
	int multiplex = 0, opt, ret;
	const char *mode;

	if (argc < 2)
		goto usage;
	mode = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "mp:l:")) != -1) {
		switch (opt) {
		case 'm':
			multiplex = 1;
			break;
		case 'p':
			pages = strtoul(optarg, NULL, 0);
			break;
		case 'l':
			iters = strtoul(optarg, NULL, 0);
			break;
		default:
			goto usage;
		}
	}
	if (optind >= argc || argc - optind > MAX_EVENTS)
		goto usage;
	ret = PAPI_library_init(PAPI_VER_CURRENT);
	if (ret != PAPI_VER_CURRENT)
		die("PAPI_library_init", ret);
	if (multiplex) {
		ret = PAPI_multiplex_init();
		if (ret != PAPI_OK)
			die("PAPI_multiplex_init", ret);
	}
	if (!strcmp(mode, "count"))
		return count(multiplex, pages, iters, argv + optind,
			     argc - optind);
	if (!strcmp(mode, "exact") && argc - optind == 1)
		return exact(iters, argv[optind]);
usage:
	fprintf(stderr, "usage: papi_selfmon count [-m] [-p PAGES] [-l ITERS] EVENT...\n"
		"       papi_selfmon exact [-l ITERS] EVENT\n");
	return 2;
}
