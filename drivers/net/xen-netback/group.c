// SPDX-License-Identifier: GPL-2.0
/*
 * Worker groups: who runs which queue, and when.
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
 * (copy.c).
 *
 * A new queue joins the group serving the fewest queues (xnb_pick_group),
 * unless its vif is pinned with the "worker-group" key.  Afterwards the
 * balancer (balance.c) moves unpinned queues by measured load, with
 * xnb_group_move_locked.
 *
 * /sys/kernel/debug/xen-netback/groups shows every group's counters and
 * queues.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/debugfs.h>
#include <linux/ktime.h>
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

/* The context that owns the passes now (see xnb_group_run). */
static struct napi_struct *xnb_group_napi(struct xnb_group *g)
{
	return READ_ONCE(g->run) == XNB_RUN_LIGHT ? &g->light : &g->napi;
}

/* Schedule the context that owns the passes, from hard irq, softirq or
 * with BH off: event channels, timers, the transmit path, the polls.  A
 * NET_RX that napi_schedule() raises runs as that context ends (irq
 * exit, softirq, local_bh_enable()).  Irqs off stands for hard irq too:
 * the transmit path of netpoll runs so.
 */
static void xnb_group_wake(struct xnb_group *g)
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
 * in process context with BH on.
 */
static void xnb_group_kick_how(struct xnb_queue *q, bool task)
{
	struct xnb_group *g;
	unsigned long flags;

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
	spin_unlock_irqrestore(&g->lock, flags);
	if (task)
		xnb_group_wake_task(g);
	else
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
 * what each way of a turn cut in the last pass has left if less), the
 * more of the two in *share, and its turn's slots in *turn: *share
 * clipped to what is left of the pass's cap (@a).  The vif's other
 * queues are charged the turn, what the queue was given, not its
 * share.  A queue whose vif had its budget in this
 * pass already gets none: it moves to @waiting, still queued, and goes
 * back to the head of the active list when the pass ends
 * (xnb_group_pass), so its turn comes first next time.
 */
static struct xnb_queue *xnb_group_pop(struct xnb_group *g, u32 budget,
				       const struct xnb_pass_acct *a,
				       struct list_head *waiting, u32 *share,
				       struct xnb_pass_ways *way, u32 *turn)
	__must_hold(&g->pass_busy)
{
	struct xnb_queue *q;

	lockdep_assert_held(&g->pass_busy);
	spin_lock_irq(&g->lock);
	q = list_first_entry_or_null(&g->active, struct xnb_queue,
				     active_node);
	if (q) {
		*share = xnb_group_share(g, q, budget);
		if (*share) {
			*share = xnb_pass_turn_share(&q->turn_left, *share,
						     way);
			*turn = xnb_pass_turn_slots(a, *share);
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
 * (xnb_pass_turn_left).  True when the queue still has work.
 */
static bool xnb_group_serve(struct xnb_group *g, struct xnb_queue *q,
			    const struct xnb_pass_ways *way, u32 turn,
			    struct xnb_pass_acct *a)
	__must_hold(&g->pass_busy)
{
	u32 rx_turn = min(turn, way->rx), tx_turn = min(turn, way->tx);
	unsigned int rx_used = 0, tx_used = 0;
	u32 rx_limit, tx_limit, tx_waits = 0;
	int rx, tx;

	lockdep_assert_held(&g->pass_busy);
	q->turn_left = (struct xnb_pass_ways){};
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

	if (xnb_tx_pending(q) || xnb_rx_pending(q))
		return true;
	/* Drained: its next turn is a new one. */
	q->turn_left = (struct xnb_pass_ways){};

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
 * lost nor charged twice.  Either way, or when the pass stopped with
 * queues left, the poll keeps the group scheduled (xnb_group_run).
 *
 * tests/unit/test_pass.c's model_pass() mirrors this loop, with
 * xnb_group_pop() and xnb_group_serve(): change them together.
 */
static void xnb_group_pass(struct xnb_group *g, struct xnb_pass_acct *a)
	__must_hold(&g->pass_busy)
{
	bool traced = trace_xnb_group_pass_enabled();
	u32 share, turn, start_slots, vif_budget = READ_ONCE(xnb_budget);
	struct xnb_pass_ways way;
	u64 start = ktime_get_ns(), end, ops = 0, packets = 0;
	unsigned int n, served = 0;
	struct xnb_queue *q;
	LIST_HEAD(waiting);
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
		more = xnb_group_serve(g, q, &way, turn, a);
		/* One slot at least a turn, so the cap bounds the turns too:
		 * a disabled vif, RX waiting for buffers, TX held for credit
		 * or a full response ring use none.
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
	end = ktime_get_ns();
	u64_stats_update_begin(&g->stats.sync);
	u64_stats_inc(&g->stats.passes);
	u64_stats_add(&g->stats.busy_ns, end - start);
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

/* Wait until a poll that may have seen a detached queue is over. */
static void xnb_group_sync(struct xnb_group *g)
{
	xnb_group_pause(g);
	xnb_group_resume(g);
}

/**
 * xnb_groups_set_batch() - Resize every group's batch (copy_batch written).
 * @batch: the new number of copy ops per batch, already range-checked
 *
 * Every group's batch gets the new size between two of its passes.  All
 * the new arrays are allocated first, with no worker held up, so either
 * every group takes the new size or, out of memory, none does.  Under
 * the assign mutex, so groups made or taken down meanwhile use the value
 * in force.
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
	for (i = 0; i < n && !err; i++)
		err = xnb_copy_arrays_alloc(&a[i], batch);
	for (i = 0; i < n && !err; i++) {
		struct xnb_group *g = &xnb_groups[i];

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

/* One of @q's irqs to @cpu, with the affinity hint saying so (shown in
 * /proc/irq/<n>/affinity_hint, for tools that read it).  The irqs are
 * bound with IRQF_NOBALANCING (interface.c), so user space cannot move
 * them and irqbalance cannot undo this.  Best effort: the channel still
 * works, only further away, if Xen refuses; then the irq has no hint
 * rather than one naming a CPU it is not on.  Not
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
	spin_lock_irq(&g->lock);
	list_add_tail(&q->group_node, &g->queues);
	g->nr_queues++;
	q->share_slots = 0;	/* no turn in g's pass yet */
	q->turn_left = (struct xnb_pass_ways){};
	/* Publishes g to xnb_group_kick()'s lockless read. */
	rcu_assign_pointer(q->group, g);
	spin_unlock_irq(&g->lock);
	xnb_queue_irqs_follow(q, g);
}

/**
 * xnb_group_attach() - Give a queue to a group.
 * @q: the queue, in no group and connected
 * @pinned: the group to join, or any value out of range (-1) for the
 *	group the policy picks (the one serving the fewest queues)
 *
 * Points the queue's irqs at the group's CPU, then kicks it: work may
 * have arrived while it had no group.
 *
 * Context: Process context (the xenbus thread, under the backend lock),
 * may sleep.  Takes xnb_assign_mutex, then the group's lock.
 */
void xnb_group_attach(struct xnb_queue *q, int pinned)
{
	mutex_lock(&xnb_assign_mutex);
	xnb_group_attach_locked(q, pinned);
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
 * Nothing happens if @q is in no group, @to is out of range or @q is
 * there already.  The caller holds the assign mutex, so @q is still
 * attached (a queue is released only after its detach) and its old
 * group stays until the move is done.
 *
 * Context: Process context, may sleep (waits for the old group's poll).
 * The caller holds xnb_assign_mutex; takes both groups' locks and the
 * old group's sync_mutex.
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
	xnb_group_detach_locked(q);
	xnb_group_attach_locked(q, to);
	from->moves_out++;
	xnb_groups[to].moves_in++;
	/* An event that found it groupless kicked nothing. */
	xnb_group_kick_task(q);
}

/* Start the group at @index: its batch, its NAPI context on a dummy
 * netdev "xnb-g<index>", threaded (thread "napi/xnb-g<index>-0")
 * unless worker=tasklet, with worker=kthread its light softirq context
 * on a second one ("xnb-l<index>"), all enabled, serving CPU index mod
 * online CPUs: its home, where it runs until that CPU goes offline.
 * The caller holds cpus_read_lock() (which lockdep_assert_cpus_held()
 * would check, were it exported), so the CPUs stay online until the
 * set is published; a later change is the hotplug callbacks' to follow.
 */
static int xnb_group_start(struct xnb_group *g, unsigned int index)
	__must_hold(&xnb_assign_mutex)
{
	int err;

	/* xnb_copy_batch changes under it. */
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
	/* What the flush calls back, by direction (copy.c stays below). */
	g->copy_ops[XNB_DIR_TX] = &xnb_tx_copy_ops;
	g->copy_ops[XNB_DIR_RX] = &xnb_rx_copy_ops;

	err = xnb_copy_alloc(g, xnb_copy_batch);
	if (err)
		return err;

	g->napi_dev = xnb_alloc_netdev_dummy();
	if (!g->napi_dev) {
		err = -ENOMEM;
		goto fail_copy;
	}
	snprintf(g->napi_dev->name, IFNAMSIZ, "xnb-g%u", index);
	/* _tx only for NAPI_STATE_NO_BUSY_POLL: see xnb_group_run. */
	netif_napi_add_tx(g->napi_dev, &g->napi, xnb_group_poll);

	if (!xnb_use_tasklet) {
		err = dev_set_threaded(g->napi_dev, true);
		if (!err && !g->napi.thread)
			err = -ENOMEM;
		if (err)
			goto fail_napi;
		/* Pinned to the group's CPU, where its irqs go too; moved
		 * with them when that CPU goes offline (xnb_group_set_cpu).
		 * A refusal leaves it free to run anywhere: slower, not wrong.
		 */
		err = set_cpus_allowed_ptr(g->napi.thread, cpumask_of(g->cpu));
		if (err)
			pr_warn("group %u: thread not bound to cpu %u (%d)\n",
				index, g->cpu, err);

		g->light_dev = xnb_alloc_netdev_dummy();
		if (!g->light_dev) {
			err = -ENOMEM;
			goto fail_napi;
		}
		snprintf(g->light_dev->name, IFNAMSIZ, "xnb-l%u", index);
		netif_napi_add_tx(g->light_dev, &g->light, xnb_group_poll_light);
	}
	/* Nothing fails from here on. */
	g->run = g->light_dev ? XNB_RUN_LIGHT : XNB_RUN_MAIN;
	if (g->light_dev)
		napi_enable(&g->light);
	napi_enable(&g->napi);
	return 0;

fail_napi:
	netif_napi_del(&g->napi);
	xnb_free_netdev_dummy(g->napi_dev);
	g->napi_dev = NULL;
fail_copy:
	xnb_copy_free(g);
	return err;
}

/* Stop a started group; it serves no queue any more.  Both contexts are
 * disabled before either is deleted (a poll may schedule the other),
 * and netif_napi_del()'s synchronize_net() waits out the tail of a poll
 * that already completed before the netdevs and the group go.
 */
static void xnb_group_stop(struct xnb_group *g)
{
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
	xnb_copy_free(g);
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
 * load), sleeps.  Takes the CPU hotplug lock (read: the new groups'
 * CPUs stay online until the set is published, and no longer unless no
 * hotplug state is registered: then until the queues moved), then
 * xnb_assign_mutex, and each old group's lock and sync_mutex as its
 * queues move.
 * Return: 0; -EBUSY once the module is unloading; -ENOMEM or the error
 * of a group that could not start, with nothing changed.
 */
int xnb_groups_set_count(unsigned int n)
{
	unsigned int i, old_n, want = n ? n : num_online_cpus();
	struct xnb_cpu_slot *slots, *old_slots;
	struct xnb_group *groups, *old;
	u32 *loads, *old_loads;
	bool followed;
	int err = 0;

	groups = kcalloc(want, sizeof(*groups), GFP_KERNEL);
	loads = kcalloc(want, sizeof(*loads), GFP_KERNEL);
	slots = kcalloc(want, sizeof(*slots), GFP_KERNEL);
	if (!groups || !loads || !slots) {
		err = -ENOMEM;
		goto free;
	}

	/* The new groups choose their CPUs from those online now. */
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
free:
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

static struct dentry *xnb_debugfs_dir;

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
		seq_printf(m, "group %u: cpu %d queues %u passes %llu packets %llu batches %llu ops %llu ops/batch %llu full_flushes %llu eagain_retries %llu busy_ms %llu moves_in %lu moves_out %lu handoffs %llu run %s max_pass_ns %lu max_pass_slots %u home_cpu %d\n",
			   i, g->cpu, READ_ONCE(g->nr_queues), c.passes,
			   c.packets, c.batches, c.ops,
			   c.batches ? div64_u64(c.ops, c.batches) : 0,
			   c.full_flushes, c.eagain_retries,
			   div_u64(c.busy_ns, NSEC_PER_MSEC), g->moves_in,
			   g->moves_out, c.handoffs,
			   READ_ONCE(g->run) == XNB_RUN_LIGHT ? "light" : "main",
			   READ_ONCE(g->max_pass_ns),
			   READ_ONCE(g->max_pass_slots), g->home_cpu);
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
 * Description: With the "groups" file and the balancer's "balance".
 * A debugfs failure is not an error.
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
