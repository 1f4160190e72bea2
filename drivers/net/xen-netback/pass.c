// SPDX-License-Identifier: GPL-2.0
/*
 * A worker group's pass: which queues get a turn and how much, each turn
 * (dom0->guest, then guest->dom0), and the flush of the pass's copies
 * (copy.c).  When a pass runs, in which context, and the kicks that
 * bring queues to it are group.c's; the arithmetic of shares, turns and
 * caps is proto.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ktime.h>

#include "common.h"
#include "trace.h"

/* The slots @q may use this turn, each way (proto.c's xnb_queue_share):
 * the vif's @budget for this pass split among its queues active in this
 * group, less what the pass gave its other queues here already.  Active:
 * with work queued, or served in this pass (their turn stays counted
 * when they drain).  Siblings in this group change state only under
 * g->lock, which the caller holds; those of other groups are never equal
 * to g (a queue joins g under g->lock), so their fields are not read.
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

/* The next queue with work, its vif's share in *share, its turn's
 * share each way in *way (the vif's share less what the queue owes
 * that way, or what each way of a turn cut in the last pass has left
 * if less; the vif's share, owing nothing, if it is the group's only
 * active queue: nr_active counts it, and those on @waiting or put
 * back), and its turn's slots in *turn: the more of the two ways
 * clipped to what is left of the pass's cap (@a), or 0 when its debt
 * took both (its turn moves nothing).  The vif's other queues are
 * charged the turn, what the queue was given, not its share.  A queue
 * whose vif had its budget in this pass already gets none (*share 0):
 * it moves to @waiting, still queued, and goes back to the head of the
 * active list when the pass ends (xnb_group_pass), so its turn comes
 * first next time.
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

/* Serve one queue's turn of @turn slots (the more of its share each way
 * @way, clipped to what is left of the pass's cap), each way no more
 * than its share: dom0->guest first, leaving part of the cap to
 * guest->dom0 if requests wait there (xnb_pass_rx_slots); then
 * guest->dom0, fewer when NAPI's budget has fewer packets left or RX
 * left less of the cap (xnb_pass_tx_slots).  A slot at least each way
 * that has a share.  Charges the turn's TX packets and slots, both
 * ways, to @a, RX's before TX's turn is sized.  A way the cap or NAPI's
 * budget cut keeps in turn_left what it has left for the next pass
 * (xnb_pass_turn_left); what a way used past its share, the packet
 * that crossed it, goes to turn_debt, paid from the queue's next turns
 * (xnb_pass_debt).  True when the queue still has work.
 *
 * A drained queue goes on @settle: its guest TX ring is re-armed and
 * its EOIs sent after the pass's flush (xnb_pass_settle()), not now,
 * before its copies are even made.
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

	/* RX leaves TX its part of the cap while TX requests wait: a look
	 * at the guest's TX ring only when that can change RX's slots.
	 */
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
	/* A packet held for credit is work too, only deferred: its event
	 * was genuine, and a spurious EOI would back the channel off.
	 */
	if (tx || q->tx_held)
		q->worked |= BIT(XNB_EOI_TX);

	if (xnb_rx_pending(q))
		return true;
	/* Requests posted already are served now; a packet held for credit
	 * has the credit timer.
	 */
	if (xnb_tx_waiting(q))
		return true;
	/* Drained: its next turn is a new one, its debt still owed
	 * (xnb_pass_debt).
	 */
	q->turn_left = (struct xnb_pass_ways){};
	/* Once, should a kick give it a second turn in this pass. */
	if (list_empty(&q->settle_node))
		list_add_tail(&q->settle_node, settle);
	return false;

eoi:
	/* Rings drained: let the event channels fire again. */
	xnb_vif_eoi(q, XNB_EOI_TX);
	xnb_vif_eoi(q, XNB_EOI_RX);
	return false;
}

/* The queues this pass drained, once its copies are made and their
 * responses out: each one's guest TX ring is re-armed and looked at
 * again (xnb_tx_pending()); requests posted meanwhile put it back on the
 * active list, for the poll's next pass (group.c), else its EOIs go.
 * Re-armed after the copies, as stock does: re-armed before them, a
 * guest posting meanwhile raises an event (netfront notifies once per
 * re-arm) that costs an upcall and a pass.  A queue back on the active
 * list (a kick, a later turn with work left) is settled by its next
 * turn; one detached meanwhile with requests waiting is served by its
 * next group's kick, or its channels close.
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
				/* Its group is g or NULL until the pass ends. */
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

/* Keep the longest pass and the most slots one used, for sysfs.  A
 * reset (a write of 0 there) may meet a pass under way, which then
 * counts after it: the pass ended after the reset.
 */
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
 * @a: the poll's account (xnb_pass_acct, proto.c): what it did is added
 *
 * Description: Run by the poll of the context that owns the passes
 * (group.c's xnb_group_run).
 *
 * NAPI's budget counts guest TX packets, the ones that go up the stack:
 * each takes at least one ring slot, so a queue is given no more slots
 * than the budget has left.  All of them are copied in one flush and
 * handed to napi_gro_receive() on this context, each queue's in ring
 * order (xnb_tx_deliver), so the ring is consumed only as fast as the
 * stack takes packets, by one context at a time.
 *
 * The poll's work is bounded whatever the number of queues and the
 * budget: a pass starts no turn once the poll's NAPI budget is used, nor
 * once the poll's turns used XNB_PASS_SLOTS ring slots, dom0->guest
 * (xnb_rx_gather) and guest->dom0 counted alike, since both cost copies in this poll (a
 * softirq, or the thread with BH off), and a turn that used none counts
 * one (so a poll gives XNB_PASS_SLOTS turns at most); and a turn gets
 * no more than what is left of those (xnb_pass_turn_slots), so a poll
 * moves at most XNB_PASS_MAX_SLOTS.  The queues not reached stay at the
 * head of the active list and come first next time, so a pass cut short
 * starves no one.  RX hands nothing to the stack: it is not counted in
 * NAPI's budget, which would let dom0's transmits starve the guests'
 * TX.  A queue with work left is put back at the tail; one whose turn
 * the cap or NAPI's budget cut, either way, or whose vif's budget was
 * spent (xnb_group_pop), waits at the head and goes on first in the
 * next pass, each way with what it has left, so a cut turn is neither
 * lost nor charged twice (a queue alone on the list starts a new turn
 * instead: none waits for it, and its way done first would sit out
 * the other's rest, with work).  The packet that crosses a turn's share
 * goes whole, and its queue's next turns are that much shorter, or
 * move nothing, until the excess is paid (deficit round robin: a GSO
 * packet charged many times a share costs its queue as many turns).
 * Either way, or when the pass stopped with queues left, the poll keeps
 * the group scheduled (xnb_group_run).
 *
 * tests/unit/test_pass_model.c's model_pass() mirrors this loop, with
 * xnb_group_pop() and xnb_group_serve(): change them together.
 *
 * Context: The group's poll (softirq, or its thread with BH off), under
 * its pass lock.
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
	/* Under the lock: a thread woken while it still ran has no wake-up
	 * barrier to order this after the kick's increment.  A new pass
	 * number: the vifs' turns start over (xnb_group_share).
	 */
	spin_lock_irq(&g->lock);
	n = g->nr_active;
	g->pass_seq++;
	spin_unlock_irq(&g->lock);

	while (n-- && xnb_pass_may_serve(a) &&
	       (q = xnb_group_pop(g, vif_budget, a, &waiting, &share, &way,
				  &turn))) {
		if (!share) {
			/* Its vif's budget is spent: it waits, still active,
			 * with no kick to come (its channels stay masked until
			 * it drains), so the poll must go on like for a queue
			 * put back.
			 */
			a->requeued = true;
			continue;
		}
		served++;
		start_slots = a->slots;
		more = xnb_group_serve(g, q, &way, turn, a, &settle);
		/* One slot at least a turn, so the cap bounds the turns too:
		 * a disabled vif, RX waiting for buffers, TX held for credit,
		 * a full response ring or a turn its debt took use none.
		 */
		xnb_pass_turn_end(a, start_slots);
		if (!more)
			continue;
		spin_lock_irq(&g->lock);
		/* Unless it was detached meanwhile, back to the tail, or with
		 * its turn cut, first in the next pass.  Until this pass ends
		 * it cannot join another group (a detach waits for the pass):
		 * its group is g or NULL, written under g->lock.  A kick
		 * during its turn queued it at the tail already: a cut turn
		 * still moves it to wait.
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
	/* Those whose turn the cap cut or whose vif had its budget first
	 * next time, in the order met, before the queues this pass did not
	 * reach (a detach meanwhile took its queue off).
	 */
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
