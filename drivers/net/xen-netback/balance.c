// SPDX-License-Identifier: GPL-2.0
/*
 * Live rebalancing: every rebalance_ms, move at most one unpinned queue off
 * a saturated group (xnb_balance_pick()).  rebalance_ms=0 only measures,
 * for sysfs's busy_pct; the work parks while no queue is attached.
 */
#include <linux/ktime.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "common.h"
#include "trace.h"

static void xnb_balance_run(struct work_struct *work);
/* Measuring only need not wake an idle CPU: deferrable. */
static DECLARE_DELAYED_WORK(xnb_bal_work, xnb_balance_run);
static DECLARE_DEFERRABLE_WORK(xnb_bal_idle_work, xnb_balance_run);
static DEFINE_MUTEX(xnb_bal_lock);
static bool xnb_bal_started;
/* Written under both xnb_assign_mutex and xnb_bal_lock: read under either. */
static bool xnb_bal_parked;
static bool xnb_bal_resync;
static unsigned long xnb_bal_moves;

/* Under xnb_assign_mutex. */
static struct {
	bool valid;
	bool measured;		/* busy holds a whole interval's measure */
	bool quiet;		/* no queue at the last run, none attached */
	unsigned long gen;	/* xnb_groups_gen it was taken for */
	unsigned int nr;
	u64 when_ns;
	u64 *busy_ns;
	u32 *busy;		/* permille */
	u32 sample;
	struct xnb_bal_state st;
} xnb_bal;

/* Queues the balancer moved since load; lockless. */
unsigned long xnb_balance_moves(void)
{
	return READ_ONCE(xnb_bal_moves);
}

/**
 * xnb_balance_busy() - A group's busy share over the last window.
 * @group: the group's index in the set in force
 * @permille: set to the share, in 1/XNB_BAL_SCALE
 * Context: The caller holds xnb_assign_mutex.
 * Return: false, @permille untouched, until the set was measured once.
 */
bool xnb_balance_busy(unsigned int group, u32 *permille)
	__must_hold(&xnb_assign_mutex)
{
	lockdep_assert_held(&xnb_assign_mutex);
	if (!xnb_bal.measured || xnb_bal.gen != xnb_groups_gen ||
	    group >= xnb_bal.nr)
		return false;
	*permille = xnb_bal.busy[group];
	return true;
}

/* Arm the work of the mode in force, the other off. */
static void xnb_bal_arm(void)
	__must_hold(&xnb_bal_lock)
{
	unsigned int ms = READ_ONCE(xnb_rebalance_ms);

	lockdep_assert_held(&xnb_bal_lock);
	if (ms) {
		cancel_delayed_work(&xnb_bal_idle_work);
		mod_delayed_work(system_wq, &xnb_bal_work,
				 msecs_to_jiffies(ms));
	} else {
		cancel_delayed_work(&xnb_bal_work);
		mod_delayed_work(system_power_efficient_wq, &xnb_bal_idle_work,
				 msecs_to_jiffies(XNB_BUSY_WINDOW_MS));
	}
}

static void xnb_bal_free(void)
	__must_hold(&xnb_assign_mutex)
{
	lockdep_assert_held(&xnb_assign_mutex);
	kfree(xnb_bal.busy_ns);
	kfree(xnb_bal.busy);
	xnb_bal.busy_ns = NULL;
	xnb_bal.busy = NULL;
	xnb_bal.nr = 0;
	xnb_bal.valid = false;
	xnb_bal.measured = false;
}

/* 0 is kept free for "never sampled" (a new queue is zeroed). */
static void xnb_bal_next_sample(void)
	__must_hold(&xnb_assign_mutex)
{
	lockdep_assert_held(&xnb_assign_mutex);
	if (!++xnb_bal.sample)
		xnb_bal.sample = 1;
}

static void xnb_bal_reset(u64 now)
	__must_hold(&xnb_assign_mutex)
{
	unsigned int i, n = xnb_nr_groups;
	struct xnb_queue *q;

	lockdep_assert_held(&xnb_assign_mutex);
	if (xnb_bal.nr != n) {
		xnb_bal_free();
		xnb_bal.busy_ns = kcalloc(n, sizeof(*xnb_bal.busy_ns),
					  GFP_KERNEL);
		xnb_bal.busy = kcalloc(n, sizeof(*xnb_bal.busy), GFP_KERNEL);
		if (!xnb_bal.busy_ns || !xnb_bal.busy) {
			xnb_bal_free();
			return;
		}
		xnb_bal.nr = n;
	}
	xnb_bal_next_sample();
	for (i = 0; i < n; i++) {
		struct xnb_group *g = &xnb_groups[i];

		xnb_bal.busy_ns[i] = xnb_gstat(g, &g->stats.busy_ns);
		xnb_bal.busy[i] = 0;
		list_for_each_entry(q, &g->queues, group_node) {
			q->bal_load = READ_ONCE(q->load);
			q->bal_sample = xnb_bal.sample;
			q->bal_hold = 0;
		}
	}
	memset(&xnb_bal.st, 0, sizeof(xnb_bal.st));
	xnb_bal.gen = xnb_groups_gen;
	xnb_bal.when_ns = now;
	xnb_bal.valid = true;
	xnb_bal.measured = false;
}

/* Sample even without @pick: a balancer switched on has an interval. */
static void xnb_bal_interval(u64 now, bool pick)
	__must_hold(&xnb_assign_mutex)
{
	unsigned int i, n = xnb_nr_groups, nq = 0, k = 0;
	u64 dt = now - xnb_bal.when_ns;
	struct xnb_bal_queue *bq = NULL;
	struct xnb_queue **qs = NULL, *q;
	struct xnb_bal_move mv;
	u32 prev = xnb_bal.sample;

	lockdep_assert_held(&xnb_assign_mutex);
	if (!dt)
		return;
	for (i = 0; i < n; i++) {
		struct xnb_group *g = &xnb_groups[i];
		u64 busy_ns = xnb_gstat(g, &g->stats.busy_ns);

		xnb_bal.busy[i] = xnb_busy_share(xnb_bal.busy_ns[i], busy_ns,
						 dt);
		xnb_bal.busy_ns[i] = busy_ns;
		nq += g->nr_queues;
	}
	xnb_bal.when_ns = now;
	xnb_bal.measured = true;
	xnb_bal_next_sample();

	if (pick) {
		bq = kvmalloc_array(max(nq, 1u), sizeof(*bq), GFP_KERNEL);
		qs = kvmalloc_array(max(nq, 1u), sizeof(*qs), GFP_KERNEL);
	}
	for (i = 0; i < n; i++) {
		list_for_each_entry(q, &xnb_groups[i].queues, group_node) {
			unsigned long load = READ_ONCE(q->load);
			int pin = READ_ONCE(q->vif->pinned_group);
			bool seen = q->bal_sample == prev;

			if (bq && qs && k < nq) {
				bq[k].load = seen ? load - q->bal_load : 0;
				bq[k].group = i;
				bq[k].fixed = !seen || q->bal_hold ||
					      (pin >= 0 && pin < n);
				qs[k++] = q;
			}
			q->bal_load = load;
			q->bal_sample = xnb_bal.sample;
			if (q->bal_hold)
				q->bal_hold--;
		}
	}
	if (bq && qs &&
	    xnb_balance_pick(xnb_bal.busy, n, bq, k, &xnb_bal.st, &mv)) {
		q = qs[mv.queue];
		xnb_group_move_locked(q, mv.to);
		q->bal_hold = XNB_BAL_HOLD;
		WRITE_ONCE(xnb_bal_moves, xnb_bal_moves + 1);
		trace_xnb_queue_move(q->name, mv.from, mv.to, XNB_MOVE_BALANCE,
				     xnb_bal.busy[mv.from], xnb_bal.busy[mv.to],
				     bq[mv.queue].load);
		pr_debug("%s: moved from group %u (busy %u/1000) to %u (%u/1000)\n",
			 q->name, mv.from, xnb_bal.busy[mv.from], mv.to,
			 xnb_bal.busy[mv.to]);
	}
	kvfree(bq);
	kvfree(qs);
}

static void xnb_balance_run(struct work_struct *work)
{
	bool resync, idle = true, park = false;
	unsigned int i;
	u64 now;

	mutex_lock(&xnb_assign_mutex);
	now = ktime_get_ns();
	if (!xnb_groups) {
		/* init or exit under way */
	} else if (!xnb_bal.valid || xnb_bal.gen != xnb_groups_gen ||
		   xnb_bal.nr != xnb_nr_groups) {
		WRITE_ONCE(xnb_bal_resync, false);
		xnb_bal_reset(now);
	} else {
		/* Switched on: this interval was partly off, so it moves nothing. */
		resync = READ_ONCE(xnb_bal_resync);
		if (resync) {
			WRITE_ONCE(xnb_bal_resync, false);
			memset(&xnb_bal.st, 0, sizeof(xnb_bal.st));
		}
		xnb_bal_interval(now, READ_ONCE(xnb_rebalance_ms) && !resync);
	}
	/* Park only after a whole idle window, so busy_pct shows idle. */
	if (xnb_groups) {
		for (i = 0; i < xnb_nr_groups; i++)
			idle &= !xnb_groups[i].nr_queues;
		park = idle && xnb_bal.quiet && xnb_bal.measured;
		xnb_bal.quiet = idle;
	}
	/* Still under xnb_assign_mutex: no attach between count and park. */
	mutex_lock(&xnb_bal_lock);
	if (park)
		xnb_bal_parked = true;
	else if (xnb_bal_started)
		xnb_bal_arm();
	mutex_unlock(&xnb_bal_lock);
	mutex_unlock(&xnb_assign_mutex);
}

/**
 * xnb_balance_queue_added() - Unpark the balancer after an attach.
 * Context: The caller holds xnb_assign_mutex.  Takes xnb_bal_lock.
 */
void xnb_balance_queue_added(void)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_group *g;
	unsigned int i;

	lockdep_assert_held(&xnb_assign_mutex);
	xnb_bal.quiet = false;
	if (!xnb_bal_parked)
		return;
	/* The window starts now, not when the work parked. */
	if (xnb_bal.valid && xnb_bal.gen == xnb_groups_gen &&
	    xnb_bal.nr == xnb_nr_groups) {
		for (i = 0, g = xnb_groups; i < xnb_bal.nr; i++, g++)
			xnb_bal.busy_ns[i] = xnb_gstat(g, &g->stats.busy_ns);
		xnb_bal.when_ns = ktime_get_ns();
	}
	mutex_lock(&xnb_bal_lock);
	xnb_bal_parked = false;
	if (xnb_bal_started)
		xnb_bal_arm();
	mutex_unlock(&xnb_bal_lock);
}

/**
 * xnb_balance_set_interval() - Set rebalance_ms.
 * @ms: the period in milliseconds, range-checked; 0 only measures
 * Context: Process context.  Takes xnb_bal_lock.
 */
void xnb_balance_set_interval(unsigned int ms)
{
	mutex_lock(&xnb_bal_lock);
	/* Re-arming the same period would only push the run back. */
	if (ms != READ_ONCE(xnb_rebalance_ms)) {
		if (!READ_ONCE(xnb_rebalance_ms))
			WRITE_ONCE(xnb_bal_resync, true);
		WRITE_ONCE(xnb_rebalance_ms, ms);
		if (xnb_bal_started && !xnb_bal_parked)
			xnb_bal_arm();
	}
	mutex_unlock(&xnb_bal_lock);
}

void xnb_balance_start(void)
{
	mutex_lock(&xnb_bal_lock);
	xnb_bal_started = true;
	WRITE_ONCE(xnb_bal_resync, true);
	xnb_bal_arm();
	mutex_unlock(&xnb_bal_lock);
}

/**
 * xnb_balance_stop() - Stop the balancer, before the groups go.
 * Context: Process context, sleeps.  Takes xnb_bal_lock, then
 * xnb_assign_mutex.
 */
void xnb_balance_stop(void)
{
	mutex_lock(&xnb_bal_lock);
	xnb_bal_started = false;
	mutex_unlock(&xnb_bal_lock);
	/* With xnb_bal_started clear, neither work re-arms either. */
	cancel_delayed_work_sync(&xnb_bal_work);
	cancel_delayed_work_sync(&xnb_bal_idle_work);

	mutex_lock(&xnb_assign_mutex);
	xnb_bal_free();
	mutex_unlock(&xnb_assign_mutex);
}
