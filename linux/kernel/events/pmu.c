// SPDX-License-Identifier: GPL-2.0
/*
 * The PMU registry.
 *
 * Every PMU the perf core knows is on perf_pmus and in an idr keyed by its
 * type number.  Fixed types (PERF_TYPE_SOFTWARE, PERF_TYPE_RAW, ...) are
 * given to drivers that ask for them; everybody else gets a number from
 * PERF_TYPE_MAX up, which user space finds in
 * /sys/bus/event_source/devices/NAME/type.
 *
 * Writers hold perf_pmus_lock.  Readers walk the list or look a type up
 * inside an SRCU read section on pmus_srcu (they may sleep: event_init()
 * methods do); perf_pmu_unregister() waits for both SRCU and RCU readers
 * before the PMU's per-CPU state goes away.  A PMU that is in the idr with
 * a NULL pointer is still being set up and is invisible to lookups.
 *
 * This file also owns what every PMU gets without asking: the per-CPU
 * disable nesting count behind perf_pmu_disable()/perf_pmu_enable(), the
 * default callbacks, the "event_source" bus with one device per PMU, and
 * the CPU masks of PMUs that count for a whole core, die, cluster, package
 * or system (pmu->scope).
 */

/**
 * DOC: Registry locks
 *
 * ``perf_pmus_lock`` (``pmu.c``, a mutex)
 *   Serialises PMU registration and removal, the list ``perf_pmus`` and the
 *   idr of type numbers, the ``event_source`` bus, and the CPU masks of
 *   scoped PMUs (changed by the hotplug callbacks, which then migrate the
 *   scoped PMUs' events with ``perf_pmu_migrate_context()`` while still
 *   holding it).
 *
 * ``pmus_srcu`` (``pmu.c``, SRCU)
 *   Readers of the PMU list and of the type idr (``perf_pmu_init_event()``,
 *   around the PMUs' ``event_init()``, which may sleep) are inside an SRCU
 *   read section.  ``perf_pmu_unregister()`` unlinks the PMU under
 *   ``perf_pmus_lock``, then waits for SRCU and RCU readers before it frees
 *   the PMU's per-CPU state.
 *
 * ``pmu->events_lock`` (a spinlock in ``struct pmu``, IRQs off)
 *   Protects ``pmu->events`` (the PMU's events, from a successful
 *   ``event_init()`` until they are freed or revoked) and
 *   ``pmu->task_epcs`` (its task sub-contexts, from creation to the last
 *   reference).  Taken alone: never around another perf lock.
 *   ``perf_pmu_unregister()`` (``revoke.c``) takes each event and
 *   sub-context off these lists with a reference, then revokes it under
 *   its context's ``ctx->mutex``.
 *
 * ``perf_pmu_mux_lock`` (``pmu.c``, a mutex)
 *   Serialises writes to ``perf_event_mux_interval_ms`` in sysfs.
 */

#include <linux/cpu.h>
#include <linux/cpumask.h>
#include <linux/device.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/perf_event.h>
#include <linux/perf_regs.h>
#include <linux/percpu.h>
#include <linux/sched/clock.h>
#include <linux/slab.h>
#include <linux/srcu.h>
#include <linux/sysfs.h>
#include <linux/topology.h>

#include "internal.h"
#include "context.h"
#include "pmu.h"
#include "revoke.h"
#include "rotate.h"
#include "swevent.h"

/* How many times an event_init() may hand an event on to another type. */
#define PERF_PMU_MAX_FORWARDS	4

LIST_HEAD(perf_pmus);
/* Serialises registration, the scope masks and the event_source bus. */
DEFINE_MUTEX(perf_pmus_lock);
DEFINE_SRCU(pmus_srcu);

static DEFINE_IDR(perf_pmu_idr);

/* ---------------------------------------------------------------------
 * Enable and disable
 */

/* The default of the optional callbacks that return nothing. */
static void perf_pmu_nothing(struct pmu *pmu)
{
}

/**
 * perf_pmu_disable - stop a PMU on this CPU, nesting
 * @pmu: the PMU
 *
 * Calls pmu->pmu_disable() when the first of nested disables is made.
 * The caller has IRQs (or at least preemption) off and undoes it with
 * perf_pmu_enable() on the same CPU.
 */
void perf_pmu_disable(struct pmu *pmu)
{
	int *depth;

	/* a PMU with nothing to stop (software) keeps no depth either */
	if (pmu->pmu_disable == perf_pmu_nothing)
		return;
	depth = this_cpu_ptr(pmu->pmu_disable_count);
	if ((*depth)++ == 0)
		pmu->pmu_disable(pmu);
}

/**
 * perf_pmu_enable - undo one perf_pmu_disable()
 * @pmu: the PMU
 *
 * Calls pmu->pmu_enable() when the last nested disable is undone.
 */
void perf_pmu_enable(struct pmu *pmu)
{
	int *depth;

	if (pmu->pmu_enable == perf_pmu_nothing)
		return;
	depth = this_cpu_ptr(pmu->pmu_disable_count);
	if (WARN_ON_ONCE(*depth <= 0))
		return;
	if (--(*depth) == 0)
		pmu->pmu_enable(pmu);
}

/* ---------------------------------------------------------------------
 * Default callbacks
 */

static void perf_pmu_txn_start_nothing(struct pmu *pmu, unsigned int flags)
{
}

static int perf_pmu_txn_commit_nothing(struct pmu *pmu)
{
	return 0;
}

/*
 * For PMUs with pmu_enable()/pmu_disable(): an ADD transaction keeps the
 * PMU disabled while the group goes on, so that the hardware is written
 * once.  Other transaction kinds need nothing.  Transactions do not nest
 * on a CPU, so one per-CPU word remembers the kind of the open one.
 */
static DEFINE_PER_CPU(unsigned int, perf_pmu_txn_open);

static void perf_pmu_txn_start_disabled(struct pmu *pmu, unsigned int flags)
{
	__this_cpu_write(perf_pmu_txn_open, flags);
	if (flags == PERF_PMU_TXN_ADD)
		perf_pmu_disable(pmu);
}

static void perf_pmu_txn_end_disabled(struct pmu *pmu)
{
	unsigned int flags = __this_cpu_read(perf_pmu_txn_open);

	__this_cpu_write(perf_pmu_txn_open, 0);
	if (flags == PERF_PMU_TXN_ADD)
		perf_pmu_enable(pmu);
}

static int perf_pmu_txn_commit_disabled(struct pmu *pmu)
{
	perf_pmu_txn_end_disabled(pmu);
	return 0;
}

static int perf_pmu_no_mmap_index(struct perf_event *event)
{
	return 0;
}

static int perf_pmu_any_period(struct perf_event *event, u64 value)
{
	return 0;
}

static void perf_pmu_fill_defaults(struct pmu *pmu)
{
	if (!pmu->start_txn) {
		if (pmu->pmu_enable) {
			pmu->start_txn = perf_pmu_txn_start_disabled;
			pmu->commit_txn = perf_pmu_txn_commit_disabled;
			pmu->cancel_txn = perf_pmu_txn_end_disabled;
		} else {
			pmu->start_txn = perf_pmu_txn_start_nothing;
			pmu->commit_txn = perf_pmu_txn_commit_nothing;
			pmu->cancel_txn = perf_pmu_nothing;
		}
	}
	if (!pmu->pmu_enable || !pmu->pmu_disable) {
		pmu->pmu_enable = perf_pmu_nothing;
		pmu->pmu_disable = perf_pmu_nothing;
	}
	if (!pmu->event_idx)
		pmu->event_idx = perf_pmu_no_mmap_index;
	if (!pmu->check_period)
		pmu->check_period = perf_pmu_any_period;
	if (pmu->hrtimer_interval_ms < 1)
		pmu->hrtimer_interval_ms = PERF_MUX_DEFAULT_MS;
}

/* ---------------------------------------------------------------------
 * Scoped PMUs
 *
 * A PMU with pmu->scope counts something shared by several CPUs (a core's
 * threads, a package, ...).  Its events may be opened on any CPU, but one
 * online CPU per domain is designated to carry them: perf_scope_cpus[scope]
 * holds one CPU of every domain that has an online CPU, and sysfs shows it
 * as the PMU's "cpumask".  Changed under perf_pmus_lock by the CPU hotplug
 * hooks below.
 */
static struct cpumask perf_scope_cpus[PERF_PMU_MAX_SCOPE];

/**
 * perf_pmu_scope_span - the CPUs that share @cpu's domain of a scope
 * @scope: a PERF_PMU_SCOPE_* other than NONE
 * @cpu: a CPU
 *
 * Return: the topology mask, or NULL for an unknown scope.
 */
const struct cpumask *perf_pmu_scope_span(unsigned int scope, int cpu)
{
	/* Widest domain first: the whole machine, then package, die, ... */
	if (scope == PERF_PMU_SCOPE_SYS_WIDE)
		return cpu_online_mask;
	if (scope == PERF_PMU_SCOPE_PKG)
		return topology_core_cpumask(cpu);
	if (scope == PERF_PMU_SCOPE_DIE)
		return topology_die_cpumask(cpu);
	if (scope == PERF_PMU_SCOPE_CLUSTER)
		return topology_cluster_cpumask(cpu);
	if (scope == PERF_PMU_SCOPE_CORE)
		return topology_sibling_cpumask(cpu);

	return NULL;
}

/**
 * perf_pmu_scope_cpu_online - CPU hotplug: designate @cpu where needed
 * @cpu: the CPU coming online
 *
 * @cpu becomes the designated CPU of each of its domains that has none.
 * Called by the CPU online path; takes perf_pmus_lock.
 */
void perf_pmu_scope_cpu_online(unsigned int cpu)
{
	unsigned int scope;

	mutex_lock(&perf_pmus_lock);
	for (scope = PERF_PMU_SCOPE_NONE + 1; scope < PERF_PMU_MAX_SCOPE; scope++) {
		const struct cpumask *span = perf_pmu_scope_span(scope, cpu);

		/*
		 * Early in boot the topology masks may still be empty; the
		 * boot CPU then stands for every domain until others come.
		 */
		if (!span || !cpumask_intersects(span, &perf_scope_cpus[scope]))
			cpumask_set_cpu(cpu, &perf_scope_cpus[scope]);
	}
	mutex_unlock(&perf_pmus_lock);
}

/**
 * perf_pmu_scope_cpu_offline - CPU hotplug: hand @cpu's domains on
 * @cpu: the CPU going down, still online
 *
 * Where @cpu was a designated CPU, another online CPU of the same domain
 * takes over and the events of the scoped PMUs move there
 * (perf_pmu_migrate_context()).  Call before @cpu's own CPU context is
 * taken down, without ctx->mutex held; takes perf_pmus_lock.
 */
void perf_pmu_scope_cpu_offline(unsigned int cpu)
{
	int heir[PERF_PMU_MAX_SCOPE];
	unsigned int scope;
	struct pmu *pmu;

	mutex_lock(&perf_pmus_lock);
	for (scope = PERF_PMU_SCOPE_NONE + 1; scope < PERF_PMU_MAX_SCOPE; scope++) {
		const struct cpumask *span = perf_pmu_scope_span(scope, cpu);
		unsigned int other;

		heir[scope] = -1;
		if (!cpumask_test_and_clear_cpu(cpu, &perf_scope_cpus[scope]))
			continue;
		if (!span)
			continue;
		other = cpumask_any_and_but(span, cpu_online_mask, cpu);
		if (other >= nr_cpu_ids)
			continue;
		cpumask_set_cpu(other, &perf_scope_cpus[scope]);
		heir[scope] = other;
	}

	for_each_perf_pmu(pmu) {
		if (pmu->scope == PERF_PMU_SCOPE_NONE ||
		    pmu->scope >= PERF_PMU_MAX_SCOPE || heir[pmu->scope] < 0)
			continue;
		perf_pmu_migrate_context(pmu, cpu, heir[pmu->scope]);
	}
	mutex_unlock(&perf_pmus_lock);
}

/*
 * A scoped PMU's event opened on a CPU must have a designated CPU in that
 * CPU's domain; such events may then be read from any CPU of the domain.
 */
static int perf_pmu_check_scope(struct pmu *pmu, struct perf_event *event)
{
	const struct cpumask *span;

	if (pmu->scope == PERF_PMU_SCOPE_NONE || event->cpu < 0)
		return 0;
	if (pmu->scope >= PERF_PMU_MAX_SCOPE)
		return -ENODEV;
	span = perf_pmu_scope_span(pmu->scope, event->cpu);
	if (!span || !cpumask_intersects(span, &perf_scope_cpus[pmu->scope]))
		return -ENODEV;
	event->event_caps |= PERF_EV_CAP_READ_SCOPE;
	return 0;
}

/* ---------------------------------------------------------------------
 * sysfs: the event_source bus
 */

static bool perf_pmu_bus_ready;

static ssize_t type_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", pmu->type);
}
static DEVICE_ATTR_RO(type);

static ssize_t perf_event_mux_interval_ms_show(struct device *dev,
					       struct device_attribute *attr,
					       char *buf)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%d\n", READ_ONCE(pmu->hrtimer_interval_ms));
}

static DEFINE_MUTEX(perf_pmu_mux_lock);

/*
 * A new multiplexing period is stored for every possible CPU (offline ones
 * included, so they use it when they come back); each CPU's timer picks
 * it up when it is next armed.
 */
static ssize_t perf_event_mux_interval_ms_store(struct device *dev,
						struct device_attribute *attr,
						const char *buf, size_t count)
{
	struct pmu *pmu = dev_get_drvdata(dev);
	int ms, cpu, err;

	err = kstrtoint(buf, 0, &ms);
	if (err)
		return err;
	if (ms < 1)
		return -EINVAL;

	mutex_lock(&perf_pmu_mux_lock);
	if (ms != pmu->hrtimer_interval_ms) {
		WRITE_ONCE(pmu->hrtimer_interval_ms, ms);
		for_each_possible_cpu(cpu)
			perf_mux_set_interval(per_cpu_ptr(pmu->cpu_pmu_context, cpu), ms);
	}
	mutex_unlock(&perf_pmu_mux_lock);
	return count;
}
static DEVICE_ATTR_RW(perf_event_mux_interval_ms);

static ssize_t nr_addr_filters_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	return sysfs_emit(buf, "%u\n", pmu->nr_addr_filters);
}
static DEVICE_ATTR_RO(nr_addr_filters);

static ssize_t cpumask_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct pmu *pmu = dev_get_drvdata(dev);

	if (pmu->scope == PERF_PMU_SCOPE_NONE || pmu->scope >= PERF_PMU_MAX_SCOPE)
		return 0;
	return cpumap_print_to_pagebuf(true, buf, &perf_scope_cpus[pmu->scope]);
}
static DEVICE_ATTR_RO(cpumask);

static struct attribute *perf_pmu_common_attrs[] = {
	&dev_attr_type.attr,
	&dev_attr_perf_event_mux_interval_ms.attr,
	&dev_attr_nr_addr_filters.attr,
	&dev_attr_cpumask.attr,
	NULL,
};

static umode_t perf_pmu_attr_visible(struct kobject *kobj,
				     struct attribute *attr, int index)
{
	struct pmu *pmu = dev_get_drvdata(kobj_to_dev(kobj));

	if (attr == &dev_attr_nr_addr_filters.attr && !pmu->nr_addr_filters)
		return 0;
	if (attr == &dev_attr_cpumask.attr && pmu->scope == PERF_PMU_SCOPE_NONE)
		return 0;
	return attr->mode;
}

static const struct attribute_group perf_pmu_common_group = {
	.attrs		= perf_pmu_common_attrs,
	.is_visible	= perf_pmu_attr_visible,
};

static const struct attribute_group *perf_pmu_common_groups[] = {
	&perf_pmu_common_group,
	NULL,
};

static const struct bus_type perf_pmu_bus = {
	.name		= "event_source",
	.dev_groups	= perf_pmu_common_groups,
};

static void perf_pmu_dev_release(struct device *dev)
{
	kfree(dev);
}

static bool perf_pmu_has_dev(struct pmu *pmu)
{
	return pmu->dev && pmu->dev != PMU_NULL_DEV;
}

/* Called with perf_pmus_lock held, once the bus is registered. */
static int perf_pmu_add_dev(struct pmu *pmu)
{
	struct device *dev;
	int err;

	lockdep_assert_held(&perf_pmus_lock);
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return -ENOMEM;

	device_initialize(dev);
	dev->bus = &perf_pmu_bus;
	dev->parent = pmu->parent;
	dev->groups = pmu->attr_groups;
	dev->release = perf_pmu_dev_release;
	dev_set_drvdata(dev, pmu);

	err = dev_set_name(dev, "%s", pmu->name);
	if (err)
		goto put;
	err = device_add(dev);
	if (err)
		goto put;
	if (pmu->attr_update) {
		err = sysfs_update_groups(&dev->kobj, pmu->attr_update);
		if (err) {
			device_del(dev);
			goto put;
		}
	}
	pmu->dev = dev;
	return 0;

put:
	put_device(dev);
	return err;
}

static void perf_pmu_del_dev(struct pmu *pmu)
{
	if (!perf_pmu_has_dev(pmu))
		return;
	device_del(pmu->dev);
	put_device(pmu->dev);
	pmu->dev = NULL;
}

/**
 * perf_pmu_sysfs_init - register the event_source bus and its devices
 *
 * PMUs registered before this get their device now; later ones get it in
 * perf_pmu_register().  Runs once, as a device_initcall (the driver core
 * is up by then, and most PMU drivers register at or before that level);
 * a second call does nothing.
 */
void perf_pmu_sysfs_init(void)
{
	struct pmu *pmu;
	int err;

	mutex_lock(&perf_pmus_lock);
	if (perf_pmu_bus_ready)
		goto unlock;

	err = bus_register(&perf_pmu_bus);
	if (err) {
		pr_err("perf: cannot register the event_source bus: %d\n", err);
		goto unlock;
	}
	list_for_each_entry(pmu, &perf_pmus, entry) {
		if (pmu->dev)
			continue;
		err = perf_pmu_add_dev(pmu);
		if (err)
			pr_warn("perf: no sysfs device for PMU %s: %d\n",
				pmu->name, err);
	}
	perf_pmu_bus_ready = true;
unlock:
	mutex_unlock(&perf_pmus_lock);
}

static int __init perf_pmu_sysfs_initcall(void)
{
	perf_pmu_sysfs_init();
	return 0;
}
device_initcall(perf_pmu_sysfs_initcall);

/**
 * perf_event_sysfs_show - show() of the PMU_EVENT_ATTR_STRING() attributes
 * @dev: the PMU's device
 * @attr: the device_attribute inside a struct perf_pmu_events_attr
 * @page: the sysfs buffer
 *
 * Return: the length of the event string and a newline, or 0 if there is
 * no string.
 */
ssize_t perf_event_sysfs_show(struct device *dev, struct device_attribute *attr,
			      char *page)
{
	struct perf_pmu_events_attr *events_attr =
		container_of(attr, struct perf_pmu_events_attr, attr);

	if (!events_attr->event_str)
		return 0;
	return sysfs_emit(page, "%s\n", events_attr->event_str);
}
EXPORT_SYMBOL_GPL(perf_event_sysfs_show);

/* ---------------------------------------------------------------------
 * Registration
 */

/**
 * perf_pmu_register - make a PMU available to perf_event_open()
 * @pmu: the driver's PMU, with at least event_init, add, del, start, stop
 *	 and read filled in
 * @name: its name (sysfs: /sys/bus/event_source/devices/@name)
 * @type: a PERF_TYPE_* the PMU stands for, or -1 for a new dynamic type
 *
 * Callbacks the driver leaves NULL get defaults.  Process context.
 *
 * Return: 0, or -EINVAL (no name, bad scope), -EBUSY (the fixed type is
 * taken), -ENOMEM, or an error from the driver core.
 */
int perf_pmu_register(struct pmu *pmu, const char *name, int type)
{
	int id, cpu, err;

	if (WARN_ONCE(!name, "perf: a PMU needs a name\n"))
		return -EINVAL;
	if (WARN_ONCE(pmu->scope >= PERF_PMU_MAX_SCOPE,
		      "perf: PMU %s has an unknown scope %u\n", name, pmu->scope))
		return -EINVAL;

	pmu->name = name;
	pmu->type = -1;
	perf_pmu_fill_defaults(pmu);

	pmu->pmu_disable_count = alloc_percpu(int);
	pmu->cpu_pmu_context = alloc_percpu(struct perf_cpu_pmu_context);
	if (!pmu->pmu_disable_count || !pmu->cpu_pmu_context) {
		err = -ENOMEM;
		goto free;
	}
	for_each_possible_cpu(cpu)
		perf_cpc_init(per_cpu_ptr(pmu->cpu_pmu_context, cpu), pmu, cpu);
	atomic_set(&pmu->exclusive_cnt, 0);
	spin_lock_init(&pmu->events_lock);
	INIT_LIST_HEAD(&pmu->events);
	INIT_LIST_HEAD(&pmu->task_epcs);

	mutex_lock(&perf_pmus_lock);
	/* Reserve the number; lookups see NULL until the PMU is complete. */
	if (type >= 0)
		id = idr_alloc(&perf_pmu_idr, NULL, type, type + 1, GFP_KERNEL);
	else
		id = idr_alloc(&perf_pmu_idr, NULL, PERF_TYPE_MAX, 0, GFP_KERNEL);
	if (id < 0) {
		err = id;
		if (type >= 0 && id == -ENOSPC) {
			WARN(1, "perf: PMU %s: type %d is taken\n", name, type);
			err = -EBUSY;
		}
		goto unlock;
	}
	pmu->type = id;

	if (perf_pmu_bus_ready && !pmu->dev) {
		err = perf_pmu_add_dev(pmu);
		if (err)
			goto free_id;
	}

	idr_replace(&perf_pmu_idr, pmu, id);
	/*
	 * Newest first: where two PMUs would take the same event on a walk
	 * of the list, the one registered later wins.
	 */
	list_add_rcu(&pmu->entry, &perf_pmus);
	mutex_unlock(&perf_pmus_lock);
	return 0;

free_id:
	idr_remove(&perf_pmu_idr, id);
	pmu->type = -1;
unlock:
	mutex_unlock(&perf_pmus_lock);
free:
	free_percpu(pmu->cpu_pmu_context);
	pmu->cpu_pmu_context = NULL;
	free_percpu(pmu->pmu_disable_count);
	pmu->pmu_disable_count = NULL;
	return err;
}
EXPORT_SYMBOL_GPL(perf_pmu_register);

/**
 * perf_pmu_unregister - take a PMU away
 * @pmu: a PMU registered with perf_pmu_register()
 *
 * New events can no longer find the PMU once lookups in flight are done;
 * the events it still has are revoked (perf_pmu_revoke_events()): they
 * keep their counts for read() and never reach the driver again.  A
 * module's PMU keeps its module loaded while it has events (a module
 * reference each), so this happens when a driver lets go of a device.
 * Process context.
 */
void perf_pmu_unregister(struct pmu *pmu)
{
	int cpu;

	mutex_lock(&perf_pmus_lock);
	list_del_rcu(&pmu->entry);
	idr_remove(&perf_pmu_idr, pmu->type);
	perf_pmu_del_dev(pmu);
	mutex_unlock(&perf_pmus_lock);

	/* Lookups run under SRCU; the scheduling paths under plain RCU. */
	synchronize_srcu(&pmus_srcu);
	synchronize_rcu();

	perf_pmu_revoke_events(pmu);

	for_each_possible_cpu(cpu)
		perf_mux_timer_stop(per_cpu_ptr(pmu->cpu_pmu_context, cpu));
	free_percpu(pmu->cpu_pmu_context);
	pmu->cpu_pmu_context = NULL;
	free_percpu(pmu->pmu_disable_count);
	pmu->pmu_disable_count = NULL;
}
EXPORT_SYMBOL_GPL(perf_pmu_unregister);

/**
 * perf_pmu_by_type - the PMU registered for a type number
 * @type: attr.type
 *
 * Caller is inside srcu_read_lock(&pmus_srcu), or holds perf_pmus_lock.
 *
 * Return: the PMU, or NULL.
 */
struct pmu *perf_pmu_by_type(u32 type)
{
	struct pmu *pmu;

	if (type > INT_MAX)
		return NULL;
	rcu_read_lock();
	pmu = idr_find(&perf_pmu_idr, type);
	rcu_read_unlock();
	return pmu;
}

/* ---------------------------------------------------------------------
 * Finding the PMU of a new event
 */

/*
 * Lock the context of @leader, whose sibling list a driver's event_init()
 * may walk.  Nested, as a precaution: the caller may hold another
 * context's mutex.  The leader may move to another context meanwhile
 * (perf_pmu_migrate_context()), hence the re-check.
 */
static struct perf_event_context *perf_pmu_lock_group(struct perf_event *leader)
{
	struct perf_event_context *ctx;

	for (;;) {
		rcu_read_lock();
		ctx = READ_ONCE(leader->ctx);
		if (!ctx) {
			rcu_read_unlock();
			return NULL;
		}
		if (!refcount_inc_not_zero(&ctx->refcount)) {
			rcu_read_unlock();
			cpu_relax();
			continue;
		}
		rcu_read_unlock();

		mutex_lock_nested(&ctx->mutex, SINGLE_DEPTH_NESTING);
		if (READ_ONCE(leader->ctx) == ctx)
			return ctx;
		mutex_unlock(&ctx->mutex);
		perf_ctx_put(ctx);
	}
}

/* Undo perf_pmu_lock_group(): the mutex, then the reference it took. */
static void perf_pmu_unlock_group(struct perf_event_context *ctx)
{
	mutex_unlock(&ctx->mutex);
	perf_ctx_put(ctx);
}

static bool perf_attr_excludes_anything(const struct perf_event_attr *attr)
{
	return attr->exclude_user || attr->exclude_kernel || attr->exclude_hv ||
	       attr->exclude_idle || attr->exclude_host || attr->exclude_guest;
}

/* What the PMU's capabilities say about an event its event_init() took. */
static int perf_pmu_check_caps(struct pmu *pmu, struct perf_event *event)
{
	const struct perf_event_attr *attr = &event->attr;

	if (!(pmu->capabilities & PERF_PMU_CAP_EXTENDED_REGS) &&
	    ((attr->sample_regs_user | attr->sample_regs_intr) & PERF_REG_EXTENDED_MASK))
		return -EOPNOTSUPP;
	if ((pmu->capabilities & PERF_PMU_CAP_NO_EXCLUDE) &&
	    perf_attr_excludes_anything(attr))
		return -EINVAL;
	if ((pmu->capabilities & PERF_PMU_CAP_NO_INTERRUPT) && attr->sample_period)
		return -EOPNOTSUPP;
	return perf_pmu_check_scope(pmu, event);
}

/*
 * Offer @event to @pmu.  On success event->pmu is set and a reference on
 * the PMU's module is held; on failure neither.
 */
static int perf_pmu_offer(struct pmu *pmu, struct perf_event *event)
{
	struct perf_event_context *group_ctx = NULL;
	int err;

	if (!try_module_get(pmu->module))
		return -ENODEV;

	/*
	 * Hardware drivers check in event_init() that the whole group fits
	 * their counters: keep the group still meanwhile.  Software PMUs
	 * never look at the group.  An inherited copy joins a group that
	 * inherit.c is building with the child context's mutex held.
	 */
	if (!perf_event_is_leader(event) && !event->parent &&
	    pmu->task_ctx_nr != perf_sw_context)
		group_ctx = perf_pmu_lock_group(event->group_leader);

	event->pmu = pmu;
	err = pmu->event_init(event);

	if (group_ctx)
		perf_pmu_unlock_group(group_ctx);

	if (!err) {
		err = perf_pmu_check_caps(pmu, event);
		if (err && event->destroy) {
			event->destroy(event);
			event->destroy = NULL;
		}
	}
	if (err) {
		event->pmu = NULL;
		module_put(pmu->module);
		return err;
	}
	if (pmu->task_ctx_nr == perf_sw_context)
		event->event_caps |= PERF_EV_CAP_SOFTWARE;
	if (perf_pmu_counts_in_software(pmu))
		event->event_caps |= PERF_EV_CAP_SW_COUNTS;

	spin_lock_irq(&pmu->events_lock);
	list_add_tail(&event->pmu_list, &pmu->events);
	spin_unlock_irq(&pmu->events_lock);
	return 0;
}

/*
 * The lookup rules:
 *  - HARDWARE and HW_CACHE events may name a PMU in config bits 32-63
 *    (the "extended type", for systems with several CPU PMUs); only that
 *    PMU is asked, and only if it has PERF_PMU_CAP_EXTENDED_HW_TYPE.
 *    Without one, they go to the PMU of PERF_TYPE_RAW first, the CPU's
 *    own PMU where the driver registered it under that type.
 *  - Otherwise the PMU registered for attr.type is asked.  Its answer is
 *    final, except that -ENOENT after event_init() rewrote attr.type
 *    passes the event on to that type (the software PMU does this for
 *    cpu-clock and task-clock), and -ENOENT from the RAW PMU for a
 *    HARDWARE/HW_CACHE event falls back to attr.type.
 *  - If no PMU has the type (an extended type naming no PMU included:
 *    its config has lost the PMU bits by then), every PMU is asked in
 *    turn until one says something other than -ENOENT.
 */
static int perf_pmu_find(struct perf_event *event)
{
	u32 type = event->attr.type;
	bool extended = false;
	int forwards = 0;
	struct pmu *pmu;
	int err;

	if (type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE) {
		u32 named = event->attr.config >> PERF_PMU_TYPE_SHIFT;

		if (named) {
			extended = true;
			type = named;
			event->attr.config &= PERF_HW_EVENT_MASK;
		} else {
			type = PERF_TYPE_RAW;
		}
	}

	while ((pmu = perf_pmu_by_type(type))) {
		if (extended && !(pmu->capabilities & PERF_PMU_CAP_EXTENDED_HW_TYPE))
			return -ENOENT;

		err = perf_pmu_offer(pmu, event);
		if (err != -ENOENT || extended || event->attr.type == type)
			return err;
		if (++forwards > PERF_PMU_MAX_FORWARDS)
			return -ENOENT;
		type = event->attr.type;
	}

	for_each_perf_pmu(pmu) {
		err = perf_pmu_offer(pmu, event);
		if (err != -ENOENT)
			return err;
	}
	return -ENOENT;
}

/**
 * perf_pmu_init_event - find the PMU for a new event and initialise it
 * @event: the event, with attr, cpu, group_leader and parent set
 *
 * An inherited event goes to its parent's PMU first.  On success
 * event->pmu is set, the PMU's event_init() has run and a reference on
 * the PMU's module is held until perf_pmu_put_event().
 *
 * Process context.  For a new sibling (not inherited) the group leader's
 * context mutex is taken around a hardware PMU's event_init(), so the
 * caller must not hold it; an inherited sibling is initialised under the
 * child context's mutex, held by the caller.
 *
 * Return: 0, -ENOENT when no PMU takes the event, or the PMU's error.
 */
int perf_pmu_init_event(struct perf_event *event)
{
	int idx, err;

	event->orig_type = event->attr.type;

	idx = srcu_read_lock(&pmus_srcu);
	if (event->parent && event->parent->pmu) {
		err = perf_pmu_offer(event->parent->pmu, event);
		if (!err)
			goto unlock;
	}
	err = perf_pmu_find(event);
unlock:
	srcu_read_unlock(&pmus_srcu, idx);
	return err;
}

/**
 * perf_pmu_put_event - drop what perf_pmu_init_event() took
 * @event: the event; its event->destroy(), if any, has already run
 *
 * Takes the event off the PMU's list of events and drops the reference
 * on the PMU's module.  Does nothing for an event whose
 * perf_pmu_init_event() failed (event->pmu is then NULL).
 */
void perf_pmu_put_event(struct perf_event *event)
{
	struct pmu *pmu = event->pmu;
	unsigned long flags;

	if (!pmu)
		return;
	spin_lock_irqsave(&pmu->events_lock, flags);
	list_del_init(&event->pmu_list);
	spin_unlock_irqrestore(&pmu->events_lock, flags);
	module_put(pmu->module);
}
