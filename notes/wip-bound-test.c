/* For counting.c (needs <sys/prctl.h>): see notes/next-steps.md */
/*
 * A task's event may also be bound to one CPU: it counts only while the
 * task runs there, and is enabled (its time_enabled runs) wherever the
 * task runs.  One event per CPU and one for any CPU, the task on CPU 0 and
 * then on CPU 1.
 */
TEST(task_events_bound_to_cpus)
{
	const __u64 rf = PERF_FORMAT_TOTAL_TIME_ENABLED |
			 PERF_FORMAT_TOTAL_TIME_RUNNING;
	const int cpus[3] = { -1, 0, 1 };
	struct perf_event_attr attr;
	__u64 v[3][3], sum;
	int fd[3], i;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return, "needs two CPUs online");
	ASSERT_EQ(0, pin_to_cpu(0, 0));
	for (i = 0; i < 3; i++) {
		sw_attr(&attr, PERF_COUNT_SW_TASK_CLOCK);
		attr.read_format = rf;
		attr.disabled = 1;
		fd[i] = sys_perf_event_open(&attr, 0, cpus[i], -1, 0);
		ASSERT_GE(fd[i], 0) TH_LOG("task-clock on cpu %d: %s",
					   cpus[i], strerror(errno));
	}
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, pin_to_cpu(0, 1));
	burn_cpu(BURN_NS);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	for (i = 0; i < 3; i++) {
		ASSERT_EQ(sizeof(v[i]), read(fd[i], v[i], sizeof(v[i])));
		close(fd[i]);
	}

	/* Each CPU's event saw its half of the run, the unbound one both. */
	EXPECT_GE(v[0][0], 2 * BURN_NS);
	EXPECT_GE(v[1][0], BURN_NS);
	EXPECT_GE(v[2][0], BURN_NS);
	EXPECT_LT(v[1][0], v[0][0]);
	EXPECT_LT(v[2][0], v[0][0]);
	sum = v[1][0] + v[2][0];
	EXPECT_LE(sum, v[0][0] + v[0][0] / 20) TH_LOG("%llu + %llu vs %llu",
		(unsigned long long)v[1][0], (unsigned long long)v[2][0],
		(unsigned long long)v[0][0]);
	EXPECT_GE(sum, v[0][0] - v[0][0] / 20);

	/* Enabled all along, running only on their CPU. */
	for (i = 1; i < 3; i++) {
		EXPECT_GE(v[i][1], v[0][1] - v[0][1] / 20);
		EXPECT_LT(v[i][2], v[i][1]);
		EXPECT_GE(v[i][2], BURN_NS);
	}
	EXPECT_GE(v[0][2], v[0][1] - v[0][1] / 100);
}

