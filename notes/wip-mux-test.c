/* A selftest (for counting.c) that fails on our core under arm64-icount and passes on mainline: see notes/next-steps.md */
#define NR_MUX 16
/*
 * More hardware events than counters: the flexible ones take turns, those
 * bound to this CPU and those for any CPU alike, so each one runs for part
 * of the time it is enabled.  Needs a hardware PMU (arm64 guests).
 */
TEST(multiplexing_shares_bound_and_unbound_if_available)
{
	struct perf_event_attr attr;
	__u64 v[NR_MUX][3];
	int fd[NR_MUX], i;

	ASSERT_EQ(0, pin_to_cpu(0, 0));
	for (i = 0; i < NR_MUX; i++) {
		memset(&attr, 0, sizeof(attr));
		attr.size = sizeof(attr);
		attr.type = PERF_TYPE_HARDWARE;
		attr.config = PERF_COUNT_HW_INSTRUCTIONS;
		attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED |
				   PERF_FORMAT_TOTAL_TIME_RUNNING;
		attr.exclude_kernel = 1;
		attr.exclude_hv = 1;
		attr.disabled = 1;
		fd[i] = sys_perf_event_open(&attr, 0, i % 2 ? 0 : -1, -1, 0);
		if (fd[i] < 0 && i == 0 && (errno == ENOENT ||
					    errno == EOPNOTSUPP ||
					    errno == ENODEV))
			SKIP(return, "no hardware PMU: %s", strerror(errno));
		ASSERT_GE(fd[i], 0) TH_LOG("instructions #%d: %s", i,
					   strerror(errno));
	}
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_ENABLE, 0, 0, 0, 0));
	burn_cpu(10 * BURN_NS);
	ASSERT_EQ(0, prctl(PR_TASK_PERF_EVENTS_DISABLE, 0, 0, 0, 0));
	for (i = 0; i < NR_MUX; i++) {
		ASSERT_EQ(sizeof(v[i]), read(fd[i], v[i], sizeof(v[i])));
		close(fd[i]);
	}
	for (i = 0; i < NR_MUX; i++) {
		EXPECT_GT(v[i][2], 0) TH_LOG("event %d (%s) never ran", i,
					     i % 2 ? "cpu 0" : "any cpu");
		EXPECT_LT(v[i][2], v[i][1]) TH_LOG("event %d ran all along", i);
		EXPECT_GT(v[i][0], 0);
	}
}

