// SPDX-License-Identifier: GPL-2.0
/*
 * Holding a queue's events after its turn, so that the packets of
 * several guests meet in one pass and one copy hypercall.
 *
 * Served at once and alone, each event of a small-packet sender costs
 * dom0 an upcall, a pass, a copy hypercall and an EOI, and its guest a
 * notification hypercall, for one packet.  Once a queue's packets come
 * faster than a hold (its last turn that moved packets drained it less
 * than a hold ago), its turn that moves packets holds it instead of
 * letting it go: it keeps its owed EOIs (its channels stay masked), its
 * guest TX ring is not re-armed (the guest raises no event for what it
 * posts next), and the kicks of the ways it moved packets in are
 * absorbed.  The group's hold timer brings every queue held meanwhile
 * back for one pass together.  A turn of a held queue that moves packets
 * holds it again; one that finds none re-arms its ring and sends its
 * EOIs, as a turn does without holding.  A kick of another way (a dom0
 * reply to a guest that only sent), or of a timer (a notification due, a
 * stall), brings it back at once; which ways a turn may hold is
 * xnb_defer_keep()'s (proto.c).  So a lone packet, a ping or a trickle
 * slower than the hold is never held (the timer's turn would find
 * nothing), and a streaming queue's packets wait at most one hold.  The
 * idea is NAPI's (napi_defer_hard_irqs with gro_flush_timeout: a timer,
 * interrupts kept off meanwhile, no spin); NAPI's own cannot serve here,
 * since the events to hold are per queue and the poll is per group.
 *
 * The hold lasts XNB_DEFER_PASSES of the group's mean pass, at most
 * defer_max_usecs (xnb_defer_hold_ns(), proto.c): the timer's passes
 * then cost the group no more than about 1/XNB_DEFER_PASSES of its CPU,
 * on a fast host or a slow one, and the parameter bounds the wait.  A
 * pass away from the group's CPU holds nothing: the timer is pinned to
 * the CPU that armed it.
 */
#include <linux/hrtimer.h>

#include "common.h"

/* Back to the active list, with its next turn in defer mode. */
static void xnb_defer_unhold(struct xnb_group *g, struct xnb_queue *q)
	__must_hold(&g->lock)
{
	lockdep_assert_held(&g->lock);
	list_del_init(&q->active_node);
	q->deferred = false;
	q->defer_turn = true;
}

/* The hold is over: every queue held meanwhile gets a turn, together. */
static enum hrtimer_restart xnb_defer_timer_fn(struct hrtimer *t)
{
	struct xnb_group *g = container_of(t, struct xnb_group, defer_timer);
	struct xnb_queue *q, *n;
	unsigned long flags;
	unsigned int moved = 0;

	spin_lock_irqsave(&g->lock, flags);
	g->defer_armed = false;
	list_for_each_entry_safe(q, n, &g->deferred, active_node) {
		xnb_defer_unhold(g, q);
		list_add_tail(&q->active_node, &g->active);
		q->queued = true;
		moved++;
	}
	WRITE_ONCE(g->nr_active, g->nr_active + moved);
	spin_unlock_irqrestore(&g->lock, flags);
	if (moved)
		xnb_group_wake(g);
	return HRTIMER_NORESTART;
}

/**
 * xnb_defer_init() - Set up a group's hold: no queue held.
 * @g: the group, being started
 *
 * Context: Process context, before the group is published.
 */
void xnb_defer_init(struct xnb_group *g)
{
	INIT_LIST_HEAD(&g->deferred);
	xnb_hrtimer_setup(&g->defer_timer, xnb_defer_timer_fn,
			  CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED);
}

/**
 * xnb_defer_stop() - Cancel a stopping group's hold timer.
 * @g: the group, serving no queue (so holding none), its contexts
 *	disabled (no pass arms the timer again)
 *
 * Context: Process context; waits for the timer's function to end.
 */
void xnb_defer_stop(struct xnb_group *g)
{
	hrtimer_cancel(&g->defer_timer);
}

/**
 * xnb_defer_hold() - Hold a queue whose turn ended in defer mode.
 * @g: the group whose pass served @q
 * @q: the queue, drained, in @g, not on the active list
 * @ways: the ways its turn moved packets in (xnb_defer_keep())
 *
 * Arms the group's timer for g->hold_ns unless it is armed already and
 * its function has not run yet (the queues held since then go back with
 * the first).
 *
 * Context: The group's pass, under the group's lock.
 */
void xnb_defer_hold(struct xnb_group *g, struct xnb_queue *q,
		    unsigned int ways)
	__must_hold(&g->lock)
{
	lockdep_assert_held(&g->lock);
	list_add_tail(&q->active_node, &g->deferred);
	q->deferred = true;
	q->defer_ways = ways;
	/* Armed: its function has not taken the lock yet, so it finds @q
	 * (and clears the mark under the lock before it looks).
	 */
	if (!g->defer_armed) {
		g->defer_armed = true;
		hrtimer_start(&g->defer_timer, ns_to_ktime(g->hold_ns),
			      HRTIMER_MODE_REL_PINNED);
	}
}

/**
 * xnb_defer_absorb() - Whether a held queue's kick waits for the timer.
 * @g: the queue's group
 * @q: the queue kicked, not on the active list
 * @way: the ways the kick brings work for (XNB_WAY_*)
 *
 * Context: The kick, under the group's lock.
 * Return: true when @q is held for every way of @way: the timer serves
 * it.  Otherwise false, and a held @q is no longer held: the caller
 * queues it, its turn in defer mode.
 */
bool xnb_defer_absorb(struct xnb_group *g, struct xnb_queue *q,
		      unsigned int way)
	__must_hold(&g->lock)
{
	lockdep_assert_held(&g->lock);
	if (!q->deferred)
		return false;
	if (!(way & ~q->defer_ways))
		return true;
	xnb_defer_unhold(g, q);
	return false;
}

/**
 * xnb_defer_forget() - Take a leaving queue off its group's hold.
 * @g: the group @q leaves
 * @q: the queue
 *
 * Its owed EOIs and unarmed ring stay: the next group's kick serves it
 * (a turn that finds nothing re-arms and sends them), and a queue
 * leaving for good has its channels closed.
 *
 * Context: A detach, under the group's lock.
 */
void xnb_defer_forget(struct xnb_group *g, struct xnb_queue *q)
	__must_hold(&g->lock)
{
	lockdep_assert_held(&g->lock);
	if (q->deferred)
		list_del_init(&q->active_node);
	q->deferred = false;
	q->defer_turn = false;
}
