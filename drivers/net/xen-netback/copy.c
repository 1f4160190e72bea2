// SPDX-License-Identifier: GPL-2.0
/*
 * The group's batch of grant copies.
 *
 * tx.c and rx.c append the ops of one packet at a time between
 * xnb_copy_begin() and xnb_copy_commit(); the packet is then "in flight".
 * A flush issues every op of the batch in one GNTTABOP_copy hypercall,
 * checks each op's status, and completes the in-flight packets in the
 * order they were gathered (guest RX responses must stay in ring order:
 * netfront matches them by ring position): only a packet whose own ops
 * failed gets an error.  Then each touched ring pushes its responses
 * once and guest-TX skbs go up the stack.
 *
 * The hypercall is ours, not gnttab_batch_copy(): that one sleeps in
 * msleep() while Xen answers GNTST_eagain (scheduling while atomic: the
 * NAPI poll runs with BH off, threaded or not) and BUG()s when
 * the hypercall itself fails.  Here a failed hypercall fails the
 * batch's packets instead.
 *
 * GNTST_eagain (a frame paged out or being unshared by Xen): the worker
 * never sleeps, so the ops that come back eagain are issued once more,
 * alone, in one extra hypercall straight after the first.  What is still
 * eagain then fails its packet (guest TX: error responses, guest RX:
 * error status), counted per queue in copy_eagain_failed.  One retry
 * covers a page that Xen brings back quickly; waiting longer would
 * stall every other queue of the group for one guest's paged-out page,
 * and that guest's TX can resend.  A flush costs two hypercalls at most
 * whatever the guest does.
 *
 * The batch belongs to the group's worker alone; no locking.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <xen/grant_table.h>
#include <asm/xen/hypercall.h>

#include "common.h"

/**
 * xnb_copy_arrays_alloc() - Allocate the arrays of a batch.
 * @a: filled with the arrays and their size
 * @n: copy ops (and in-flight packets) the batch holds
 *
 * All three in one vmalloc'd block (xnb_batch_layout()), whole pages and
 * no more: 20 KiB for the default 256, where a kmalloc of each array
 * took a power of two of pages (48 KiB with the old retry array).  The
 * ops go to the hypercall from vmalloc space, as stock's do.
 *
 * Context: Process context, may sleep (GFP_KERNEL).
 * Return: 0, or -ENOMEM with nothing allocated.
 */
int xnb_copy_arrays_alloc(struct xnb_copy_arrays *a, unsigned int n)
{
	struct xnb_batch_layout l;
	void *block;

	/* A packet's ops always fit an empty batch (xnb_copy_begin), with
	 * MAX_SKB_FRAGS up to 45 (CONFIG_MAX_SKB_FRAGS, 6.3 on), and every
	 * op index fits the u16 fields.
	 */
	BUILD_BUG_ON(XNB_RX_MAX_OPS > XNB_COPY_BATCH_MIN);
	BUILD_BUG_ON(XNB_TX_MAX_OPS > XNB_COPY_BATCH_MIN);
	BUILD_BUG_ON(XNB_COPY_BATCH_MAX > U16_MAX);

	memset(a, 0, sizeof(*a));
	if (!xnb_batch_layout(n, sizeof(*a->ops), sizeof(*a->inflight), &l))
		return -ENOMEM;
	block = vzalloc(l.bytes);
	if (!block)
		return -ENOMEM;
	a->ops = block;
	a->inflight = block + l.inflight;
	a->retry_idx = block + l.retry_idx;
	a->batch = n;
	return 0;
}

/**
 * xnb_copy_arrays_free() - Free a batch's arrays.
 * @a: the arrays, zeroed on return; none at all is fine
 *
 * Context: Process context.
 */
void xnb_copy_arrays_free(struct xnb_copy_arrays *a)
{
	vfree(a->ops);		/* the block */
	memset(a, 0, sizeof(*a));
}

/**
 * xnb_copy_swap() - Exchange a group's batch arrays.
 * @g: the group
 * @a: the new arrays (or none, zeroed); the group's old ones come back
 *	in it, for the caller to free
 *
 * The caller keeps the worker out: between passes the batch is empty
 * (each pass ends with a flush), so nothing in the arrays needs to move.
 *
 * Context: Process context, with the group's poll paused (under its
 * sync_mutex), not started yet or stopped.
 */
void xnb_copy_swap(struct xnb_group *g, struct xnb_copy_arrays *a)
{
	WARN_ON_ONCE(g->nr_ops || g->nr_inflight);
	swap(g->ops, a->ops);
	swap(g->inflight, a->inflight);
	swap(g->retry_idx, a->retry_idx);
	swap(g->batch, a->batch);
}

/**
 * xnb_copy_free() - Take a stopped group's batch back and free it.
 * @g: the group; its worker is stopped, its last pass flushed
 *
 * Context: Process context.
 */
void xnb_copy_free(struct xnb_group *g)
{
	struct xnb_copy_arrays a = {};

	xnb_copy_swap(g, &a);
	xnb_copy_arrays_free(&a);
}

/**
 * xnb_copy_begin() - Start a packet in the group's batch.
 * @g: the group whose pass runs
 * @q: the packet's queue
 * @dir: XNB_DIR_TX or XNB_DIR_RX
 * @max_ops: the copy ops the packet may need at most
 *
 * Flushes first when the batch cannot take the packet.  The packet's
 * ops go at g->ops + first_op of the entry returned, and
 * xnb_copy_commit() puts it in flight.
 *
 * Context: The group's poll (BH off), under its pass lock.
 * Return: the packet's in-flight entry, zeroed but for queue, dir and
 * first_op.
 */
struct xnb_inflight *xnb_copy_begin(struct xnb_group *g, struct xnb_queue *q,
				    u8 dir, unsigned int max_ops)
	__must_hold(&g->pass_busy)
{
	struct xnb_inflight *f;

	lockdep_assert_held(&g->pass_busy);
	if (g->nr_ops + max_ops > g->batch || g->nr_inflight >= g->batch) {
		u64_stats_update_begin(&g->stats.sync);
		u64_stats_inc(&g->stats.full_flushes);
		u64_stats_update_end(&g->stats.sync);
		xnb_copy_flush(g);
	}
	f = &g->inflight[g->nr_inflight];
	memset(f, 0, sizeof(*f));
	f->queue = q;
	f->dir = dir;
	f->first_op = g->nr_ops;
	return f;
}

/**
 * xnb_copy_commit() - Put a packet started by xnb_copy_begin() in flight.
 * @g: the group whose pass runs
 * @f: the packet's entry
 * @nr_ops: the copy ops the packet filled in (0 for none)
 *
 * Context: The group's poll (BH off), under its pass lock.
 */
void xnb_copy_commit(struct xnb_group *g, struct xnb_inflight *f,
		     unsigned int nr_ops)
	__must_hold(&g->pass_busy)
{
	lockdep_assert_held(&g->pass_busy);
	f->nr_ops = nr_ops;
	g->nr_ops += nr_ops;
	g->nr_inflight++;
}

enum xnb_copy_result {
	XNB_COPY_OK,
	XNB_COPY_FAILED,
	XNB_COPY_EAGAIN,	/* still GNTST_eagain after the retry */
};

static enum xnb_copy_result xnb_copy_result(const struct xnb_group *g,
					    const struct xnb_inflight *f)
{
	enum xnb_copy_result r = XNB_COPY_OK;
	unsigned int i;

	if (f->drop)
		return XNB_COPY_FAILED;
	for (i = f->first_op; i < f->first_op + f->nr_ops; i++) {
		if (g->ops[i].status == GNTST_okay)
			continue;
		if (g->ops[i].status != GNTST_eagain)
			return XNB_COPY_FAILED;
		r = XNB_COPY_EAGAIN;
	}
	return r;
}

/* One hypercall; if it fails as a whole, so does every op it carried.
 * Never inlined: its entry, with @n, is where a kprobe counts this
 * driver's copy hypercalls and ops as gnttab_batch_copy()'s counts
 * stock's (the bench's kprobe rows, tests/lab/bench-lib.sh).
 */
static noinline void xnb_copy_issue(struct xnb_group *g,
				    struct gnttab_copy *ops, unsigned int n)
{
	unsigned int i;
	int rc;

	rc = HYPERVISOR_grant_table_op(GNTTABOP_copy, ops, n);
	u64_stats_update_begin(&g->stats.sync);
	u64_stats_inc(&g->stats.batches);
	u64_stats_add(&g->stats.ops, n);
	u64_stats_update_end(&g->stats.sync);
	if (likely(!rc))
		return;
	net_err_ratelimited("GNTTABOP_copy of %u ops failed: %d\n",
			    n, rc);
	for (i = 0; i < n; i++)
		ops[i].status = GNTST_general_error;
}

/* The eagain ops once more, alone, without waiting: see the top.  They
 * are swapped to the front of the batch for the hypercall and back
 * after it (proto.c), each with its new status.
 */
static void xnb_copy_retry(struct xnb_group *g)
{
	unsigned int n;

	n = xnb_retry_gather(g->ops, sizeof(*g->ops),
			     offsetof(struct gnttab_copy, status), g->nr_ops,
			     GNTST_eagain, g->retry_idx);
	if (!n)
		return;		/* none, the usual case: nothing moved */
	u64_stats_update_begin(&g->stats.sync);
	u64_stats_add(&g->stats.eagain_retries, n);
	u64_stats_update_end(&g->stats.sync);
	xnb_copy_issue(g, g->ops, n);
	xnb_retry_scatter(g->ops, sizeof(*g->ops), n, g->retry_idx);
}

/**
 * xnb_copy_flush() - Issue the batch and complete its packets.
 * @g: the group whose pass runs
 *
 * One GNTTABOP_copy hypercall for every op of the batch, one more for
 * the ops that came back GNTST_eagain, then each packet completes in the
 * order it was gathered, each touched ring pushes its responses once,
 * and guest TX packets go up the stack.  The batch is empty on return.
 *
 * Context: The group's poll (BH off), under its pass lock.
 */
void xnb_copy_flush(struct xnb_group *g)
	__must_hold(&g->pass_busy)
{
	unsigned int i;

	lockdep_assert_held(&g->pass_busy);
	if (!g->nr_inflight)
		return;

	if (g->nr_ops) {
		xnb_copy_issue(g, g->ops, g->nr_ops);
		xnb_copy_retry(g);
	}

	/* Mark each queue with this group while its packets complete; the
	 * push below clears the mark, so it never survives a flush (a queue
	 * that moves to another group starts unmarked there).
	 */
	for (i = 0; i < g->nr_inflight; i++) {
		struct xnb_inflight *f = &g->inflight[i];
		struct xnb_queue *q = f->queue;
		enum xnb_copy_result r = xnb_copy_result(g, f);
		bool ok = r == XNB_COPY_OK;

		u64_stats_update_begin(&q->stats.sync);
		u64_stats_add(&q->stats.copy_ops, f->nr_ops);
		if (r == XNB_COPY_EAGAIN)
			u64_stats_inc(&q->stats.copy_eagain_failed);
		if (q->flush_group != g && g->nr_ops)
			u64_stats_inc(&q->stats.copy_batches);
		u64_stats_update_end(&q->stats.sync);
		q->flush_group = g;

		if (f->dir == XNB_DIR_TX)
			xnb_tx_complete(g, f, ok);
		else
			xnb_rx_complete(g, f, ok);
	}

	/* Push each touched queue's rings once, TX then RX, whichever way
	 * its packets went: a ring with no new responses publishes and
	 * notifies nothing (xnb_ring_push).  Clearing the mark dedups.
	 */
	for (i = 0; i < g->nr_inflight; i++) {
		struct xnb_queue *q = g->inflight[i].queue;

		if (q->flush_group != g)
			continue;
		q->flush_group = NULL;
		xnb_tx_push(q);
		xnb_rx_push(q);
	}

	g->nr_ops = 0;
	g->nr_inflight = 0;
	/* Only guest TX delivers: guest RX consumed its skbs at complete. */
	xnb_tx_deliver(g);
}
