#define _GNU_SOURCE
/*
 * Build: aarch64-linux-gnu-gcc -O2 -static -o t24 perf-test-24-race.c; run
 * in a guest as "t24 ROUNDS CAP" (60 1000000 for the notes of 2026-12-08):
 * CAP is the test's 1000 retries, raised to count the polls until SIGCHLD.
 */
/* Replays perf test 24 ("Number of exit events of a simple workload") with diagnostics. */
#include <linux/perf_event.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <sched.h>
#include <fcntl.h>

static volatile sig_atomic_t exited;
static void on_chld(int s) { (void)s; exited = 1; }

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 50, cap = argc > 2 ? atoi(argv[2]) : 1000, r, fails = 0;
	long tot_spin = 0, max_spin = 0;
	long pg = sysconf(_SC_PAGESIZE);

	for (r = 0; r < rounds; r++) {
		struct perf_event_attr a;
		struct perf_event_mmap_page *pc;
		int go[2], fd, nr_exit = 0, retries = 0, hups = 0, others = 0, pcpu = -1, ccpu = -1;
		unsigned long long tail = 0;
		double t_hup = 0, t_exit = 0, t_sig = 0, t0;
		pid_t pid;
		char c;

		exited = 0;
		signal(SIGCHLD, on_chld);
		if (pipe(go))
			return 1;
		pid = fork();
		if (!pid) {
			close(go[1]);
			if (read(go[0], &c, 1) != 1)
				_exit(1);
			execl("/bin/true", "true", NULL);
			_exit(127);
		}
		close(go[0]);
		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = PERF_TYPE_SOFTWARE;
		a.config = PERF_COUNT_SW_DUMMY;
		a.task = 1;
		a.sample_period = 1;
		a.wakeup_events = 1;
		a.exclude_kernel = 1;
		a.sample_id_all = 1;
		a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME;
		fd = syscall(SYS_perf_event_open, &a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) { perror("open"); return 1; }
		pc = mmap(NULL, 129 * pg, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
		if (pc == MAP_FAILED) { perror("mmap"); return 1; }
		t0 = now();
		if (write(go[1], "g", 1) != 1)
			return 1;
		for (;;) {
			unsigned long long head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
			char *data = (char *)pc + pg;

			while (tail < head) {
				struct perf_event_header *h = (void *)(data + (tail % (128 * pg)));
				if (h->type == PERF_RECORD_EXIT) {
					nr_exit++;
					if (!t_exit) t_exit = now() - t0;
				} else {
					others++;
				}
				tail += h->size;
			}
			__atomic_store_n(&pc->data_tail, tail, __ATOMIC_RELEASE);
			if (exited && !t_sig) t_sig = now() - t0;
			if (exited && nr_exit)
				break;
			{
				struct pollfd p = { .fd = fd, .events = POLLIN | POLLERR | POLLHUP };
				poll(&p, 1, -1);
				if ((p.revents & POLLHUP) && !hups++) {
					char path[64], buf[1024], *q;
					int f, i;
					t_hup = now() - t0;
					pcpu = sched_getcpu();
					snprintf(path, sizeof(path), "/proc/%d/stat", pid);
					f = open(path, O_RDONLY);
					if (f >= 0) {
						int n = read(f, buf, sizeof(buf) - 1);
						close(f);
						if (n > 0) {
							buf[n] = 0;
							q = strrchr(buf, ')');
							for (i = 0; q && i < 37; i++)
								q = strchr(q + 1, ' ');
							if (q)
								ccpu = atoi(q + 1);
						}
					}
				}
			}
			if (retries++ > cap)
				break;
		}
		if (!(exited && nr_exit == 1))
			fails++;
		tot_spin += hups;
		if (hups > max_spin)
			max_spin = hups;
		printf("round %d: %s parent_cpu=%d child_cpu=%d nr_exit=%d others=%d exited=%d retries=%d hups=%d hup@%.1fms exit@%.1fms sig@%.1fms\n",
		       r, exited && nr_exit == 1 ? "ok  " : "FAIL", pcpu, ccpu, nr_exit, others, (int)exited,
		       retries, hups, t_hup * 1e3, t_exit * 1e3, t_sig * 1e3);
		munmap(pc, 129 * pg);
		close(fd);
		close(go[1]);
		waitpid(pid, NULL, 0);
	}
	printf("T24SUM fails %d of %d; HUP polls before SIGCHLD: mean %.1f max %ld\n", fails, rounds, (double)tot_spin / rounds, max_spin);
	return 0;
}
