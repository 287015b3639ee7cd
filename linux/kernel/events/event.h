/* SPDX-License-Identifier: GPL-2.0 */
/* Event allocation, references and release, the event file (event.c). */
#ifndef _KERNEL_EVENTS_EVENT_H
#define _KERNEL_EVENTS_EVENT_H

struct seq_file;

struct perf_event *perf_event_alloc(struct perf_event_attr *attr, int cpu,
				    struct task_struct *task,
				    struct perf_event *group_leader,
				    struct perf_event *parent_event,
				    perf_overflow_handler_t overflow_handler,
				    void *context, int cgroup_fd);
void perf_event_free(struct perf_event *event);	/* never installed */
void perf_event_set_owner(struct perf_event *event);
void perf_event_drop_owner(struct perf_event *event);
u64 perf_event_last_id(void);
int perf_event_set_clock(struct perf_event *event, clockid_t clk);
bool perf_event_tryget(struct perf_event *event);
void perf_event_get_ref(struct perf_event *event);
void perf_event_put(struct perf_event *event);
void perf_event_put_deferred(struct perf_event *event);
extern const struct file_operations perf_fops;
bool is_perf_file(struct file *file);
void perf_event_show_fdinfo(struct seq_file *m, struct perf_event *event);
int perf_event_fd_get(int fd, struct fd *f, struct perf_event **event);

#endif /* _KERNEL_EVENTS_EVENT_H */
