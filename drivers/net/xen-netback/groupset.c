// SPDX-License-Identifier: GPL-2.0
/*
 * Worker group sets: which groups exist, which queue each serves, and
 * on which CPU each runs.
 *
 * The set is made at module init (one group per online CPU unless the
 * groups parameter says otherwise), replaced live by a groups write
 * (xnb_groups_set_count) and taken down at exit.  One group's NAPI
 * contexts and its passes are group.c's.
 *
 * A new queue joins the group serving the fewest queues (xnb_pick_group),
 * unless its vif is pinned with the "worker-group" key.  Afterwards the
 * balancer (balance.c) moves unpinned queues by measured load, with
 * xnb_group_move_locked.
 *
 * Each group runs on its home CPU while that CPU is online; CPU hotplug
 * callbacks move groups, their threads and their queues' irqs, off a
 * CPU going offline and back home when it returns (xnb_cpu_place).
 *
 * /sys/kernel/debug/xen-netback/groups shows every group's counters and
 * queues.
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
static u32 *xnb_loads;			/* scratch for the choice */
/* Scratch for xnb_cpu_place(): the set's slots (one per group, made
 * with the set) and a count per CPU number (nr_cpu_ids, module-long).
 * Under xnb_assign_mutex.
 */
static struct xnb_cpu_slot *xnb_slots;
static u32 *xnb_cpu_loads;
/* Our dynamic CPU hotplug state; CPUHP_INVALID when there is none. */
static enum cpuhp_state xnb_cpuhp = CPUHP_INVALID;
/* The set was taken down (exit, or a failed init): groups writes are
 * refused from then on.  Under xnb_assign_mutex.
 */
static bool xnb_groups_gone;
DEFINE_MUTEX(xnb_assign_mutex);		/* serialises attach choices */
unsigned long xnb_groups_gen;		/* a new set: the balancer resets */

/* One of @q's irqs to @cpu, with the affinity hint saying so (shown in
 * /proc/irq/<n>/affinity_hint, for tools that read it).  Only at attach
 * and on moves: user space (an admin, irqbalance) may place the irq
 * elsewhere later, and that stands until the next.  Best effort: the
 * channel still works, only further away, if Xen refuses; then the irq
 * has no hint rather than one naming a CPU it is not on.  Not
 * irq_set_affinity_and_hint(): it sets the hint first and returns 0
 * whether the move worked or not (6.1 to 6.12).
 */
static void xnb_irq_follow(struct xnb_queue *q, unsigned int irq, int cpu)
{
	const struct cpumask *mask = cpumask_of(cpu);
	int err;

	err = irq_set_affinity(irq, mask);
	irq_update_affinity_hint(irq, err ? NULL : mask);
	if (err)
		net_dbg_ratelimited("%s: irq %u not moved to cpu %d (%d)\n",
				    q->name, irq, cpu, err);
}

/* The queue's event channels interrupt its group's CPU (the one it runs
 * on now: see xnb_group_set_cpu), so softirq NAPI is raised there and a
 * threaded NAPI wake-up stays local.
 */
static void xnb_queue_irqs_follow(struct xnb_queue *q, struct xnb_group *g)
	__must_hold(&xnb_assign_mutex)
{
	lockdep_assert_held(&xnb_assign_mutex);
	if (q->tx_irq)
		xnb_irq_follow(q, q->tx_irq, g->cpu);
	if (q->rx_irq && q->rx_irq != q->tx_irq)
		xnb_irq_follow(q, q->rx_irq, g->cpu);
}

/* A queue in no group has no affinity hint: the unbind (free_irq())
 * wants none left, and the next attach sets its own.
 */
static void xnb_queue_irqs_unhint(struct xnb_queue *q)
	__must_hold(&xnb_assign_mutex)
{
	lockdep_assert_held(&xnb_assign_mutex);
	if (q->tx_irq)
		irq_update_affinity_hint(q->tx_irq, NULL);
	if (q->rx_irq && q->rx_irq != q->tx_irq)
		irq_update_affinity_hint(q->rx_irq, NULL);
}

static void xnb_group_attach_locked(struct xnb_queue *q, int pinned)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_group *g;
	unsigned int i;

	lockdep_assert_held(&xnb_assign_mutex);
	if (pinned >= 0 && pinned < xnb_nr_groups) {
		g = &xnb_groups[pinned];
	} else {
		for (i = 0; i < xnb_nr_groups; i++)
			xnb_loads[i] = READ_ONCE(xnb_groups[i].nr_queues);
		g = &xnb_groups[xnb_pick_group(xnb_loads, xnb_nr_groups)];
	}
	/* Its first queue makes the group ready (contexts, thread, batch).
	 * Out of memory for that, the set's first group, always ready,
	 * serves the queue instead: an attach never fails.
	 */
	if (xnb_group_prepare(g)) {
		net_warn_ratelimited("%s: no memory for group %u: served by group 0%s\n",
				     q->name, g->index,
				     pinned >= 0 ? " (its pin waits for the next write)" : "");
		g = &xnb_groups[0];
	}
	spin_lock_irq(&g->lock);
	list_add_tail(&q->group_node, &g->queues);
	g->nr_queues++;
	q->share_slots = 0;	/* no turn in g's pass yet */
	q->turn_left = (struct xnb_pass_ways){};
	q->turn_debt = (struct xnb_pass_ways){};
	/* Publishes g to xnb_group_kick()'s lockless read. */
	rcu_assign_pointer(q->group, g);
	spin_unlock_irq(&g->lock);
	WRITE_ONCE(q->last_group, g->index);
	xnb_queue_irqs_follow(q, g);
}

/**
 * xnb_group_attach() - Give a queue to a group.
 * @q: the queue, in no group and connected
 * @pinned: the group to join, or any value out of range (-1) for the
 *	group the policy picks (the one serving the fewest queues)
 *
 * Points the queue's irqs at the group's CPU, then kicks it: work may
 * have arrived while it had no group.  The group's first queue makes it
 * ready first (xnb_group_prepare); should that fail for want of memory,
 * group 0 takes the queue, pinned or not.
 *
 * Context: Process context (the xenbus thread, under the backend lock),
 * may sleep (a group's first queue allocates).  Takes xnb_assign_mutex,
 * then, for a group's first queue, its sync_mutex, then its lock; then
 * xnb_bal_lock, when the balancer's work was parked.
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
	xnb_queue_irqs_unhint(q);

	xnb_group_sync(g);
}

/**
 * xnb_group_detach() - Take a queue off its group.
 * @q: the queue; nothing happens if it is in no group
 *
 * On return the group's worker no longer touches it and none of its
 * copy ops are in flight.  Under the assign mutex, so a runtime regroup
 * never meets a queue half gone.
 *
 * Context: Process context (the xenbus thread, under the backend lock).
 * Sleeps: waits for the group's poll to end.  Takes xnb_assign_mutex,
 * the group's lock, then its sync_mutex.
 */
void xnb_group_detach(struct xnb_queue *q)
{
	mutex_lock(&xnb_assign_mutex);
	xnb_group_detach_locked(q);
	mutex_unlock(&xnb_assign_mutex);
}

/**
 * xnb_group_move_locked() - Move a queue to another group, live.
 * @q: the queue, attached
 * @to: the index of the group to move it to
 *
 * The balancer's move (balance.c), with the short pause of a pin.
 * Nothing happens if @q is in no group, @to is out of range, @q is
 * there already, or @to serves no queue yet and cannot get ready for
 * want of memory (xnb_group_prepare).  The caller holds the assign
 * mutex, so @q is still attached (a queue is released only after its
 * detach) and its old group stays until the move is done.
 *
 * Context: Process context, may sleep (waits for the old group's poll).
 * The caller holds xnb_assign_mutex; takes both groups' locks, the old
 * group's sync_mutex and, when @q is the new group's first queue, the
 * new group's.
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
	/* Not to a group that cannot get ready: the queue stays. */
	if (xnb_group_prepare(&xnb_groups[to]))
		return;
	xnb_group_detach_locked(q);
	xnb_group_attach_locked(q, to);
	from->moves_out++;
	xnb_groups[to].moves_in++;
	/* An event that found it groupless kicked nothing. */
	xnb_group_kick_task(q);
}

/* Start groups[0..n): all of them, or on failure none (those started
 * are stopped again).  Under the assign mutex.
 */
static int xnb_groups_start(struct xnb_group *groups, unsigned int n)
	__must_hold(&xnb_assign_mutex)
{
	unsigned int i;
	int err;

	lockdep_assert_held(&xnb_assign_mutex);
	for (i = 0; i < n; i++) {
		err = xnb_group_start(&groups[i], i);
		if (err) {
			while (i--)
				xnb_group_stop(&groups[i]);
			return err;
		}
	}
	return 0;
}

/* Move @g to run on @cpu: its NAPI thread (worker=kthread) and every
 * queue's irqs, which the softirq contexts follow (NAPI runs in the
 * NET_RX of the CPU that took the event).
 */
static void xnb_group_set_cpu(struct xnb_group *g, unsigned int cpu)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_queue *q;
	int err;

	lockdep_assert_held(&xnb_assign_mutex);
	g->cpu = cpu;
	/* kthread_bind() is for a thread not yet running: this one may be
	 * polling, and set_cpus_allowed_ptr() migrates it.
	 */
	if (g->napi.thread) {
		err = set_cpus_allowed_ptr(g->napi.thread, cpumask_of(cpu));
		if (err)
			pr_warn("group %u: thread not moved to cpu %u (%d)\n",
				g->index, cpu, err);
	}
	/* The assign mutex keeps the list as it is. */
	list_for_each_entry(q, &g->queues, group_node)
		xnb_queue_irqs_follow(q, g);
	pr_debug("group %u: now on cpu %u (home %d)\n", g->index, cpu,
		 g->home_cpu);
}

/* Place the groups of the set in force for the CPUs that will be online
 * once the hotplug of @cpu is done (@going: on its way out, else just
 * come), by xnb_cpu_place(): each at home when its home is online, else
 * where it runs, else on the CPU with the fewest groups.  One line in
 * the log per hotplug that moved a group (each group's move is a
 * pr_debug).
 */
static void xnb_groups_follow_cpus(unsigned int hp_cpu, bool going)
{
	unsigned int i, cpu, moved = 0;

	mutex_lock(&xnb_assign_mutex);
	if (!xnb_groups)
		goto out;	/* before init, or exit took the set down */
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

/* CPU hotplug, state "net/xen-netback:online" (CPUHP_AP_ONLINE_DYN).
 * Both callbacks run in the hotplug thread of @cpu while the hotplug
 * holds the CPU hotplug lock: they may sleep, and must not take
 * cpus_read_lock() (which lockdep_assert_cpus_held() would check, were
 * it exported to modules).  They take xnb_assign_mutex, so nobody holds
 * that mutex and waits for a hotplug (common.h's lock order).
 *
 * Online: @cpu is online but not yet active; a kernel thread may run
 * there already.  The groups at home on @cpu come back.
 *
 * Offline: @cpu is still online but no longer active: the teardown of
 * CPUHP_AP_ACTIVE (sched_cpu_deactivate()) ran before ours, and from
 * then on the scheduler keeps kernel threads that are not per-CPU off
 * @cpu.  A group's NAPI thread woken, or scheduled, there meanwhile
 * (this callback may also wait for the assign mutex) is moved by
 * select_fallback_rq(), which widens its affinity to any CPU it may
 * use, silently for a kernel thread; the callback then binds it to the
 * group's new CPU.  The irqs stay on @cpu until CPUHP_TEARDOWN_CPU
 * moves what is left on it, after this callback, which moves them
 * first.  So the groups on @cpu go to the online CPUs with the fewest
 * groups first, threads and irqs, before @cpu is gone, their threads
 * possibly after a stretch elsewhere.  A later step failing brings
 * @cpu back online through xnb_cpu_online().
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

/* Before the first set: a CPU that comes or goes from then on is seen
 * (the callbacks do nothing until the set is published).  Without a
 * state (none left, -ENOSPC) the groups still run, as they did before
 * the driver followed hotplug: a CPU going offline breaks the affinity
 * of its group's thread and irqs, and nothing brings them back.
 */
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

/* After the last set: waits for the callbacks under way. */
static void xnb_cpuhp_remove(void)
{
	if (xnb_cpuhp == CPUHP_INVALID)
		return;
	cpuhp_remove_state_nocalls(xnb_cpuhp);
	xnb_cpuhp = CPUHP_INVALID;
}

/**
 * xnb_groups_init() - Start the groups, as many as the groups parameter says.
 *
 * Description: 0 (the default) is one per online CPU.  groups and
 * copy_batch may be written from sysfs already, before and while this
 * runs: the count is read, the groups started and the set published
 * under xnb_assign_mutex, so a write either lands before and is used
 * here, or waits and replaces the set live.  The CPU hotplug state is
 * added first and the set made under cpus_read_lock(), so every CPU
 * that comes or goes after the groups chose theirs is followed.
 *
 * Context: Process context (module init), may sleep.  Takes the CPU
 * hotplug lock (read), then xnb_assign_mutex.
 * Return: 0, or a negative errno with no group started and no hotplug
 * state left; groups writes are refused from then on, as after
 * xnb_groups_exit().
 */
int xnb_groups_init(void)
{
	struct xnb_cpu_slot *slots;
	struct xnb_group *groups;
	unsigned int n;
	u32 *loads;
	int err = -ENOMEM;

	xnb_cpu_loads = kcalloc(nr_cpu_ids, sizeof(*xnb_cpu_loads),
				GFP_KERNEL);
	if (xnb_cpu_loads)	/* the callbacks' scratch; else no set */
		xnb_cpuhp_add();
	cpus_read_lock();
	mutex_lock(&xnb_assign_mutex);
	/* Range-checked as it was stored (main.c); 0 is the default. */
	n = xnb_nr_groups ? xnb_nr_groups : num_online_cpus();
	groups = kcalloc(n, sizeof(*groups), GFP_KERNEL);
	loads = kcalloc(n, sizeof(*loads), GFP_KERNEL);
	slots = kcalloc(n, sizeof(*slots), GFP_KERNEL);
	if (groups && loads && slots && xnb_cpu_loads)
		err = xnb_groups_start(groups, n);
	if (!err) {
		xnb_groups = groups;
		xnb_loads = loads;
		xnb_slots = slots;
		WRITE_ONCE(xnb_nr_groups, n);
		xnb_groups_gen++;
	} else {
		xnb_groups_gone = true;
	}
	mutex_unlock(&xnb_assign_mutex);
	cpus_read_unlock();
	if (err) {
		xnb_cpuhp_remove();
		kfree(xnb_cpu_loads);
		xnb_cpu_loads = NULL;
		kfree(slots);
		kfree(loads);
		kfree(groups);
	}
	return err;
}

/**
 * xnb_groups_exit() - Stop and free every group.
 *
 * Description: Every queue is detached by now: the backend driver is
 * gone.  A groups write may still run (sysfs outlives the exit until
 * the module is freed): the set is taken down under the assign mutex,
 * count and all, so a write that replaced it before is stopped here
 * with the set it published, and one after is refused (-EBUSY).  The
 * groups stop once the mutex is dropped; a write that ran before still
 * stops its own old set, which is no longer ours.  The CPU hotplug
 * state goes last: a callback meanwhile finds no set and does nothing.
 *
 * Context: Process context (module exit, or a failed init), may sleep.
 * Takes xnb_assign_mutex, then (not under it) the CPU hotplug lock
 * (read) to remove the state.
 */
void xnb_groups_exit(void)
{
	struct xnb_cpu_slot *slots;
	struct xnb_group *groups;
	unsigned int i, n;
	u32 *loads;

	mutex_lock(&xnb_assign_mutex);
	groups = xnb_groups;
	loads = xnb_loads;
	slots = xnb_slots;
	n = groups ? xnb_nr_groups : 0;
	xnb_groups = NULL;
	xnb_loads = NULL;
	xnb_slots = NULL;
	xnb_groups_gone = true;
	mutex_unlock(&xnb_assign_mutex);

	for (i = 0; i < n; i++)
		xnb_group_stop(&groups[i]);
	kfree(slots);
	kfree(loads);
	kfree(groups);
	xnb_cpuhp_remove();
	kfree(xnb_cpu_loads);
	xnb_cpu_loads = NULL;
}

/* Move @g's queues to the groups now published: the pinned ones (pin
 * in range) on the first call, the rest on the second, so these
 * balance around the pinned.  Only assign mutex holders change
 * g->queues, and the mutex is held: the walk is safe.
 */
static void xnb_groups_move(struct xnb_group *g, bool pinned)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_queue *q, *next;

	lockdep_assert_held(&xnb_assign_mutex);
	list_for_each_entry_safe(q, next, &g->queues, group_node) {
		int pin = READ_ONCE(q->vif->pinned_group);

		if ((pin >= 0 && pin < xnb_nr_groups) != pinned)
			continue;
		/* The old pass ends with it before the new group sees it. */
		xnb_group_detach_locked(q);
		xnb_group_attach_locked(q, pin);
		/* from: in the old set, to: in the new one. */
		if (trace_xnb_queue_move_enabled())
			trace_xnb_queue_move(q->name, g->index,
					     xnb_queue_group_index(q),
					     XNB_MOVE_REGROUP, 0, 0, 0);
		/* An event that found it groupless kicked nothing. */
		xnb_group_kick_task(q);
	}
}

/**
 * xnb_groups_set_count() - The groups parameter written.
 * @n: the new number of groups, already range-checked; 0 for one per
 *	online CPU
 *
 * Before xnb_groups_init() took the set up, @n is only kept for it.
 * Afterwards @n new groups take over every queue, live.  They are all
 * started first, so when one cannot be, nothing changes.  Then, under
 * the assign mutex (no attach, detach, copy_batch change, debugfs
 * reader or exit meanwhile), the new set is published and each queue
 * moves by the attach policy, a short pause per queue.  A vif's pin to
 * a group that is gone is kept: its queues are placed as if unpinned
 * until a later write brings the group back.  Writing the current count
 * rebalances.  The old groups go once no kick can still hold one.  Once
 * xnb_groups_exit() (or a failed init) took the set down, refused.
 *
 * Context: Process context (a sysfs write, or the module's options at
 * load), sleeps.  Takes the CPU hotplug lock (read: with @n 0 the new
 * set has one group per CPU online under it, and the new groups' CPUs
 * stay online until the set is published, and no longer unless no
 * hotplug state is registered: then until the queues moved), then
 * xnb_assign_mutex, and each old group's lock and sync_mutex as its
 * queues move.
 * Return: 0; -EBUSY once the module is unloading; -ENOMEM or the error
 * of a group that could not start, with nothing changed.
 */
int xnb_groups_set_count(unsigned int n)
{
	struct xnb_cpu_slot *slots = NULL, *old_slots;
	struct xnb_group *groups = NULL, *old;
	u32 *loads = NULL, *old_loads;
	unsigned int i, old_n, want = n;
	bool followed;
	int err = 0;

	/* The new groups' count (for 0) and their CPUs come from the CPUs
	 * online now, so both are read under the hotplug lock, and the
	 * arrays sized by the count are allocated there, as at init.
	 */
	cpus_read_lock();
	mutex_lock(&xnb_assign_mutex);
	if (xnb_groups_gone) {
		err = -EBUSY;
		pr_warn("groups=%u refused: the module is unloading\n", n);
		goto unlock;
	}
	if (!xnb_groups) {
		/* Before init: kept for xnb_groups_init(), 0 included. */
		WRITE_ONCE(xnb_nr_groups, n);
		goto unlock;
	}
	if (!want)
		want = num_online_cpus();
	groups = kcalloc(want, sizeof(*groups), GFP_KERNEL);
	loads = kcalloc(want, sizeof(*loads), GFP_KERNEL);
	slots = kcalloc(want, sizeof(*slots), GFP_KERNEL);
	if (!groups || !loads || !slots) {
		err = -ENOMEM;
		goto unlock;
	}
	err = xnb_groups_start(groups, want);
	if (err)
		goto unlock;

	old = xnb_groups;
	old_n = xnb_nr_groups;
	old_loads = xnb_loads;
	old_slots = xnb_slots;
	xnb_groups = groups;
	xnb_loads = loads;
	xnb_slots = slots;
	WRITE_ONCE(xnb_nr_groups, want);
	xnb_groups_gen++;
	/* Published, so the CPU lock has done its part: from here the
	 * hotplug callbacks follow the new set's CPUs.  A hotplug starting
	 * now waits in its CPUHP_AP_ONLINE_DYN callback for the mutex until
	 * every queue has moved, and that holds it before
	 * CPUHP_TEARDOWN_CPU: a CPU going offline stays online (if no
	 * longer active) meanwhile, so irqs pointed at a new group's CPU
	 * here point at an online CPU, and the callback then moves that
	 * group, its queues included, under the mutex.  The moves take no
	 * cpus_read_lock() and wait for no hotplug (common.h's lock order),
	 * so a hotplug need not wait for them all.  Without our hotplug
	 * state (its registration failed) nothing would hold a CPU going
	 * offline back while irqs are pointed at it: keep the lock over the
	 * moves, which no callback of ours then waits for.  xnb_cpuhp is
	 * set before the first set and cleared after the last one.
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

	synchronize_rcu();
	for (i = 0; i < old_n; i++)
		xnb_group_stop(&old[i]);
	kfree(old_slots);
	kfree(old_loads);
	kfree(old);
	return 0;

unlock:
	mutex_unlock(&xnb_assign_mutex);
	cpus_read_unlock();
	kfree(slots);
	kfree(loads);
	kfree(groups);
	if (err && err != -EBUSY)
		pr_warn("groups=%u failed (%d), still %u groups\n", want, err,
			READ_ONCE(xnb_nr_groups));
	return err;
}

/**
 * xnb_group_stats_read() - Snapshot a group's counters.
 * @g: the group
 * @c: filled with its counters
 *
 * The group's pass writes them on whichever CPU runs it.  The read
 * retries while a write is under way (u64_stats_fetch_begin/_retry), so
 * on a 32-bit kernel no counter is seen torn, and counters written in
 * one update (passes and busy_ns) are seen together.  The one way to
 * read them from outside the pass: debugfs, the balancer and sysfs use
 * it.
 *
 * Context: Any context.  The caller keeps @g from being freed (holds
 * xnb_assign_mutex, or is the group's own pass).
 */
void xnb_group_stats_read(const struct xnb_group *g,
			  struct xnb_group_counters *c)
{
	const struct xnb_group_stats *s = &g->stats;
	unsigned int start;

	do {
		start = u64_stats_fetch_begin(&s->sync);
		c->passes = u64_stats_read(&s->passes);
		c->packets = u64_stats_read(&s->packets);
		c->batches = u64_stats_read(&s->batches);
		c->ops = u64_stats_read(&s->ops);
		c->eagain_retries = u64_stats_read(&s->eagain_retries);
		c->busy_ns = u64_stats_read(&s->busy_ns);
		c->full_flushes = u64_stats_read(&s->full_flushes);
		c->handoffs = u64_stats_read(&s->handoffs);
	} while (u64_stats_fetch_retry(&s->sync, start));
}

/**
 * xnb_queue_group_index() - The index of the group serving a queue.
 * @q: the queue
 *
 * For the admin's view (ethtool -S, tracepoints): a move may follow at
 * once, and during a regroup the index may be an old group's.
 *
 * Context: Any context; an RCU reader while it looks at the group (a
 * regroup frees the old groups only after synchronize_rcu()).  The
 * caller keeps @q from being freed.
 * Return: the group's index in its set, or -1 when @q is in no group.
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

/* Ring indices and wakeup state: what to look at when a queue stalls.
 * The shared indices are the guest's to change; this is a snapshot.
 * Under the lock of @g, the group @q is on: it stays attached, so its
 * rings stay mapped (they are unmapped only after the detach).
 */
static void xnb_queue_show(struct seq_file *m, struct xnb_group *g,
			   struct xnb_queue *q)
	__must_hold(&g->lock)
{
	const struct xen_netif_tx_sring *ts = q->tx.sring;
	const struct xen_netif_rx_sring *rs = q->rx.sring;
	RING_IDX tx_rsp, rx_rsp;

	const struct xnb_backoff *b = q->backoff;
	unsigned long held;
	bool owed;

	lockdep_assert_held(&g->lock);
	held = (timer_pending(&b[XNB_EOI_TX].timer) ? BIT(XNB_EOI_TX) : 0) |
	       (timer_pending(&b[XNB_EOI_RX].timer) ? BIT(XNB_EOI_RX) : 0);
	seq_printf(m, "  %s%s%s%s eoi %lx held %lx spurious %u/%u\n",
		   q->name, q->queued ? " queued" : "",
		   READ_ONCE(q->tx_held) ? " held" : "",
		   READ_ONCE(q->rx_blocked_since) ? " rx-blocked" : "",
		   READ_ONCE(q->eoi), held,
		   READ_ONCE(b[XNB_EOI_TX].spurious.run),
		   READ_ONCE(b[XNB_EOI_RX].spurious.run));
	if (!ts || !rs)
		return;
	/* rsp_prod_pvt: the pass's alone, written plainly; a snapshot. */
	tx_rsp = data_race(q->tx.rsp_prod_pvt);	/* racy snapshot */
	rx_rsp = data_race(q->rx.rsp_prod_pvt);	/* racy snapshot */
	seq_printf(m, "    tx req %u/%u ev %u rsp %u/%u ev %u prod_eoi %u\n",
		   READ_ONCE(ts->req_prod), READ_ONCE(q->tx.req_cons),
		   READ_ONCE(ts->req_event), tx_rsp,
		   READ_ONCE(ts->rsp_prod), READ_ONCE(ts->rsp_event),
		   READ_ONCE(q->tx_prod_eoi));
	seq_printf(m, "    rx req %u/%u ev %u rsp %u/%u ev %u want %u skbs %u bytes %d\n",
		   READ_ONCE(rs->req_prod), READ_ONCE(q->rx.req_cons),
		   READ_ONCE(rs->req_event), rx_rsp,
		   READ_ONCE(rs->rsp_prod), READ_ONCE(rs->rsp_event),
		   READ_ONCE(q->rx_want), skb_queue_len_lockless(&q->rx_skbs),
		   atomic_read(&q->rx_bytes_queued));
	/* RX notification moderation: net_dim's limits (with adaptive-rx
	 * on), one owed and its timer.  The pass's, a snapshot.
	 */
	owed = data_race(q->rxmod.owed);	/* racy snapshot */
	seq_printf(m, "    rxmod dim %u/%u owed %d timer %d\n",
		   READ_ONCE(q->rx_dim_usecs), READ_ONCE(q->rx_dim_frames),
		   owed, hrtimer_is_queued(&q->rx_notify_timer));
}

static int xnb_groups_show(struct seq_file *m, void *v)
{
	unsigned int i;

	/* A runtime regroup swaps the groups under this mutex. */
	mutex_lock(&xnb_assign_mutex);
	seq_printf(m, "worker=%s groups=%u copy_batch=%u budget=%u rebalance_ms=%u rebalance_moves=%lu\n",
		   xnb_use_tasklet ? "tasklet" : "kthread", xnb_nr_groups,
		   READ_ONCE(xnb_copy_batch), READ_ONCE(xnb_budget),
		   READ_ONCE(xnb_rebalance_ms), xnb_balance_moves());
	for (i = 0; i < xnb_nr_groups; i++) {
		struct xnb_group *g = &xnb_groups[i];
		struct xnb_group_counters c;
		struct xnb_queue *q;

		xnb_group_stats_read(g, &c);
		seq_printf(m, "group %u: cpu %d queues %u passes %llu packets %llu batches %llu ops %llu ops/batch %llu full_flushes %llu eagain_retries %llu busy_ms %llu moves_in %lu moves_out %lu handoffs %llu run %s max_pass_ns %lu max_pass_slots %u home_cpu %d batch %u\n",
			   i, g->cpu, READ_ONCE(g->nr_queues), c.passes,
			   c.packets, c.batches, c.ops,
			   c.batches ? div64_u64(c.ops, c.batches) : 0,
			   c.full_flushes, c.eagain_retries,
			   div_u64(c.busy_ns, NSEC_PER_MSEC), g->moves_in,
			   g->moves_out, c.handoffs,
			   READ_ONCE(g->run) == XNB_RUN_LIGHT ? "light" : "main",
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

/**
 * xnb_debugfs_init() - Create /sys/kernel/debug/xen-netback/.
 *
 * Description: With the "groups" file and the balancer's "balance";
 * each connected vif adds its directory (interface.c).  A debugfs
 * failure is not an error.
 *
 * Context: Process context (module init).
 * Return: Always 0.
 */
int xnb_debugfs_init(void)
{
	xnb_debugfs_dir = debugfs_create_dir("xen-netback", NULL);
	debugfs_create_file("groups", 0444, xnb_debugfs_dir, NULL,
			    &xnb_groups_fops);
	xnb_balance_debugfs(xnb_debugfs_dir);
	return 0;
}

/**
 * xnb_debugfs_exit() - Remove /sys/kernel/debug/xen-netback/.
 *
 * Context: Process context (module exit, or a failed init).
 */
void xnb_debugfs_exit(void)
{
	debugfs_remove_recursive(xnb_debugfs_dir);
}
