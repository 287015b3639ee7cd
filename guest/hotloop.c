// SPDX-License-Identifier: GPL-2.0
/*
 * hotloop: a workload with a known hot spot for the perf sessions suite.
 * Nearly all of its time is spent in hot_function(), called from
 * middle_function(), called from main(); it also touches fresh pages and
 * sleeps briefly so that faults and context switches happen.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void hot_function(unsigned long n)
{
	unsigned long i, x = 1;

	for (i = 0; i < n; i++)
		x = x * 2862933555777941757UL + 3037000493UL;
	sink = x;
}

__attribute__((noinline)) void middle_function(unsigned long n)
{
	hot_function(n);
	sink++;
}

int main(int argc, char **argv)
{
	unsigned long iters = argc > 1 ? strtoul(argv[1], NULL, 0) : 20000000;
	size_t len = 256 * 4096;
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return 1;
	memset(p, 1, len);
	usleep(1000);
	middle_function(iters);
	munmap(p, len);
	printf("hotloop done\n");
	return 0;
}
