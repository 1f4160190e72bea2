// SPDX-License-Identifier: GPL-2.0
/* One worker group; which groups exist and serve what: groupset.c. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <xen/events.h>

#include "common.h"
#include "trace.h"

static struct napi_struct *xnb_group_napi(struct xnb_group *g)
{
	return READ_ONCE(g->run) == XNB_RUN_LIGHT ? &g->light : &g->napi;
}

/* Hard irq, softirq or BH off (irqs off: netpoll's transmit). */
static void xnb_group_wake(struct xnb_group *g)
{
	lockdep_assert_once(in_hardirq() || softirq_count() || irqs_disabled());
	napi_schedule(xnb_group_napi(g));
}

/**
 * xnb_group_kick() - Put a queue with work on its group's active list.
 * @q: the queue; one in no group is kicked by whoever attaches it next
 * Context: hard irq, softirq or BH off; RCU keeps the group.
 */
void xnb_group_kick(struct xnb_queue *q)
{
	struct xnb_group *g;
	unsigned long flags;
	bool wake;

	rcu_read_lock();
	g = rcu_dereference(q->group);
	if (!g) {
		rcu_read_unlock();
		return;
	}

	spin_lock_irqsave(&g->lock, flags);
	/* Only compared: q may be moving, under another group's lock. */
	if (rcu_access_pointer(q->group) == g && !q->queued) {
		list_add_tail(&q->active_node, &g->active);
		q->queued = true;
		WRITE_ONCE(g->nr_active, g->nr_active + 1);
	}
	wake = !g->woken;	/* a due poll will find q: no empty poll */
	g->woken = true;
	spin_unlock_irqrestore(&g->lock, flags);
	if (wake)
		xnb_group_wake(g);
	rcu_read_unlock();
}

/**
 * xnb_group_kick_task() - xnb_group_kick() from process context, BH on.
 * @q: the queue
 */
void xnb_group_kick_task(struct xnb_queue *q)
{
	lockdep_assert_once(in_task());
	local_bh_disable();
	xnb_group_kick(q);
	local_bh_enable();	/* runs the NET_RX the kick raised */
}

enum {
	XNB_PASS_HELD,		/* a poll is in its pass or hands it over */
	XNB_PASS_WAITER,	/* the owner found it held: wake it after */
};

/* One lockdep class for all pass locks; a trylock adds no edge to it. */
static struct lock_class_key xnb_pass_key;

/* Held (the old owner still completes): XNB_PASS_WAITER has it wake us. */
static bool xnb_pass_trylock(struct xnb_group *g)
{
	if (!test_and_set_bit_lock(XNB_PASS_HELD, &g->pass_busy.bits)) {
		lock_map_acquire_try(&g->pass_busy.dep_map);
		return true;
	}
	set_bit(XNB_PASS_WAITER, &g->pass_busy.bits);
	/* The mark before the retry's read; pairs with xnb_pass_unlock(). */
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

/* Last look and verdict share a g->lock section: after a completing
 * verdict, a later kick sees !woken.
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

/* Only the owner changes g->run; XNB_PASS_HELD holds a new owner off until
 * our napi_complete_done() has flushed GRO, so our packets go up first.  A
 * kick before napi_complete_done() sets NAPI's missed bit: we poll again.
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
		xnb_gstat_add(g, &g->stats.handoffs, 1);
		WRITE_ONCE(g->run, XNB_RUN_WORKER);
		napi_complete_done(napi, v.ret);
		xnb_pass_unlock(g);
		napi_schedule(&g->napi);
		return v.ret;
	case XNB_NEXT_AGAIN:
		xnb_pass_unlock(g);
		return v.ret;
	}
	if (g->light_dev) {
		if (me == XNB_RUN_WORKER)
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

	return xnb_group_run(g, napi, XNB_RUN_WORKER, budget);
}

static int xnb_group_poll_light(struct napi_struct *napi, int budget)
{
	struct xnb_group *g = container_of(napi, struct xnb_group, light);

	return xnb_group_run(g, napi, XNB_RUN_LIGHT, budget);
}

/* Spurious events in a row EOI'd at once: an honest guest raises some. */
#define XNB_SPURIOUS_GRACE	8

static void xnb_backoff_timer_fn(struct timer_list *t)
{
	struct xnb_backoff *b = timer_container_of(b, t, timer);

	xen_irq_lateeoi(READ_ONCE(b->irq), XEN_EOI_FLAG_SPURIOUS);
}

/**
 * xnb_backoff_init() - Set up a channel's late-EOI back-off.
 * @b: the back-off, of a channel not bound yet
 */
void xnb_backoff_init(struct xnb_backoff *b)
{
	memset(&b->spurious, 0, sizeof(b->spurious));
	b->irq = 0;
	timer_setup(&b->timer, xnb_backoff_timer_fn, 0);
}

/**
 * xnb_lateeoi() - Send the EOI owed for a channel, or hold it back.
 * @b: the channel's back-off
 * @irq: the channel's irq (a handler may run before the bind returns it)
 * @progress: the backend's req_cons of the channel's rings, summed
 * @spurious: the event, or the pass the EOI was owed to, found no work
 * Context: Any.  No lock: only the owed EOI's owner calls it.
 */
void xnb_lateeoi(struct xnb_backoff *b, unsigned int irq, u32 progress,
		 bool spurious)
{
	unsigned int hold = xnb_spurious_next(&b->spurious, spurious, progress,
					      XNB_SPURIOUS_GRACE, HZ);

	if (!hold) {
		xen_irq_lateeoi(irq, spurious ? XEN_EOI_FLAG_SPURIOUS : 0);
		return;
	}
	/* Read by the timer: the timer base's lock orders the two. */
	WRITE_ONCE(b->irq, irq);
	mod_timer(&b->timer, jiffies + hold);
}

/**
 * xnb_backoff_stop() - Drop a channel's held EOI for good.
 * @b: the back-off
 * Context: Sleeps.  After the irq is disabled and its EOI owner stopped (else
 * an EOI could be held again); before the unbind, as the timer EOIs through it.
 */
void xnb_backoff_stop(struct xnb_backoff *b)
{
	timer_delete_sync(&b->timer);
	memset(&b->spurious, 0, sizeof(b->spurious));
}

/* Our own consumers' progress, which a guest cannot fake via req_prod. */
static u32 xnb_eoi_progress(struct xnb_queue *q, unsigned int which)
{
	bool single = q->tx_irq == q->rx_irq;
	u32 p = 0;

	if (which == XNB_DIR_TX || single)
		p += READ_ONCE(q->tx.req_cons);
	if (which == XNB_DIR_RX || single)
		p += READ_ONCE(q->rx.req_cons);
	return p;
}

/* In @q's pass, its ring drained: spurious if no work since the last EOI. */
static void xnb_vif_eoi(struct xnb_queue *q, unsigned int which)
{
	bool single = q->tx_irq == q->rx_irq;
	unsigned long mask = single ? ~0UL : BIT(which);
	bool spurious;

	if (!test_and_clear_bit(which, &q->eoi))
		return;
	/* Work polled before the event was handled still counts for it. */
	spurious = !(q->worked & mask) || READ_ONCE(q->vif->disabled);
	q->worked &= ~mask;
	/* Before the EOI: what the guest produces after it is not spurious. */
	if (which == XNB_DIR_TX || single)
		WRITE_ONCE(q->tx_prod_eoi, READ_ONCE(q->tx.sring->req_prod));
	xnb_lateeoi(&q->backoff[which],
		    which == XNB_DIR_TX ? q->tx_irq : q->rx_irq,
		    xnb_eoi_progress(q, which), spurious);
}

/* @budget split among the vif's queues active in g, less this pass's use. */
static u32 xnb_group_share(struct xnb_group *g, struct xnb_queue *q,
			   u32 budget)
	__must_hold(&g->lock)
{
	struct xnb_vif *vif = q->vif;
	unsigned int i, nr = READ_ONCE(vif->num_queues);
	u32 active = 1, used = 0;

	lockdep_assert_held(&g->lock);
	for (i = 0; i < nr; i++) {
		struct xnb_queue *s = &vif->queues[i];
		bool turn;

		/* Only compared: it may be moving; joining g takes g->lock. */
		if (s == q || rcu_access_pointer(s->group) != g)
			continue;
		turn = s->share_pass == g->pass_seq && s->share_slots;
		if (turn)
			used += s->share_slots;
		if (turn || s->queued)
			active++;
	}
	return xnb_queue_share(budget, active, used);
}

/* Pop a queue and size its turn @t (slots 0: its debt took it).  With its
 * vif's budget spent, *share is 0 and it waits, queued, on @waiting.
 */
static struct xnb_queue *xnb_group_pop(struct xnb_group *g, u32 budget,
				       const struct xnb_pass_acct *a,
				       struct list_head *waiting, u32 *share,
				       struct xnb_turn *t)
	__must_hold(&g->pass_busy)
{
	struct xnb_queue *q;
	u32 give;

	lockdep_assert_held(&g->pass_busy);
	spin_lock_irq(&g->lock);
	q = list_first_entry_or_null(&g->active, struct xnb_queue,
				     active_node);
	if (q) {
		*share = xnb_group_share(g, q, budget);
		if (*share) {
			give = xnb_pass_turn_share(&q->turn_left, *share,
						   g->nr_active == 1,
						   &q->turn_debt, &t->way);
			t->slots = give ? xnb_pass_turn_slots(a, give) : 0;
			list_del_init(&q->active_node);
			q->queued = false;
			WRITE_ONCE(g->nr_active, g->nr_active - 1);
			q->share_pass = g->pass_seq;
			q->share_slots = t->slots;
		} else {
			list_move_tail(&q->active_node, waiting);
		}
	}
	spin_unlock_irq(&g->lock);
	return q;
}

/* RX first, leaving TX its part if requests wait; true while work remains. */
static bool xnb_group_serve(struct xnb_group *g, struct xnb_queue *q,
			    struct xnb_turn *t, struct xnb_pass_acct *a,
			    struct list_head *settle)
	__must_hold(&g->pass_busy)
{
	unsigned int rx_used = 0, tx_used = 0;
	bool waits;
	int rx, tx;

	lockdep_assert_held(&g->pass_busy);
	q->turn_left = (struct xnb_pass_ways){};
	xnb_rx_notify_check(q);
	if (READ_ONCE(q->vif->disabled))
		goto eoi;	/* owed EOIs still go, as spurious */

	/* Peek at the guest's TX ring only when that can change RX's slots. */
	waits = xnb_turn_peek(a, t) && xnb_tx_waiting(q);
	rx = xnb_rx_gather(g, q, xnb_turn_rx(a, t, waits), &rx_used);
	tx = xnb_tx_gather(g, q, xnb_turn_tx(a, t, rx_used), &tx_used);
	xnb_turn_end(a, t, rx_used, tx, tx_used, &q->turn_left, &q->turn_debt);
	xnb_gstat_add(g, &g->stats.packets, rx + tx);
	WRITE_ONCE(q->load, q->load + rx + tx);	/* the balancer's measure */
	if (rx)
		q->worked |= BIT(XNB_DIR_RX);
	/* Held for credit is work deferred: a spurious EOI would back off. */
	if (tx || q->tx_held)
		q->worked |= BIT(XNB_DIR_TX);

	if (xnb_rx_pending(q))
		return true;
	/* A held packet has the credit timer; posted requests go now. */
	if (xnb_tx_waiting(q))
		return true;
	q->turn_left = (struct xnb_pass_ways){};
	/* Once, should a kick give it a second turn in this pass. */
	if (list_empty(&q->settle_node))
		list_add_tail(&q->settle_node, settle);
	return false;

eoi:
	xnb_vif_eoi(q, XNB_DIR_TX);
	xnb_vif_eoi(q, XNB_DIR_RX);
	return false;
}

/* Re-armed after the flush: before it, posts during the copies would cost
 * an event and a pass.  One queued again settles at its next turn; one
 * detached with requests keeps its owed EOI for the pass its attach kicks.
 */
static void xnb_pass_settle(struct xnb_group *g, struct list_head *settle)
	__must_hold(&g->pass_busy)
{
	struct xnb_queue *q, *n;

	lockdep_assert_held(&g->pass_busy);
	list_for_each_entry_safe(q, n, settle, settle_node) {
		bool eoi = false;

		list_del_init(&q->settle_node);
		spin_lock_irq(&g->lock);
		if (!q->queued) {
			if (!xnb_tx_pending(q)) {
				eoi = true;
			} else if (rcu_dereference_protected(q->group,
					lockdep_is_held(&g->lock)) == g) {
				/* g or NULL until the pass ends. */
				list_add_tail(&q->active_node, &g->active);
				q->queued = true;
				WRITE_ONCE(g->nr_active, g->nr_active + 1);
			}
		}
		spin_unlock_irq(&g->lock);
		if (eoi) {
			xnb_vif_eoi(q, XNB_DIR_TX);
			xnb_vif_eoi(q, XNB_DIR_RX);
		}
	}
}

/* For sysfs; a pass under way at a reset counts after it. */
static void xnb_group_note_max(struct xnb_group *g, u64 ns, u32 slots)
	__must_hold(&g->pass_busy)
{
	unsigned long d = min_t(u64, ns, ULONG_MAX);

	lockdep_assert_held(&g->pass_busy);
	if (d > READ_ONCE(g->max_pass_ns))
		WRITE_ONCE(g->max_pass_ns, d);
	if (slots > READ_ONCE(g->max_pass_slots))
		WRITE_ONCE(g->max_pass_slots, slots);
}

/**
 * xnb_group_pass() - Run one pass of a group.
 * @g: the group
 * @a: the poll's account, added to
 *
 * Each queue active at the start gets a turn within its vif's share, NAPI's
 * budget (guest TX only, lest dom0's transmits starve it) and XNB_PASS_SLOTS;
 * those not reached or cut lead the next pass.  Turns are proto.c's
 * xnb_turn_*(); tests/unit/test_pass_model.c models this list order.
 *
 * Context: the group's poll, BH off.
 */
void xnb_group_pass(struct xnb_group *g, struct xnb_pass_acct *a)
	__must_hold(&g->pass_busy)
{
	bool traced = trace_xnb_group_pass_enabled();
	u32 share, start_slots, vif_budget = READ_ONCE(xnb_budget);
	struct xnb_turn t;
	u64 start = ktime_get_ns(), end, ops = 0, packets = 0;
	u32 tx_then = a->tx_packets, slots_then = a->slots;
	unsigned int n, served = 0;
	struct xnb_queue *q;
	LIST_HEAD(waiting);
	LIST_HEAD(settle);
	bool more, cut;

	lockdep_assert_held(&g->pass_busy);
	/* The pass's own counters, for its event: ours to read. */
	if (traced) {
		ops = u64_stats_read(&g->stats.ops);
		packets = u64_stats_read(&g->stats.packets);
	}
	/* Locked: waking a running thread is no barrier after a kick's add. */
	spin_lock_irq(&g->lock);
	n = g->nr_active;
	g->pass_seq++;
	spin_unlock_irq(&g->lock);

	while (n-- && xnb_pass_may_serve(a) &&
	       (q = xnb_group_pop(g, vif_budget, a, &waiting, &share, &t))) {
		if (!share) {
			/* No kick will come (channels masked): poll on. */
			a->requeued = true;
			continue;
		}
		served++;
		start_slots = a->slots;
		more = xnb_group_serve(g, q, &t, a, &settle);
		/* A turn costs a slot at least, so the cap bounds turns too. */
		xnb_pass_turn_end(a, start_slots);
		if (!more)
			continue;
		spin_lock_irq(&g->lock);
		/* Unless detached: its group is g or NULL to the pass's end. */
		if (rcu_dereference_protected(q->group,
					      lockdep_is_held(&g->lock)) == g) {
			a->requeued = true;
			cut = q->turn_left.rx || q->turn_left.tx;
			if (!q->queued) {
				list_add_tail(&q->active_node, cut ?
					      &waiting : &g->active);
				q->queued = true;
				WRITE_ONCE(g->nr_active, g->nr_active + 1);
			} else if (cut) {
				list_move_tail(&q->active_node, &waiting);
			}
		}
		spin_unlock_irq(&g->lock);
	}
	/* The waiting lead the next pass (a detach took its queue off). */
	spin_lock_irq(&g->lock);
	list_splice(&waiting, &g->active);
	spin_unlock_irq(&g->lock);
	xnb_copy_flush(g);
	xnb_pass_settle(g, &settle);
	end = ktime_get_ns();
	xnb_gstat_add(g, &g->stats.passes, 1);
	xnb_gstat_add(g, &g->stats.busy_ns, end - start);
	xnb_group_note_max(g, end - start, a->slots - slots_then);
	if (traced) {
		u32 tx = a->tx_packets - tx_then;

		packets = u64_stats_read(&g->stats.packets) - packets;
		ops = u64_stats_read(&g->stats.ops) - ops;
		/* tx_packets counts guest TX, the rest went to guests. */
		trace_xnb_group_pass(g->index, served, tx, packets - tx, ops,
				     end - start, a->slots - slots_then);
	}
}

static enum xnb_event xnb_tx_event(struct xnb_queue *q)
{
	return xnb_tx_event_judge(READ_ONCE(q->tx.sring->req_prod),
				  READ_ONCE(q->tx_prod_eoi),
				  READ_ONCE(q->tx.req_cons),
				  READ_ONCE(q->tx_held),
				  READ_ONCE(q->vif->disabled));
}

/* rx.c stores rx_want, rx_blocked_since before req_event (smp_wmb()); the
 * guest's event, raised on seeing req_event, orders our reads after them.
 */
static enum xnb_event xnb_rx_event(struct xnb_queue *q)
{
	return xnb_rx_event_judge(READ_ONCE(q->rx.sring->req_prod),
				  READ_ONCE(q->rx.req_cons), XNB_RX_RING_SIZE,
				  READ_ONCE(q->rx_blocked_since) != 0,
				  READ_ONCE(q->rx_want),
				  READ_ONCE(q->vif->disabled));
}

/* The EOI waits for the group's pass, so an event storm costs the guest. */
static irqreturn_t xnb_event(int irq, struct xnb_queue *q, enum xnb_event ev,
			     unsigned int which)
{
	switch (ev) {
	case XNB_EV_KICK:
		set_bit(which, &q->eoi);
		xnb_group_kick(q);
		break;
	case XNB_EV_OWE:
		/* Held for credit: the credit timer's pass sends the EOI. */
		set_bit(which, &q->eoi);
		/* Pairs with the worker's tx_held clear before xnb_vif_eoi()'s
		 * test_and_clear_bit(): it sees our bit, or we the hold gone.
		 */
		smp_mb__after_atomic();
		if (!READ_ONCE(q->tx_held))
			xnb_group_kick(q);
		break;
	default:
		xnb_lateeoi(&q->backoff[which], irq, xnb_eoi_progress(q, which),
			    true);
		break;
	}
	return IRQ_HANDLED;
}

irqreturn_t xnb_tx_interrupt(int irq, void *dev_id)
{
	struct xnb_queue *q = dev_id;

	return xnb_event(irq, q, xnb_tx_event(q), XNB_DIR_TX);
}

irqreturn_t xnb_rx_interrupt(int irq, void *dev_id)
{
	struct xnb_queue *q = dev_id;

	return xnb_event(irq, q, xnb_rx_event(q), XNB_DIR_RX);
}

/* One event channel for both rings: one EOI, owed under the TX bit. */
irqreturn_t xnb_interrupt(int irq, void *dev_id)
{
	struct xnb_queue *q = dev_id;

	return xnb_event(irq, q, xnb_event_merge(xnb_tx_event(q),
						 xnb_rx_event(q)),
			 XNB_DIR_TX);
}

/* g->lock orders us with a kick: a lost wake-up leaves a channel masked. */
static void xnb_group_rewake(struct xnb_group *g)
{
	unsigned int n;

	lockdep_assert_once(in_task());
	spin_lock_irq(&g->lock);
	n = g->nr_active;
	g->woken = n != 0;
	spin_unlock_irq(&g->lock);
	if (n) {
		local_bh_disable();	/* its enable runs the NET_RX raised */
		xnb_group_wake(g);
		local_bh_enable();
	}
}

/* Kicks meanwhile only queue: xnb_group_resume() looks at the list. */
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
 * Context: process, sleeps.
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
 * @batch: the new size, range-checked
 * Context: process, sleeps; takes xnb_assign_mutex.
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
	/* A group without a batch gets one with its first queue. */
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

/* Nothing is left on failure. */
static int xnb_group_contexts(struct xnb_group *g)
{
	g->napi_dev = xnb_alloc_netdev_dummy();
	if (!g->napi_dev)
		return -ENOMEM;
	snprintf(g->napi_dev->name, IFNAMSIZ, "xnb-g%u", g->index);
	/* _tx: no busy polling, which would skip GRO's flush. */
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

/* Without a thread the passes stay in softirq until the next attach. */
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
 * @g: the group
 *
 * Contexts, thread and batch come with the first queue: an idle group costs
 * its struct alone.  Group 0 keeps its batch so that attaches never fail.
 *
 * Context: process, may sleep.
 * Return: 0, or -ENOMEM.
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
 * @index: its index in the set; only group 0 is made ready now
 * Context: process, may sleep; cpus_read_lock() keeps its home CPU online.
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
	g->run = xnb_use_tasklet ? XNB_RUN_WORKER : XNB_RUN_LIGHT;
	if (index)
		return 0;
	err = xnb_group_prepare(g);
	if (err)
		xnb_group_stop(g);
	return err;
}

/**
 * xnb_group_stop() - Stop a started group that serves no queue.
 * @g: the group, in no published set
 *
 * Both contexts are disabled before either is deleted, as a poll may
 * schedule the other; netif_napi_del() waits out a completed poll's tail.
 *
 * Context: process, sleeps.
 */
void xnb_group_stop(struct xnb_group *g)
{
	struct xnb_copy_arrays a = {};

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
	xnb_copy_swap(g, &a);	/* its last pass flushed */
	xnb_copy_arrays_free(&a);
}
