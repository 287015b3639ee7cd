// SPDX-License-Identifier: GPL-2.0
/*
 * scale.c - benchmark 8: scale: open, close and context switch with 1,
 * 100 and 10000 events on one task and on one CPU.
 */
#define _GNU_SOURCE
#include <stdio.h>

#include "bench.h"

void bench_scale(void)
{
	static const int counts[] = { 1, 100, 10000 };
	char key[80];

	for (int cpuwide = 0; cpuwide < 2; cpuwide++) {
		for (unsigned int i = 0; i < 3; i++) {
			int n = counts[i];
			const char *where = cpuwide ? "cpu" : "task";
			/* opening 10,000 events costs guest-seconds: one
			 * round, no warm-up, for the largest point */
			int big = n > 1000, rounds = big ? 1 : REPS + 1;
			double vo[REPS], vc[REPS];
			struct ctxsw c = { .task_events = 0,
					   .rounds = big ? 10 : 500 };

			for (int rep = 0; rep < rounds; rep++) {
				uint64_t t0 = now_ns(), t1, t2;

				open_many(fd_pool, n, cpuwide ? -1 : 0,
					  cpuwide ? 0 : -1, 0);
				t1 = now_ns() - t0;
				if (rep == rounds - 1) {
					snprintf(key, sizeof(key),
						 "scale.%s.%d.ctxsw", where, n);
					measure(key, b_ctxsw, &c);
				}
				t2 = now_ns();
				close_many(fd_pool, n);
				t2 = now_ns() - t2;
				if (big || rep > 0) {
					vo[big ? 0 : rep - 1] = (double)t1 / n;
					vc[big ? 0 : rep - 1] = (double)t2 / n;
				}
			}
			snprintf(key, sizeof(key), "scale.%s.%d.open", where, n);
			report(key, "ns", vo, big ? 1 : REPS);
			snprintf(key, sizeof(key), "scale.%s.%d.close", where, n);
			report(key, "ns", vc, big ? 1 : REPS);
		}
	}
}
