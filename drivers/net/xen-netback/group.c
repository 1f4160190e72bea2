// SPDX-License-Identifier: GPL-2.0
/*
 * Worker groups, the dataplane: when a group runs its queues, and how.
 *
 * Each group serves one CPU through NAPI on dummy netdevs: with
 * worker=kthread a softirq context ("xnb-l<N>") while the load is light
 * and a thread ("xnb-g<N>") under sustained load (xnb_group_run), with
 * worker=tasklet one softirq context ("xnb-g<N>").  A queue with work
 * sits once on its group's active list; the pass pops each
 * queue that was active when it began, lets it use at most its turn of
 * its vif's xnb_budget ring slots each way (a slot carries at most a
 * page; the packet that crosses the budget still goes), and puts it back
 * at the tail if it still has work.  A vif's turns in one pass add up to
 * xnb_budget at most: queues of a vif with more busy queues than the
 * budget has turns for wait at the head for the next pass.  NAPI's
 * budget caps the guest TX packets of the whole poll, which paces how
 * fast rings are consumed, and XNB_PASS_SLOTS the ring slots of its
 * turns both ways (a turn is clipped to what is left), which bounds a
 * poll's copies however many vifs are busy and whatever the budget: the
 * queues a pass did not reach come first in the next.  So a
 * flooding vif gets one budget per pass like every other vif of the
 * group, whatever its number of queues, and an idle vif costs nothing.
 * Copy ops gathered during a poll go to the hypervisor together
 * (copy.c).
 *
 * The pass itself is pass.c's.  Here: the kicks that wake a group, its
 * pass lock, which context runs the passes, pausing them (a detach's
 * sync, a copy_batch change), making a group ready for its first queue
 * (NAPI contexts, thread, batch: a group serving nothing has none of
 * them, but the set's first), and starting and stopping one group.
 * Which groups exist and which queue each serves is groupset.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include "common.h"
#include "trace.h"

/* The context that owns the passes now (see xnb_group_run). */
static struct napi_struct *xnb_group_napi(struct xnb_group *g)
{
	return READ_ONCE(g->run) == XNB_RUN_LIGHT ? &g->light : &g->napi;
}

/**
 * xnb_group_wake() - Schedule the context that owns a group's passes.
 * @g: the group, made ready (it serves or served a queue)
 *
 * A NET_RX that napi_schedule() raises runs as the caller's context
 * ends (irq exit, softirq, local_bh_enable()).
 *
 * Context: Hard irq, softirq or BH off: event channels, timers, the
 * transmit path, the polls.  Irqs off stands for hard irq too: the
 * transmit path of netpoll runs so.
 */
void xnb_group_wake(struct xnb_group *g)
{
	lockdep_assert_once(in_hardirq() || softirq_count() || irqs_disabled());
	napi_schedule(xnb_group_napi(g));
}

/* The same from process context with BH on (attach, a move, a resume, a
 * "rate" change): there napi_schedule() would only raise NET_RX, which
 * nothing runs until the next interrupt, so BH is bracketed around it
 * and local_bh_enable() runs it (and complains, under lockdep, if called
 * in hard irq or with irqs off).
 */
static void xnb_group_wake_task(struct xnb_group *g)
{
	lockdep_assert_once(in_task());
	local_bh_disable();
	xnb_group_wake(g);
	local_bh_enable();
}

/* Queue @q on its group's active list unless it is there already, and
 * wake the group unless a poll is due already (g->woken): with
 * xnb_group_wake_task() when @task, for a caller in process context with
 * BH on.  Waking a scheduled context would only set NAPI's missed bit
 * and cost a poll that finds nothing: the one due serves @q.
 */
static void xnb_group_kick_how(struct xnb_queue *q, bool task)
{
	struct xnb_group *g;
	unsigned long flags;
	bool wake;

	rcu_read_lock();
	g = rcu_dereference(q->group);
	if (!g) {
		rcu_read_unlock();
		return;	/* detached: whoever attaches it next kicks it */
	}

	spin_lock_irqsave(&g->lock, flags);
	/* Only compared: q may have moved on, its group written under
	 * another group's lock than the one held.
	 */
	if (rcu_access_pointer(q->group) == g && !q->queued) {
		list_add_tail(&q->active_node, &g->active);
		q->queued = true;
		WRITE_ONCE(g->nr_active, g->nr_active + 1);
	}
	wake = !g->woken;
	g->woken = true;
	spin_unlock_irqrestore(&g->lock, flags);
	if (wake && task)
		xnb_group_wake_task(g);
	else if (wake)
		xnb_group_wake(g);
	rcu_read_unlock();
}

/**
 * xnb_group_kick() - Put a queue with work on its group's active list.
 * @q: the queue
 *
 * Queues @q once on the active list of the group serving it and
 * schedules that group's poll.  A queue in no group is left alone:
 * whoever attaches it next kicks it.
 *
 * Context: Hard irq (event channels), softirq (timers), or BH off (the
 * transmit path); process context uses xnb_group_kick_task().  Takes the
 * group's lock with irqs saved.  An RCU reader while it holds the group:
 * a runtime regroup frees the old groups only after synchronize_rcu().
 */
void xnb_group_kick(struct xnb_queue *q)
{
	xnb_group_kick_how(q, false);
}

/**
 * xnb_group_kick_task() - xnb_group_kick() from process context.
 * @q: the queue
 *
 * As xnb_group_kick(), for callers in process context with BH on (an
 * attach, a move, a "rate" change), where scheduling NAPI needs BH
 * bracketed to run.
 *
 * Context: Process context, may sleep; BH on.  Takes the group's lock
 * and disables BH around the wake-up.
 */
void xnb_group_kick_task(struct xnb_queue *q)
{
	xnb_group_kick_how(q, true);
}

/* Bits of xnb_group.pass_busy. */
enum {
	XNB_PASS_HELD,		/* a poll is in its pass or hands it over */
	XNB_PASS_WAITER,	/* the owner found it held: wake it after */
};

/* The pass lock's lockdep class, one for every group's.  The map models
 * XNB_PASS_HELD exactly: taken only by a try that never waits (a failed
 * try leaves the WAITER mark, which is no lock, and returns), released
 * by the same poll, in the same call of xnb_group_run, so in the context
 * that took it, always with BH off (softirq, or the NAPI thread's poll).
 * A trylock adds no dependency to lockdep's graph, so the map can never
 * close a cycle; the locks the pass takes get edges from it.
 */
static struct lock_class_key xnb_pass_key;

/* Take the passes.  The holder is an old owner completing its last poll
 * (see xnb_group_run): rather than poll again and again meanwhile, the
 * new owner completes and leaves a mark; the holder, on release, sees
 * either the mark (and schedules the owner) or the waiter sees the bit
 * clear on its second try.  Full barriers on both sides decide which.
 */
static bool xnb_pass_trylock(struct xnb_group *g)
{
	if (!test_and_set_bit_lock(XNB_PASS_HELD, &g->pass_busy.bits)) {
		lock_map_acquire_try(&g->pass_busy.dep_map);
		return true;
	}
	set_bit(XNB_PASS_WAITER, &g->pass_busy.bits);
	/* The mark is seen before the retry reads the bit, or the holder's
	 * release is; pairs with xnb_pass_unlock().
	 */
	smp_mb__after_atomic();
	if (test_and_set_bit_lock(XNB_PASS_HELD, &g->pass_busy.bits))
		return false;
	/* Ours after all: only the owner waits, so the mark is ours too. */
	clear_bit(XNB_PASS_WAITER, &g->pass_busy.bits);
	lock_map_acquire_try(&g->pass_busy.dep_map);
	return true;
}

static void xnb_pass_unlock(struct xnb_group *g)
{
	lock_map_release(&g->pass_busy.dep_map);
	clear_bit_unlock(XNB_PASS_HELD, &g->pass_busy.bits);
	/* The release before the look; pairs with xnb_pass_trylock(). */
	smp_mb__after_atomic();
	if (test_and_clear_bit(XNB_PASS_WAITER, &g->pass_busy.bits))
		xnb_group_wake(g);
}

/* Run passes while queues are active, at most XNB_POLL_PASSES, until
 * NAPI's budget or the pass cap is used or a pass put a queue back (past
 * its share: sustained load), and judge what the poll does next
 * (xnb_pass_decide).  The queues kicked during a pass, whose kicks found
 * g->woken and scheduled nothing, and those its settle found with new
 * requests get the next pass.  The last look at the active list and
 * the verdict are one section of g->lock: a poll completes only with
 * none left, and clears woken there, so a later kick schedules it again.
 */
static void xnb_group_passes(struct xnb_group *g, u8 me,
			     struct xnb_pass_acct *a,
			     struct xnb_pass_verdict *v)
	__must_hold(&g->pass_busy)
{
	unsigned int active, passes = 0;

	lockdep_assert_held(&g->pass_busy);
	for (;;) {
		xnb_group_pass(g, a);
		passes++;
		spin_lock_irq(&g->lock);
		active = g->nr_active;
		if (!active || a->requeued || passes >= XNB_POLL_PASSES ||
		    !xnb_pass_may_serve(a))
			break;
		spin_unlock_irq(&g->lock);
	}
	xnb_pass_decide(a, me == XNB_RUN_LIGHT, active, passes, v);
	if (v->next == XNB_NEXT_COMPLETE)
		g->woken = false;
	spin_unlock_irq(&g->lock);
}

/* The poll of either context.  worker=kthread: the light (softirq)
 * context runs the passes while the load is light, so a lone packet is
 * served in the softirq that took its event, with no thread to wake.  A
 * pass that ends with NAPI's budget used up, or stopped at
 * XNB_PASS_SLOTS with queues left, or put a queue back for having work
 * past its share, is sustained load, and so is a light poll that ran
 * XNB_POLL_PASSES for queues kicked meanwhile and still finds some
 * (xnb_group_passes); proto.c's xnb_pass_decide() judges.  The light
 * context then hands the passes to the thread, bound to the group's CPU, which
 * polls until a pass drains the group and hands them back.
 * worker=tasklet: the main context is softirq and keeps them; NAPI hands
 * it to ksoftirqd after netdev_budget or 2 ms like any other device.
 *
 * Only the owner (g->run) changes g->run, at the end of its pass, so a
 * context that finds itself owner stays so until it hands over; one
 * scheduled before the last handover passes its kick on.  The owner
 * gives the passes away before napi_complete_done(), so the new owner
 * may be polled while the old one still completes (flushing its GRO
 * packets, which must go up before the new owner's): XNB_PASS_HELD,
 * taken before the pass and released after that completion, holds the
 * new owner off until then.  Both contexts are added without busy
 * polling (netif_napi_add_tx), whose napi_complete_done() would return
 * without flushing GRO.  A kick between a completing poll's last look
 * and napi_complete_done() sets NAPI's missed bit: the context is
 * polled again.
 */
static int xnb_group_run(struct xnb_group *g, struct napi_struct *napi,
			 u8 me, int budget)
{
	struct xnb_pass_verdict v;
	struct xnb_pass_acct a;

	if (unlikely(budget <= 0))
		return 0;
	if (READ_ONCE(g->run) != me) {
		/* Scheduled before the last handover: pass the kick on. */
		napi_complete(napi);
		xnb_group_wake(g);
		return 0;
	}
	if (!xnb_pass_trylock(g)) {
		/* The old owner still completes: it schedules us after. */
		napi_complete(napi);
		return 0;
	}

	g->polling = napi;
	xnb_pass_begin(&a, budget, XNB_PASS_SLOTS);
	xnb_group_passes(g, me, &a, &v);

	switch (v.next) {
	case XNB_NEXT_HANDOFF:
		trace_xnb_group_handoff(g->index, XNB_HANDOFF_TO_THREAD,
					v.reason);
		u64_stats_update_begin(&g->stats.sync);
		u64_stats_inc(&g->stats.handoffs);
		u64_stats_update_end(&g->stats.sync);
		WRITE_ONCE(g->run, XNB_RUN_MAIN);
		napi_complete_done(napi, v.ret);
		xnb_pass_unlock(g);
		napi_schedule(&g->napi);
		return v.ret;
	case XNB_NEXT_AGAIN:
		/* Poll again: the thread or a softirq context with work. */
		xnb_pass_unlock(g);
		return v.ret;
	}
	if (g->light_dev) {
		/* The thread drained the group: back to the light context. */
		if (me == XNB_RUN_MAIN)
			trace_xnb_group_handoff(g->index, XNB_HANDOFF_TO_LIGHT,
						XNB_HANDOFF_IDLE);
		WRITE_ONCE(g->run, XNB_RUN_LIGHT);
	}
	napi_complete_done(napi, v.ret);
	xnb_pass_unlock(g);
	return v.ret;
}

static int xnb_group_poll(struct napi_struct *napi, int budget)
{
	struct xnb_group *g = container_of(napi, struct xnb_group, napi);

	return xnb_group_run(g, napi, XNB_RUN_MAIN, budget);
}

static int xnb_group_poll_light(struct napi_struct *napi, int budget)
{
	struct xnb_group *g = container_of(napi, struct xnb_group, light);

	return xnb_group_run(g, napi, XNB_RUN_LIGHT, budget);
}

/* After napi_enable(): schedule the owner if queues wait, and say so in
 * woken, which a kick refused meanwhile or a poll the pause cut left set.
 * Under g->lock: a kick adds its queue and tests woken under the lock,
 * so either we see its queue here or it sees woken as set here (an
 * unlocked read could miss both, and the queue's owed EOI would keep its
 * channel masked).
 */
static void xnb_group_rewake(struct xnb_group *g)
{
	unsigned int n;

	spin_lock_irq(&g->lock);
	n = g->nr_active;
	g->woken = n != 0;
	spin_unlock_irq(&g->lock);
	if (n)
		xnb_group_wake_task(g);
}

/* Stop the group's passes: on return no pass runs, and none starts
 * until xnb_group_resume().  Kicks meanwhile only queue their queue (the
 * contexts disabled refuse them); a handover meanwhile schedules nothing.
 * Resuming looks at the active list, so neither is lost.
 */
static void xnb_group_pause(struct xnb_group *g)
{
	mutex_lock(&g->sync_mutex);
	napi_disable(&g->napi);
	if (g->light_dev)
		napi_disable(&g->light);
}

static void xnb_group_resume(struct xnb_group *g)
{
	lockdep_assert_held(&g->sync_mutex);	/* xnb_group_pause's */
	if (g->light_dev)
		napi_enable(&g->light);
	napi_enable(&g->napi);
	mutex_unlock(&g->sync_mutex);
	xnb_group_rewake(g);
}

/**
 * xnb_group_sync() - Wait out a poll that may have seen a detached queue.
 * @g: the group the queue left
 *
 * A group left serving no queue gives its batch back meanwhile, unless
 * it is its set's first (see xnb_group_prepare): no pass touches the
 * batch of a group without queues, and the next queue to join brings a
 * new one.
 *
 * Context: Process context, sleeps.  The caller holds xnb_assign_mutex
 * (the group's queues are as they will stay until it drops it).  Takes
 * the group's sync_mutex and its lock.
 */
void xnb_group_sync(struct xnb_group *g)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_copy_arrays a = {};

	lockdep_assert_held(&xnb_assign_mutex);
	xnb_group_pause(g);
	if (!g->nr_queues && g->index)
		xnb_copy_swap(g, &a);
	xnb_group_resume(g);
	xnb_copy_arrays_free(&a);
}

/**
 * xnb_groups_set_batch() - Resize every group's batch (copy_batch written).
 * @batch: the new number of copy ops per batch, already range-checked
 *
 * Every group's batch gets the new size between two of its passes.  All
 * the new arrays are allocated first, with no worker held up, so either
 * every group takes the new size or, out of memory, none does; a group
 * without a batch (serving no queue) gets one of the new size with its
 * first queue.  Under the assign mutex, so groups made or taken down
 * meanwhile use the value in force.
 *
 * Context: Process context (a sysfs write), may sleep.  Takes
 * xnb_assign_mutex, and each group's sync_mutex in turn.
 * Return: 0, or -ENOMEM with nothing changed.
 */
int xnb_groups_set_batch(unsigned int batch)
{
	struct xnb_copy_arrays *a = NULL;
	unsigned int i, n;
	int err = 0;

	mutex_lock(&xnb_assign_mutex);
	n = xnb_groups ? xnb_nr_groups : 0;
	if (n) {
		a = kcalloc(n, sizeof(*a), GFP_KERNEL);
		if (!a) {
			err = -ENOMEM;
			goto out;
		}
	}
	/* Only the groups that have a batch: the others get one of the new
	 * size with their first queue (xnb_group_prepare).
	 */
	for (i = 0; i < n && !err; i++)
		if (xnb_groups[i].batch)
			err = xnb_copy_arrays_alloc(&a[i], batch);
	for (i = 0; i < n && !err; i++) {
		struct xnb_group *g = &xnb_groups[i];

		if (!g->batch)
			continue;
		/* The batch is empty between polls. */
		xnb_group_pause(g);
		xnb_copy_swap(g, &a[i]);
		xnb_group_resume(g);
	}
	if (!err)
		WRITE_ONCE(xnb_copy_batch, batch);
	/* The old arrays, or on failure the new ones. */
	for (i = 0; i < n; i++)
		xnb_copy_arrays_free(&a[i]);
	kfree(a);
out:
	mutex_unlock(&xnb_assign_mutex);
	return err;
}

/* The group's NAPI contexts on their dummy netdevs, enabled: "xnb-g<N>"
 * and with worker=kthread the light one, "xnb-l<N>".  Nothing is left
 * on failure.
 */
static int xnb_group_contexts(struct xnb_group *g)
{
	g->napi_dev = xnb_alloc_netdev_dummy();
	if (!g->napi_dev)
		return -ENOMEM;
	snprintf(g->napi_dev->name, IFNAMSIZ, "xnb-g%u", g->index);
	/* _tx only for NAPI_STATE_NO_BUSY_POLL: see xnb_group_run. */
	netif_napi_add_tx(g->napi_dev, &g->napi, xnb_group_poll);
	if (!xnb_use_tasklet) {
		g->light_dev = xnb_alloc_netdev_dummy();
		if (!g->light_dev) {
			netif_napi_del(&g->napi);
			xnb_free_netdev_dummy(g->napi_dev);
			g->napi_dev = NULL;
			return -ENOMEM;
		}
		snprintf(g->light_dev->name, IFNAMSIZ, "xnb-l%u", g->index);
		netif_napi_add_tx(g->light_dev, &g->light, xnb_group_poll_light);
		napi_enable(&g->light);
	}
	napi_enable(&g->napi);
	return 0;
}

/* worker=kthread: make the napi context threaded (thread
 * "napi/xnb-g<N>-0"), live as a sysfs write of "threaded" would, and
 * bind the thread to the group's CPU, where its irqs go too; the CPU
 * hotplug callbacks move it with them (xnb_group_set_cpu), under the
 * assign mutex the caller holds.  A thread that cannot be made leaves
 * the context in softirq (slower under sustained load, not wrong) until
 * the next attach to the group tries again; a refused binding leaves the
 * thread free to run anywhere.
 */
static void xnb_group_thread(struct xnb_group *g)
	__must_hold(&xnb_assign_mutex)
{
	int err;

	lockdep_assert_held(&xnb_assign_mutex);
	if (xnb_use_tasklet || g->napi.thread)
		return;
	err = dev_set_threaded(g->napi_dev, true);
	if (!err && !g->napi.thread)
		err = -ENOMEM;
	if (err) {
		pr_warn_ratelimited("group %u: no thread (%d): its passes stay in softirq for now\n",
				    g->index, err);
		return;
	}
	err = set_cpus_allowed_ptr(g->napi.thread, cpumask_of(g->cpu));
	if (err)
		pr_warn("group %u: thread not bound to cpu %d (%d)\n",
			g->index, g->cpu, err);
}

/**
 * xnb_group_prepare() - Make a group ready to take a queue.
 * @g: the group, in the set in force or in one being started
 *
 * Description: A group gets its NAPI contexts, its thread
 * (worker=kthread) and its batch when its first queue is about to join,
 * not when its set is made: a group that serves nothing costs its struct
 * alone (with one group per CPU, most of a big host's serve nothing
 * while few vifs are up), and one vif costs the batch of one group.
 * The contexts and the thread then stay until the set goes; the batch
 * goes back when the last queue leaves (xnb_group_sync).  The set's
 * first group is made ready as it starts and keeps its batch: an attach
 * whose group cannot get ready falls back on it, so an attach never
 * fails.  Does nothing for a group ready already (but try again to make
 * a thread that could not be made before).
 *
 * Context: Process context, may sleep.  The caller holds
 * xnb_assign_mutex.  Takes the group's sync_mutex to swap a batch in.
 * Return: 0 when the group may take a queue; -ENOMEM when it has no
 * contexts or no batch and they could not be allocated.
 */
int xnb_group_prepare(struct xnb_group *g)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_copy_arrays a;
	int err;

	/* xnb_copy_batch changes under it, and so does g->batch. */
	lockdep_assert_held(&xnb_assign_mutex);
	if (!g->napi_dev) {
		err = xnb_group_contexts(g);
		if (err)
			return err;
	}
	xnb_group_thread(g);
	if (g->batch)
		return 0;
	err = xnb_copy_arrays_alloc(&a, xnb_copy_batch);
	if (err)
		return err;
	/* No queue yet, so no pass: paused only as every swap is. */
	xnb_group_pause(g);
	xnb_copy_swap(g, &a);	/* g had none: nothing comes back */
	xnb_group_resume(g);
	return 0;
}

/**
 * xnb_group_start() - Start one group of a new set.
 * @g: the group, zeroed
 * @index: its index in the set
 *
 * Description: The group serves the (index mod n)th of the n CPUs
 * online now, counting from 0 in CPU number order (not CPU number index
 * mod n when some CPU is offline): its home, where it runs until that
 * CPU goes offline.  The caller holds cpus_read_lock() (which
 * lockdep_assert_cpus_held() would check, were it exported), so the
 * CPUs stay online until the set is published; a later change is the
 * hotplug callbacks' to follow (groupset.c).  Only the set's first
 * group (@index 0) is made ready now (xnb_group_prepare: NAPI contexts,
 * thread, batch); the others when they get their first queue.
 *
 * Context: Process context, may sleep.  The caller holds
 * xnb_assign_mutex and cpus_read_lock().
 * Return: 0, or a negative errno with nothing left started.
 */
int xnb_group_start(struct xnb_group *g, unsigned int index)
	__must_hold(&xnb_assign_mutex)
{
	int err;

	lockdep_assert_held(&xnb_assign_mutex);
	g->index = index;
	g->home_cpu = cpumask_nth(index % num_online_cpus(), cpu_online_mask);
	g->cpu = g->home_cpu;
	spin_lock_init(&g->lock);
	u64_stats_init(&g->stats.sync);
	INIT_LIST_HEAD(&g->queues);
	INIT_LIST_HEAD(&g->active);
	mutex_init(&g->sync_mutex);
	lockdep_init_map(&g->pass_busy.dep_map, "xnb_group_pass",
			 &xnb_pass_key, 0);
	skb_queue_head_init(&g->deliver);
	g->run = xnb_use_tasklet ? XNB_RUN_MAIN : XNB_RUN_LIGHT;
	if (index)
		return 0;
	err = xnb_group_prepare(g);
	if (err)
		xnb_group_stop(g);
	return err;
}

/**
 * xnb_group_stop() - Stop a started group.
 * @g: the group
 *
 * Description: It serves no queue any more.  Both contexts, if it was
 * ever made ready, are disabled before either is deleted (a poll may
 * schedule the other), and netif_napi_del()'s synchronize_net() waits
 * out the tail of a poll that already completed before the netdevs and
 * the group go.
 *
 * Context: Process context, sleeps.  @g is in no published set (not
 * yet, or no longer).
 */
void xnb_group_stop(struct xnb_group *g)
{
	if (g->napi_dev) {
		napi_disable(&g->napi);
		if (g->light_dev) {
			napi_disable(&g->light);
			netif_napi_del(&g->light);
			xnb_free_netdev_dummy(g->light_dev);
			g->light_dev = NULL;
		}
		netif_napi_del(&g->napi);	/* stops the thread, if any */
		xnb_free_netdev_dummy(g->napi_dev);
		g->napi_dev = NULL;
	}
	xnb_copy_free(g);
}
