// SPDX-License-Identifier: GPL-2.0
/*
 * Worker groups, the dataplane: when a group runs its queues, and how.
 *
 * Each group serves one CPU through NAPI on dummy netdevs: with
 * worker=kthread a softirq context ("xnb-l<N>") while the load is light
 * and a thread ("xnb-g<N>") under sustained load (xnb_group_run), with
 * worker=tasklet one softirq context ("xnb-g<N>").  A queue with work
 * sits once on its group's active list; the poll pops each
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
 * (copy.c).  A streaming queue whose turn drains it may instead be held,
 * off the active list with its events owed, until the group's hold timer
 * brings it back with the others held meanwhile (defer.c).
 *
 * Here too: the kicks that wake a group, its pass lock, pausing its
 * passes (a detach's sync, a copy_batch change), making a group ready
 * for its first queue (NAPI contexts, thread, batch: a group serving
 * nothing has none of them, but the set's first), and starting and
 * stopping one group.  Which groups exist and which queue each serves
 * is groupset.c's.
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
 * wake the group: with xnb_group_wake_task() when @task, for a caller
 * in process context with BH on.  A held queue's kick of the ways it is
 * held for waits for the hold timer (defer.c).
 */
static void xnb_group_kick_how(struct xnb_queue *q, unsigned int way,
			       bool task)
{
	struct xnb_group *g;
	unsigned long flags;
	bool absorbed = false;

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
		absorbed = xnb_defer_absorb(g, q, way);
		if (!absorbed) {
			list_add_tail(&q->active_node, &g->active);
			q->queued = true;
			WRITE_ONCE(g->nr_active, g->nr_active + 1);
		}
	}
	spin_unlock_irqrestore(&g->lock, flags);
	/* An absorbed kick's queue is woken by the hold timer. */
	if (!absorbed && task)
		xnb_group_wake_task(g);
	else if (!absorbed)
		xnb_group_wake(g);
	rcu_read_unlock();
}

/**
 * xnb_group_kick() - Put a queue with work on its group's active list.
 * @q: the queue
 * @way: the ways the work is for (XNB_WAY_*)
 *
 * Queues @q once on the active list of the group serving it and
 * schedules that group's poll, unless @q is held for every way of @way
 * (defer.c): its hold timer serves it then.  A queue in no group is left
 * alone: whoever attaches it next kicks it.
 *
 * Context: Hard irq (event channels), softirq (timers), or BH off (the
 * transmit path); process context uses xnb_group_kick_task().  Takes the
 * group's lock with irqs saved.  An RCU reader while it holds the group:
 * a runtime regroup frees the old groups only after synchronize_rcu().
 */
void xnb_group_kick(struct xnb_queue *q, unsigned int way)
{
	xnb_group_kick_how(q, way, false);
}

/**
 * xnb_group_kick_task() - xnb_group_kick() from process context.
 * @q: the queue
 *
 * As xnb_group_kick() for work either way, for callers in process
 * context with BH on (an attach, a move, a "rate" change), where
 * scheduling NAPI needs BH bracketed to run.
 *
 * Context: Process context, may sleep; BH on.  Takes the group's lock
 * and disables BH around the wake-up.
 */
void xnb_group_kick_task(struct xnb_queue *q)
{
	xnb_group_kick_how(q, XNB_WAY_ALL, true);
}

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

/* The next queue with work, its share each way in *way (its vif's, or
 * what each way of a turn cut in the last pass has left if less, unless
 * it is the group's only active queue: nr_active counts it, and those
 * on @waiting or put back), the more of the two in *share, and its
 * turn's slots in *turn: *share clipped to what is left of the pass's
 * cap (@a), and in *held whether the hold timer (or a kick of a way it
 * was not held for) put it back (defer.c).  The vif's other queues are
 * charged the turn, what the queue was given, not its share.  A queue
 * whose vif had its budget in this pass already gets none: it moves to
 * @waiting, still queued, and
 * goes back to the head of the active list when the pass ends
 * (xnb_group_pass), so its turn comes first next time.
 */
static struct xnb_queue *xnb_group_pop(struct xnb_group *g, u32 budget,
				       const struct xnb_pass_acct *a,
				       struct list_head *waiting, u32 *share,
				       struct xnb_pass_ways *way, u32 *turn,
				       bool *held)
	__must_hold(&g->pass_busy)
{
	struct xnb_queue *q;

	lockdep_assert_held(&g->pass_busy);
	*held = false;
	spin_lock_irq(&g->lock);
	q = list_first_entry_or_null(&g->active, struct xnb_queue,
				     active_node);
	if (q) {
		*share = xnb_group_share(g, q, budget);
		if (*share) {
			*share = xnb_pass_turn_share(&q->turn_left, *share,
						     g->nr_active == 1, way);
			*turn = xnb_pass_turn_slots(a, *share);
			list_del_init(&q->active_node);
			q->queued = false;
			WRITE_ONCE(g->nr_active, g->nr_active - 1);
			q->share_pass = g->pass_seq;
			q->share_slots = *turn;
			*held = q->defer_turn;
			q->defer_turn = false;
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
 * (xnb_pass_turn_left).  True when the queue still has work.
 *
 * A turn in defer mode (@defer, xnb_defer_mode()) leaves the guest's TX
 * ring unarmed when it empties it; drained, it says in *hold the ways it
 * moved packets in, and then neither re-arms the ring nor sends the
 * EOIs: the caller holds the queue (defer.c).  Otherwise *hold is 0.
 */
static bool xnb_group_serve(struct xnb_group *g, struct xnb_queue *q,
			    const struct xnb_pass_ways *way, u32 turn,
			    bool defer, struct xnb_pass_acct *a,
			    unsigned int *hold)
	__must_hold(&g->pass_busy)
{
	u32 rx_turn = min(turn, way->rx), tx_turn = min(turn, way->tx);
	unsigned int rx_used = 0, tx_used = 0;
	u32 rx_limit, tx_limit, tx_waits = 0;
	int rx, tx;

	lockdep_assert_held(&g->pass_busy);
	*hold = 0;
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
	tx = xnb_tx_gather(g, q, tx_limit, &tx_used, !defer);
	xnb_pass_charge(a, tx, tx_used);
	q->turn_left.rx = xnb_pass_turn_left(way->rx, rx_limit, rx_used);
	q->turn_left.tx = xnb_pass_turn_left(way->tx, tx_limit, tx_used);
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
	/* Held: the guest's next requests wait for the hold timer's turn,
	 * unannounced; one waiting already is served now.  A packet held
	 * for credit has the credit timer instead.
	 */
	if (defer && !q->tx_held) {
		if (xnb_tx_waiting(q))
			return true;
		*hold = xnb_defer_keep(rx, tx, q->rx_blocked_since,
				       q->tx_irq == q->rx_irq);
	}
	/* A way not held re-arms, so its guest is heard at once. */
	if (!(*hold & XNB_WAY_TX) && xnb_tx_pending(q)) {
		*hold = 0;
		return true;
	}
	/* Drained: its next turn is a new one. */
	q->turn_left = (struct xnb_pass_ways){};
	if (*hold) {
		/* The held ways' EOIs stay owed, their channels masked (one
		 * channel for both rings is held only with TX: see
		 * xnb_defer_keep()).
		 */
		if (q->tx_irq == q->rx_irq)
			return false;
		if (!(*hold & XNB_WAY_TX))
			xnb_vif_eoi(q, XNB_EOI_TX);
		if (!(*hold & XNB_WAY_RX))
			xnb_vif_eoi(q, XNB_EOI_RX);
		return false;
	}

eoi:
	/* Rings drained: let the event channels fire again. */
	xnb_vif_eoi(q, XNB_EOI_TX);
	xnb_vif_eoi(q, XNB_EOI_RX);
	return false;
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

/* The group's pass, run by the poll of the context that owns it; @a
 * says what it did (xnb_pass_acct, proto.c).
 *
 * NAPI's budget counts guest TX packets, the ones that go up the stack:
 * each takes at least one ring slot, so a queue is given no more slots
 * than the budget has left.  All of them are copied in one flush and
 * handed to napi_gro_receive() on this context, each queue's in ring
 * order (xnb_tx_deliver), so the ring is consumed only as fast as the
 * stack takes packets, by one context at a time.
 *
 * The pass's work is bounded whatever the number of queues and the
 * budget: it starts no turn once NAPI's budget is used, nor once its
 * turns used XNB_PASS_SLOTS ring slots, dom0->guest (xnb_rx_gather) and
 * guest->dom0 counted alike, since both cost copies in this poll (a
 * softirq, or the thread with BH off), and a turn that used none counts
 * one (so a pass gives XNB_PASS_SLOTS turns at most); and a turn gets
 * no more than what is left of those (xnb_pass_turn_slots), so a pass
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
 * the other's rest, with work).  Either way, or when the pass stopped with
 * queues left, the poll keeps the group scheduled (xnb_group_run).
 *
 * tests/unit/test_pass_model.c's model_pass() mirrors this loop, with
 * xnb_group_pop() and xnb_group_serve(): change them together.
 */
static void xnb_group_pass(struct xnb_group *g, struct xnb_pass_acct *a)
	__must_hold(&g->pass_busy)
{
	bool traced = trace_xnb_group_pass_enabled();
	u32 share, turn, start_slots, vif_budget = READ_ONCE(xnb_budget);
	struct xnb_pass_ways way;
	u64 start = ktime_get_ns(), end, ops = 0, packets = 0;
	unsigned int n, served = 0, holds = 0, keep_ways, moved = 0;
	struct xnb_queue *q;
	LIST_HEAD(waiting);
	bool more, cut, from_hold;
	u32 hold_ns;

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
	/* How long a queue drained in this pass may be held (defer.c): not
	 * at all by a pass away from the group's CPU (a light poll on the
	 * CPU of a transmit, a CPU going offline), whose pinned timer would
	 * keep the passes there.
	 */
	hold_ns = 0;
	if (raw_smp_processor_id() == READ_ONCE(g->cpu))
		hold_ns = xnb_defer_hold_ns(g->pass_mean_ns,
					    READ_ONCE(xnb_defer_max_usecs));
	WRITE_ONCE(g->hold_ns, hold_ns);

	while (n-- && xnb_pass_may_serve(a) &&
	       (q = xnb_group_pop(g, vif_budget, a, &waiting, &share, &way,
				  &turn, &from_hold))) {
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
		more = xnb_group_serve(g, q, &way, turn,
				       xnb_defer_mode(hold_ns, from_hold, start,
						      q->drained_ns),
				       a, &keep_ways);
		/* A drain that moved packets: the queue's pace (a turn of a
		 * timer's kick that found nothing says nothing of it).
		 */
		if (!more && a->slots != start_slots)
			q->drained_ns = start;
		moved += a->slots - start_slots;
		/* One slot at least a turn, so the cap bounds the turns too:
		 * a disabled vif, RX waiting for buffers, TX held for credit
		 * or a full response ring use none.
		 */
		xnb_pass_turn_end(a, start_slots);
		if (!more && keep_ways) {
			spin_lock_irq(&g->lock);
			/* Not if detached meanwhile (its group is g or
			 * NULL, as below), nor kicked during its turn: a
			 * queue on the active list gets its turn anyway.
			 */
			if (rcu_dereference_protected(q->group,
						      lockdep_is_held(&g->lock)) == g &&
			    !q->queued) {
				xnb_defer_hold(g, q, keep_ways);
				holds++;
			}
			spin_unlock_irq(&g->lock);
		}
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
	end = ktime_get_ns();
	/* The pace the next holds are measured by: passes that moved
	 * something (not the slot a turn that moved none is charged).
	 */
	if (moved)
		g->pass_mean_ns = xnb_defer_mean(g->pass_mean_ns, end - start);
	u64_stats_update_begin(&g->stats.sync);
	u64_stats_inc(&g->stats.passes);
	u64_stats_add(&g->stats.busy_ns, end - start);
	u64_stats_add(&g->stats.holds, holds);
	u64_stats_update_end(&g->stats.sync);
	xnb_group_note_max(g, end - start, a->slots);
	if (traced) {
		packets = u64_stats_read(&g->stats.packets) - packets;
		ops = u64_stats_read(&g->stats.ops) - ops;
		/* tx_packets counts guest TX, the rest went to guests. */
		trace_xnb_group_pass(g->index, served, a->tx_packets,
				     packets - a->tx_packets, ops,
				     end - start, a->slots);
	}
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

/* The poll of either context.  worker=kthread: the light (softirq)
 * context runs the passes while the load is light, so a lone packet is
 * served in the softirq that took its event, with no thread to wake.  A
 * pass that ends with NAPI's budget used up, or stopped at
 * XNB_PASS_SLOTS with queues left, or put a queue back for having work
 * past its share, is sustained load, and so are XNB_LIGHT_REPOLLS light
 * polls in a row that found queues kicked meanwhile (one such poll is
 * not: the kick set NAPI's MISSED bit and the light context is simply
 * polled again); proto.c's xnb_pass_decide() judges.  The light context
 * then hands the passes to the thread, bound to the group's CPU, which
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
 * without flushing GRO.  A kick racing with a completion sets MISSED
 * and the context is polled again.
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
	xnb_group_pass(g, &a);
	xnb_pass_decide(&a, me == XNB_RUN_LIGHT, READ_ONCE(g->nr_active),
			&g->light_repolls, &v);

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
		/* The thread, or tasklet's softirq: poll again. */
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

/* After napi_enable(): schedule the owner if a kick found it disabled.
 * Under g->lock: a kick adds its queue under the lock and only then
 * looks at the NAPI state, so either we see its queue here or it sees
 * the context enabled (an unlocked read could miss both, and the
 * queue's owed EOI would keep its channel masked).
 */
static void xnb_group_rewake(struct xnb_group *g)
{
	unsigned int n;

	spin_lock_irq(&g->lock);
	n = g->nr_active;
	spin_unlock_irq(&g->lock);
	if (n)
		xnb_group_wake_task(g);
}

/* Stop the group's passes: on return no pass runs, and none starts
 * until xnb_group_resume().  Kicks meanwhile find the contexts disabled
 * and only queue their queue; a handover meanwhile schedules nothing.
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
 * A group left serving no queue gives its batch and its page_pool back
 * meanwhile, unless it is its set's first (see xnb_group_prepare): no
 * pass touches them in a group without queues, and the next queue to
 * join brings new ones.
 *
 * Context: Process context, sleeps.  The caller holds xnb_assign_mutex
 * (the group's queues are as they will stay until it drops it).  Takes
 * the group's sync_mutex and its lock.
 */
void xnb_group_sync(struct xnb_group *g)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_copy_arrays a = {};
	struct page_pool *pool = NULL;

	lockdep_assert_held(&xnb_assign_mutex);
	xnb_group_pause(g);
	if (!g->nr_queues && g->index) {
		xnb_copy_swap(g, &a);
		swap(g->tx_pool, pool);
	}
	xnb_group_resume(g);
	xnb_copy_arrays_free(&a);
	/* Pages still in sockets keep it until they come back. */
	page_pool_destroy(pool);
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
 * (worker=kthread), its batch and its guest TX page_pool (tx_page_pool)
 * when its first queue is about to join, not when its set is made: a
 * group that serves nothing costs its struct alone (with one group per
 * CPU, most of a big host's serve nothing while few vifs are up), and
 * one vif costs the batch and pool of one group.  The contexts and the
 * thread then stay until the set goes; the batch and the pool go back
 * when the last queue leaves (xnb_group_sync).  The set's first group
 * is made ready as it starts and keeps its batch and pool: an attach
 * whose group cannot get ready falls back on it, so an attach never
 * fails.  Does nothing for a group ready already (but try again to make
 * a thread that could not be made before).
 *
 * Context: Process context, may sleep.  The caller holds
 * xnb_assign_mutex.  Takes the group's sync_mutex to swap a batch in.
 * Return: 0 when the group may take a queue; -ENOMEM when it has no
 * contexts or no batch and they could not be allocated (a pool that
 * cannot be made is done without).
 */
int xnb_group_prepare(struct xnb_group *g)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_copy_arrays a;
	struct page_pool *pool;
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
	/* The page_pool comes and goes with the batch (NULL if none). */
	pool = xnb_tx_pool_create();
	if (IS_ERR(pool)) {
		/* Only a saving: the group allocates pages one by one. */
		pr_warn_ratelimited("group %u: no page_pool (%ld): guest TX pages from the page allocator\n",
				    g->index, PTR_ERR(pool));
		pool = NULL;
	}
	/* No queue yet, so no pass: paused only as every swap is. */
	xnb_group_pause(g);
	xnb_copy_swap(g, &a);	/* g had none: nothing comes back */
	g->tx_pool = pool;
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
	xnb_defer_init(g);
	mutex_init(&g->sync_mutex);
	lockdep_init_map(&g->pass_busy.dep_map, "xnb_group_pass",
			 &xnb_pass_key, 0);
	skb_queue_head_init(&g->deliver);
	/* What the flush calls back, by direction (copy.c stays below). */
	g->copy_ops[XNB_DIR_TX] = &xnb_tx_copy_ops;
	g->copy_ops[XNB_DIR_RX] = &xnb_rx_copy_ops;
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
		if (g->light_dev)
			napi_disable(&g->light);
		/* No pass arms it any more, and it wakes no deleted context. */
		xnb_defer_stop(g);
		if (g->light_dev) {
			netif_napi_del(&g->light);
			xnb_free_netdev_dummy(g->light_dev);
			g->light_dev = NULL;
		}
		netif_napi_del(&g->napi);	/* stops the thread, if any */
		xnb_free_netdev_dummy(g->napi_dev);
		g->napi_dev = NULL;
	}
	xnb_copy_free(g);
	/* No pass allocates any more.  Pages in flight keep the pool until
	 * the stack gives them back; page_pool_destroy() does not wait.
	 */
	page_pool_destroy(g->tx_pool);
	g->tx_pool = NULL;
}
