// SPDX-License-Identifier: GPL-2.0
/*
 * A worker group's pass: which queues get a turn and how much, each turn
 * (dom0->guest, then guest->dom0), and the flush of its copies.  proto.c
 * does the arithmetic of shares, turns and caps.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>

#include "common.h"
#include "trace.h"

/* The vif's @budget split among its queues active in g, less what this
 * pass gave them already.  A queue of another group never equals g (a
 * queue joins g under g->lock), so its fields are not read.
 */
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

		/* Compared only: a sibling of another group may be moving. */
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

/* Pop the next queue with work and size its turn: *way each way, *turn
 * overall (0 when its debt took both).  A queue whose vif had its budget
 * in this pass gets *share 0 and moves to @waiting, still queued, to lead
 * the next pass.
 */
static struct xnb_queue *xnb_group_pop(struct xnb_group *g, u32 budget,
				       const struct xnb_pass_acct *a,
				       struct list_head *waiting, u32 *share,
				       struct xnb_pass_ways *way, u32 *turn)
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
						   &q->turn_debt, way);
			*turn = give ? xnb_pass_turn_slots(a, give) : 0;
			list_del_init(&q->active_node);
			q->queued = false;
			WRITE_ONCE(g->nr_active, g->nr_active - 1);
			q->share_pass = g->pass_seq;
			q->share_slots = *turn;
		} else {
			list_move_tail(&q->active_node, waiting);
		}
	}
	spin_unlock_irq(&g->lock);
	return q;
}

/* One queue's turn: RX first, leaving TX its part of the cap if requests
 * wait, then TX within NAPI's budget.  What a cut turn leaves goes to
 * turn_left, what it overspent to turn_debt; a drained queue goes on
 * @settle.  True when the queue still has work.
 */
static bool xnb_group_serve(struct xnb_group *g, struct xnb_queue *q,
			    const struct xnb_pass_ways *way, u32 turn,
			    struct xnb_pass_acct *a, struct list_head *settle)
	__must_hold(&g->pass_busy)
{
	u32 rx_turn = min(turn, way->rx), tx_turn = min(turn, way->tx);
	unsigned int rx_used = 0, tx_used = 0;
	u32 rx_limit, tx_limit, tx_waits = 0;
	int rx, tx;

	lockdep_assert_held(&g->pass_busy);
	q->turn_left = (struct xnb_pass_ways){};
	/* A guest RX notification put off and due: its timer's kick. */
	xnb_rx_notify_check(q);
	if (READ_ONCE(q->vif->disabled))
		goto eoi;	/* owed EOIs still go, as spurious */

	/* Peek at the guest's TX ring only when that can change RX's slots. */
	if (tx_turn && xnb_pass_rx_split(a, rx_turn) && xnb_tx_waiting(q))
		tx_waits = tx_turn;
	rx_limit = xnb_pass_rx_slots(a, rx_turn, tx_waits);
	rx = xnb_rx_gather(g, q, rx_limit, &rx_used);
	xnb_pass_charge(a, 0, rx_used);
	tx_limit = xnb_pass_tx_slots(a, tx_turn);
	tx = xnb_tx_gather(g, q, tx_limit, &tx_used);
	xnb_pass_charge(a, tx, tx_used);
	q->turn_left.rx = xnb_pass_turn_left(way->rx, rx_limit, rx_used);
	q->turn_left.tx = xnb_pass_turn_left(way->tx, tx_limit, tx_used);
	q->turn_debt.rx = xnb_pass_debt(q->turn_debt.rx, way->rx, rx_used);
	q->turn_debt.tx = xnb_pass_debt(q->turn_debt.tx, way->tx, tx_used);
	u64_stats_update_begin(&g->stats.sync);
	u64_stats_add(&g->stats.packets, rx + tx);
	u64_stats_update_end(&g->stats.sync);
	WRITE_ONCE(q->load, q->load + rx + tx);	/* the balancer's measure */
	if (rx)
		q->worked |= BIT(XNB_EOI_RX);
	/* Held for credit is work deferred: a spurious EOI would back off. */
	if (tx || q->tx_held)
		q->worked |= BIT(XNB_EOI_TX);

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
	xnb_vif_eoi(q, XNB_EOI_TX);
	xnb_vif_eoi(q, XNB_EOI_RX);
	return false;
}

/* After the flush, re-arm each drained queue's TX ring: re-armed before
 * the copies, a guest posting meanwhile would cost an event and a pass.
 * Requests found then put it back on the active list, else its EOIs go.
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
			/* Rings drained: let the event channels fire again. */
			xnb_vif_eoi(q, XNB_EOI_TX);
			xnb_vif_eoi(q, XNB_EOI_RX);
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
 * Each queue active at the start gets a turn within its vif's share,
 * NAPI's budget (guest TX packets only: counting RX would let dom0's
 * transmits starve guest TX) and XNB_PASS_SLOTS ring slots both ways;
 * the queues not reached, or whose turn was cut, lead the next pass.
 * tests/unit/test_pass_model.c's model_pass() mirrors this loop: change
 * them together.
 *
 * Context: the group's poll, BH off.
 */
void xnb_group_pass(struct xnb_group *g, struct xnb_pass_acct *a)
	__must_hold(&g->pass_busy)
{
	bool traced = trace_xnb_group_pass_enabled();
	u32 share, turn, start_slots, vif_budget = READ_ONCE(xnb_budget);
	struct xnb_pass_ways way;
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
	/* Under the lock: a thread woken while still running has no wake-up
	 * barrier to order this after the kick's increment.
	 */
	spin_lock_irq(&g->lock);
	n = g->nr_active;
	g->pass_seq++;
	spin_unlock_irq(&g->lock);

	while (n-- && xnb_pass_may_serve(a) &&
	       (q = xnb_group_pop(g, vif_budget, a, &waiting, &share, &way,
				  &turn))) {
		if (!share) {
			/* Its vif's budget is spent and no kick will come (its
			 * channels stay masked): the poll must go on.
			 */
			a->requeued = true;
			continue;
		}
		served++;
		start_slots = a->slots;
		more = xnb_group_serve(g, q, &way, turn, a, &settle);
		/* A turn costs a slot at least, so the cap bounds turns too. */
		xnb_pass_turn_end(a, start_slots);
		if (!more)
			continue;
		spin_lock_irq(&g->lock);
		/* Back to the tail, or with its turn cut to lead the next
		 * pass, unless detached: until the pass ends its group is g
		 * or NULL.
		 */
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
	u64_stats_update_begin(&g->stats.sync);
	u64_stats_inc(&g->stats.passes);
	u64_stats_add(&g->stats.busy_ns, end - start);
	u64_stats_update_end(&g->stats.sync);
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
