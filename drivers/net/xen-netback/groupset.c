// SPDX-License-Identifier: GPL-2.0
/*
 * The worker group set: which groups exist, which queues each serves,
 * which CPU each runs on.  Made at init, replaced live by a groups
 * write, followed across CPU hotplug.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

#include "common.h"
#include "trace.h"

struct xnb_group *xnb_groups;
/* Scratch for placement choices, under xnb_assign_mutex. */
static struct xnb_cpu_slot *xnb_slots;
static u32 *xnb_cpu_loads;
static enum cpuhp_state xnb_cpuhp = CPUHP_INVALID;
/* Set at exit or failed init: groups writes are refused from then on. */
static bool xnb_groups_gone;
DEFINE_MUTEX(xnb_assign_mutex);		/* the set and queue placement */
unsigned long xnb_groups_gen;

/* Not irq_set_affinity_and_hint(): it returns 0 even when the move fails,
 * and a hint must not name a CPU the irq is not on.
 */
static void xnb_irq_follow(struct xnb_queue *q, unsigned int irq,
			   struct xnb_group *g)
{
	const struct cpumask *mask = g ? cpumask_of(g->cpu) : NULL;
	int err = g ? irq_set_affinity(irq, mask) : 0;

	irq_update_affinity_hint(irq, err ? NULL : mask);
	if (err)
		net_dbg_ratelimited("%s: irq %u not moved to cpu %d (%d)\n",
				    q->name, irq, g->cpu, err);
}

/* Softirq NAPI runs where the event lands: keep it on the group's CPU.
 * No group: no hint, as free_irq() at unbind wants none left.
 */
static void xnb_queue_irqs_follow(struct xnb_queue *q, struct xnb_group *g)
	__must_hold(&xnb_assign_mutex)
{
	lockdep_assert_held(&xnb_assign_mutex);
	if (q->tx_irq)
		xnb_irq_follow(q, q->tx_irq, g);
	if (q->rx_irq && q->rx_irq != q->tx_irq)
		xnb_irq_follow(q, q->rx_irq, g);
}

static struct xnb_group *xnb_group_attach_locked(struct xnb_queue *q,
						 int pinned)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_group *g;

	lockdep_assert_held(&xnb_assign_mutex);
	if (pinned >= 0 && pinned < xnb_nr_groups)
		g = &xnb_groups[pinned];
	else
		g = &xnb_groups[xnb_pick_group(&xnb_groups[0].nr_queues,
					       sizeof(*xnb_groups),
					       xnb_nr_groups)];
	/* Group 0 is always ready: an attach never fails. */
	if (xnb_group_prepare(g)) {
		net_warn_ratelimited("%s: no memory for group %u: served by group 0%s\n",
				     q->name, g->index,
				     pinned >= 0 ? " (its pin waits for the next write)" : "");
		g = &xnb_groups[0];
	}
	spin_lock_irq(&g->lock);
	list_add_tail(&q->group_node, &g->queues);
	g->nr_queues++;
	q->share_slots = 0;
	q->turn_left = (struct xnb_pass_ways){};
	q->turn_debt = (struct xnb_pass_ways){};
	/* Publishes g to xnb_group_kick()'s lockless read. */
	rcu_assign_pointer(q->group, g);
	spin_unlock_irq(&g->lock);
	WRITE_ONCE(q->last_group, g->index);
	xnb_queue_irqs_follow(q, g);
	return g;
}

/**
 * xnb_group_attach() - Give a queue to a group.
 * @q: the queue, in no group and connected
 * @pinned: the group to join, or out of range (-1) for the least loaded
 * Context: Process context, may sleep.  Takes xnb_assign_mutex.
 */
void xnb_group_attach(struct xnb_queue *q, int pinned)
{
	mutex_lock(&xnb_assign_mutex);
	xnb_group_attach_locked(q, pinned);
	xnb_balance_queue_added();
	mutex_unlock(&xnb_assign_mutex);

	/* Work may have arrived while the queue had no group. */
	xnb_group_kick_task(q);
}

static void xnb_group_detach_locked(struct xnb_queue *q)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_group *g;

	lockdep_assert_held(&xnb_assign_mutex);
	g = rcu_dereference_protected(q->group,
				      lockdep_is_held(&xnb_assign_mutex));
	if (!g)
		return;

	spin_lock_irq(&g->lock);
	list_del_init(&q->group_node);
	g->nr_queues--;
	if (q->queued) {
		list_del_init(&q->active_node);
		q->queued = false;
		WRITE_ONCE(g->nr_active, g->nr_active - 1);
	}
	RCU_INIT_POINTER(q->group, NULL);
	spin_unlock_irq(&g->lock);
	xnb_queue_irqs_follow(q, NULL);

	xnb_group_sync(g);
}

/**
 * xnb_group_detach() - Take a queue off its group, if any.
 * @q: the queue
 *
 * On return the group's poll no longer touches @q.
 * Context: Process context, sleeps.  Takes xnb_assign_mutex.
 */
void xnb_group_detach(struct xnb_queue *q)
{
	mutex_lock(&xnb_assign_mutex);
	xnb_group_detach_locked(q);
	mutex_unlock(&xnb_assign_mutex);
}

/**
 * xnb_group_move_locked() - Move a queue to another group, live.
 * @q: the queue
 * @to: the index of the group to move it to
 * Context: Process context, may sleep.  Caller holds xnb_assign_mutex.
 */
void xnb_group_move_locked(struct xnb_queue *q, unsigned int to)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_group *from;

	lockdep_assert_held(&xnb_assign_mutex);
	from = rcu_dereference_protected(q->group,
					 lockdep_is_held(&xnb_assign_mutex));
	if (!from || to >= xnb_nr_groups || from == &xnb_groups[to])
		return;
	if (xnb_group_prepare(&xnb_groups[to]))
		return;
	xnb_group_detach_locked(q);
	xnb_group_attach_locked(q, to);
	from->moves_out++;
	xnb_groups[to].moves_in++;
	/* An event that found it groupless kicked nothing. */
	xnb_group_kick_task(q);
}

/* Attach @q afresh (to group @pin if there is one); trace a new group.
 * It moves an attached queue, never adds one: the balancer is not parked.
 */
static void xnb_queue_replace(struct xnb_queue *q, int pin, int why)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_group *from, *to;

	from = rcu_dereference_protected(q->group,
					 lockdep_is_held(&xnb_assign_mutex));
	xnb_group_detach_locked(q);
	to = xnb_group_attach_locked(q, pin);
	if (to != from)
		trace_xnb_queue_move(q->name, from ? from->index : -1,
				     to->index, why, 0, 0, 0);
	xnb_group_kick_task(q);
}

/**
 * xnb_vif_replace() - Re-place a connected vif's queues, for a pin.
 * @vif: the vif
 * @group: the group's index, or -1 for any
 * Context: Sleeps (a move waits for the group's poll); takes xnb_assign_mutex.
 */
void xnb_vif_replace(struct xnb_vif *vif, int group)
{
	unsigned int i;

	mutex_lock(&xnb_assign_mutex);
	for (i = 0; i < vif->num_queues; i++)
		xnb_queue_replace(&vif->queues[i], group, XNB_MOVE_PIN);
	mutex_unlock(&xnb_assign_mutex);
}

/* Start @n groups and put them in force; the set replaced is the caller's. */
static int xnb_groups_make(unsigned int n)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_group *groups = kcalloc(n, sizeof(*groups), GFP_KERNEL);
	struct xnb_cpu_slot *slots = kcalloc(n, sizeof(*slots), GFP_KERNEL);
	unsigned int i;
	int err = -ENOMEM;

	lockdep_assert_held(&xnb_assign_mutex);
	for (i = 0; groups && slots && i < n; i++) {
		err = xnb_group_start(&groups[i], i);
		if (err) {
			while (i--)
				xnb_group_stop(&groups[i]);
			break;
		}
	}
	if (err) {
		kfree(slots);
		kfree(groups);
		return err;
	}
	xnb_groups = groups;
	xnb_slots = slots;
	WRITE_ONCE(xnb_nr_groups, n);
	xnb_groups_gen++;
	return 0;
}

static void xnb_group_set_cpu(struct xnb_group *g, unsigned int cpu)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_queue *q;
	int err;

	lockdep_assert_held(&xnb_assign_mutex);
	g->cpu = cpu;
	/* Not kthread_bind(): the thread may be running. */
	if (g->napi.thread) {
		err = set_cpus_allowed_ptr(g->napi.thread, cpumask_of(cpu));
		if (err)
			pr_warn("group %u: thread not moved to cpu %u (%d)\n",
				g->index, cpu, err);
	}
	list_for_each_entry(q, &g->queues, group_node)
		xnb_queue_irqs_follow(q, g);
	pr_debug("group %u: now on cpu %u (home %d)\n", g->index, cpu,
		 g->home_cpu);
}

/* Place the groups for the CPUs online once @hp_cpu's hotplug is done. */
static void xnb_groups_follow_cpus(unsigned int hp_cpu, bool going)
{
	unsigned int i, cpu, moved = 0;

	mutex_lock(&xnb_assign_mutex);
	if (!xnb_groups)
		goto out;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		xnb_cpu_loads[cpu] = cpu_online(cpu) &&
				     !(going && cpu == hp_cpu) ?
				     0 : XNB_CPU_OFF;
	for (i = 0; i < xnb_nr_groups; i++) {
		xnb_slots[i].home = xnb_groups[i].home_cpu;
		xnb_slots[i].cur = xnb_groups[i].cpu;
	}
	if (!xnb_cpu_place(xnb_slots, xnb_nr_groups, xnb_cpu_loads,
			   nr_cpu_ids))
		goto out;
	for (i = 0; i < xnb_nr_groups; i++) {
		if (xnb_slots[i].cur == xnb_groups[i].cpu)
			continue;
		xnb_group_set_cpu(&xnb_groups[i], xnb_slots[i].cur);
		moved++;
	}
	if (moved && going)
		pr_info("cpu %u going offline: %u of %u groups moved off it\n",
			hp_cpu, moved, xnb_nr_groups);
	else if (moved)
		pr_info("cpu %u online: %u of %u groups back home\n", hp_cpu,
			moved, xnb_nr_groups);
out:
	mutex_unlock(&xnb_assign_mutex);
}

/* Under the CPU hotplug lock: no cpus_read_lock().  Offline runs before
 * CPUHP_TEARDOWN_CPU, so the irqs move while @cpu is still online.
 */
static int xnb_cpu_online(unsigned int cpu)
{
	xnb_groups_follow_cpus(cpu, false);
	return 0;
}

static int xnb_cpu_offline(unsigned int cpu)
{
	xnb_groups_follow_cpus(cpu, true);
	return 0;
}

/* Without a state the groups still run, but do not follow hotplug. */
static void xnb_cpuhp_add(void)
{
	int ret;

	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"net/xen-netback:online",
					xnb_cpu_online, xnb_cpu_offline);
	if (ret < 0) {
		pr_warn("no CPU hotplug state (%d): groups will not follow CPUs going offline\n",
			ret);
		return;
	}
	xnb_cpuhp = ret;
}

static void xnb_cpuhp_remove(void)
{
	if (xnb_cpuhp == CPUHP_INVALID)
		return;
	cpuhp_remove_state_nocalls(xnb_cpuhp);
	xnb_cpuhp = CPUHP_INVALID;
}

/**
 * xnb_groups_init() - Start the groups (groups=0: one per online CPU).
 * Context: Process context (module init), may sleep.
 * Return: 0, or a negative errno with nothing started.
 */
int xnb_groups_init(void)
{
	int err = -ENOMEM;

	xnb_cpu_loads = kcalloc(nr_cpu_ids, sizeof(*xnb_cpu_loads),
				GFP_KERNEL);
	/* Registered before the set is made: no hotplug goes unseen. */
	if (xnb_cpu_loads)
		xnb_cpuhp_add();
	cpus_read_lock();
	mutex_lock(&xnb_assign_mutex);
	if (xnb_cpu_loads)
		err = xnb_groups_make(xnb_nr_groups ? xnb_nr_groups :
				      num_online_cpus());
	xnb_groups_gone = !!err;
	mutex_unlock(&xnb_assign_mutex);
	cpus_read_unlock();
	if (err) {
		xnb_cpuhp_remove();
		kfree(xnb_cpu_loads);
		xnb_cpu_loads = NULL;
	}
	return err;
}

/**
 * xnb_groups_exit() - Stop and free every group; no queue is attached.
 * Context: Process context (module exit), may sleep.
 */
void xnb_groups_exit(void)
{
	struct xnb_cpu_slot *slots;
	struct xnb_group *groups;
	unsigned int i, n;

	mutex_lock(&xnb_assign_mutex);
	groups = xnb_groups;
	slots = xnb_slots;
	n = groups ? xnb_nr_groups : 0;
	xnb_groups = NULL;
	xnb_slots = NULL;
	/* A groups write may still come (sysfs outlives exit): refuse it. */
	xnb_groups_gone = true;
	mutex_unlock(&xnb_assign_mutex);

	for (i = 0; i < n; i++)
		xnb_group_stop(&groups[i]);
	kfree(slots);
	kfree(groups);
	xnb_cpuhp_remove();
	kfree(xnb_cpu_loads);
	xnb_cpu_loads = NULL;
}

/* Pinned queues move first, so the rest balance around them. */
static void xnb_groups_move(struct xnb_group *g, bool pinned)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_queue *q, *next;

	lockdep_assert_held(&xnb_assign_mutex);
	list_for_each_entry_safe(q, next, &g->queues, group_node) {
		int pin = READ_ONCE(q->vif->pinned_group);

		if ((pin >= 0 && pin < xnb_nr_groups) == pinned)
			xnb_queue_replace(q, pin, XNB_MOVE_REGROUP);
	}
}

/**
 * xnb_groups_set_count() - Replace the group set live (groups written).
 * @n: the new number of groups, range-checked; 0 for one per online CPU
 *
 * Queues pinned to a group now gone count as unpinned until it is back.
 * Context: Process context, sleeps.  Takes cpus_read_lock(), then
 * xnb_assign_mutex.
 * Return: 0; -EBUSY once unloading; else an errno, nothing changed.
 */
int xnb_groups_set_count(unsigned int n)
{
	struct xnb_cpu_slot *old_slots;
	unsigned int i, old_n, want = n;
	struct xnb_group *old;
	bool followed;
	int err = 0;

	cpus_read_lock();
	mutex_lock(&xnb_assign_mutex);
	if (xnb_groups_gone) {
		err = -EBUSY;
		pr_warn("groups=%u refused: the module is unloading\n", n);
		goto unlock;
	}
	if (!xnb_groups) {
		WRITE_ONCE(xnb_nr_groups, n);
		goto unlock;
	}
	old = xnb_groups;
	old_n = xnb_nr_groups;
	old_slots = xnb_slots;
	want = n ?: num_online_cpus();
	err = xnb_groups_make(want);
	if (err)
		goto unlock;
	/* Published: our hotplug callback now holds an outgoing CPU online
	 * until the moves are done.  Without that callback, keep the lock.
	 */
	followed = xnb_cpuhp != CPUHP_INVALID;
	if (followed)
		cpus_read_unlock();
	for (i = 0; i < old_n; i++)
		xnb_groups_move(&old[i], true);
	for (i = 0; i < old_n; i++)
		xnb_groups_move(&old[i], false);
	mutex_unlock(&xnb_assign_mutex);
	if (!followed)
		cpus_read_unlock();
	pr_info("groups=%u: queues moved live from %u groups\n", want, old_n);

	/* xnb_group_kick() may still hold an old group. */
	synchronize_rcu();
	for (i = 0; i < old_n; i++)
		xnb_group_stop(&old[i]);
	kfree(old_slots);
	kfree(old);
	return 0;

unlock:
	mutex_unlock(&xnb_assign_mutex);
	cpus_read_unlock();
	if (err && err != -EBUSY)
		pr_warn("groups=%u failed (%d), still %u groups\n", want, err,
			READ_ONCE(xnb_nr_groups));
	return err;
}

/**
 * xnb_group_mode() - Who runs a group's passes now, as sysfs and debugfs say.
 * @g: the group
 * Return: "softirq" (worker=tasklet), else "light" or "thread".
 */
const char *xnb_group_mode(const struct xnb_group *g)
{
	/* Not g->light_dev: a group serving nothing yet has none. */
	if (xnb_use_tasklet)
		return "softirq";
	return READ_ONCE(g->run) == XNB_RUN_LIGHT ? "light" : "thread";
}

/**
 * xnb_queue_group_index() - The index of the group serving a queue.
 * @q: the queue
 * Context: Any context.  A snapshot: a move may follow at once.
 * Return: the group's index, or -1 when @q is in no group.
 */
int xnb_queue_group_index(struct xnb_queue *q)
{
	struct xnb_group *g;
	int index = -1;

	rcu_read_lock();
	g = rcu_dereference(q->group);
	if (g)
		index = g->index;
	rcu_read_unlock();
	return index;
}

struct dentry *xnb_debugfs_dir;

/* Ring indices are io_ring_q<N>'s; @g's lock keeps @q attached. */
static void xnb_queue_show(struct seq_file *m, struct xnb_group *g,
			   struct xnb_queue *q)
	__must_hold(&g->lock)
{
	const struct xnb_backoff *b = q->backoff;
	unsigned long held;

	lockdep_assert_held(&g->lock);
	held = (timer_pending(&b[XNB_DIR_TX].timer) ? BIT(XNB_DIR_TX) : 0) |
	       (timer_pending(&b[XNB_DIR_RX].timer) ? BIT(XNB_DIR_RX) : 0);
	seq_printf(m, "  %s%s%s%s eoi %lx held %lx spurious %u/%u\n",
		   q->name, q->queued ? " queued" : "",
		   READ_ONCE(q->tx_held) ? " held" : "",
		   READ_ONCE(q->rx_blocked_since) ? " rx-blocked" : "",
		   READ_ONCE(q->eoi), held,
		   READ_ONCE(b[XNB_DIR_TX].spurious.run),
		   READ_ONCE(b[XNB_DIR_RX].spurious.run));
	seq_printf(m, "    rxmod dim %u/%u owed %d timer %d\n",
		   READ_ONCE(q->rx_dim_usecs), READ_ONCE(q->rx_dim_frames),
		   data_race(q->rxmod.owed),	/* racy snapshot */
		   hrtimer_is_queued(&q->rx_notify_timer));
}

static int xnb_groups_show(struct seq_file *m, void *v)
{
	unsigned int i;

	mutex_lock(&xnb_assign_mutex);
	seq_printf(m, "worker=%s groups=%u copy_batch=%u budget=%u rebalance_ms=%u rebalance_moves=%lu\n",
		   xnb_use_tasklet ? "tasklet" : "kthread", xnb_nr_groups,
		   READ_ONCE(xnb_copy_batch), READ_ONCE(xnb_budget),
		   READ_ONCE(xnb_rebalance_ms), xnb_balance_moves());
	for (i = 0; i < xnb_nr_groups; i++) {
		struct xnb_group *g = &xnb_groups[i];
		const struct xnb_group_stats *s = &g->stats;
		u64 batches = xnb_gstat(g, &s->batches);
		u64 ops = xnb_gstat(g, &s->ops);
		struct xnb_queue *q;

		seq_printf(m, "group %u: cpu %d queues %u passes %llu packets %llu batches %llu ops %llu ops/batch %llu full_flushes %llu eagain_retries %llu busy_ms %llu moves_in %lu moves_out %lu handoffs %llu mode %s max_pass_ns %lu max_pass_slots %u home_cpu %d batch %u\n",
			   i, g->cpu, READ_ONCE(g->nr_queues),
			   xnb_gstat(g, &s->passes), xnb_gstat(g, &s->packets),
			   batches, ops, batches ? div64_u64(ops, batches) : 0,
			   xnb_gstat(g, &s->full_flushes),
			   xnb_gstat(g, &s->eagain_retries),
			   div_u64(xnb_gstat(g, &s->busy_ns), NSEC_PER_MSEC),
			   g->moves_in, g->moves_out, xnb_gstat(g, &s->handoffs),
			   xnb_group_mode(g),
			   READ_ONCE(g->max_pass_ns),
			   READ_ONCE(g->max_pass_slots), g->home_cpu,
			   g->batch);
		spin_lock_irq(&g->lock);
		list_for_each_entry(q, &g->queues, group_node)
			xnb_queue_show(m, g, q);
		spin_unlock_irq(&g->lock);
	}
	mutex_unlock(&xnb_assign_mutex);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(xnb_groups);

/* /sys/kernel/debug/xen-netback/; debugfs failures are not errors. */
int xnb_debugfs_init(void)
{
	xnb_debugfs_dir = debugfs_create_dir("xen-netback", NULL);
	debugfs_create_file("groups", 0444, xnb_debugfs_dir, NULL,
			    &xnb_groups_fops);
	return 0;
}

void xnb_debugfs_exit(void)
{
	debugfs_remove_recursive(xnb_debugfs_dir);
}
