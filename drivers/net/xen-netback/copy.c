// SPDX-License-Identifier: GPL-2.0
/*
 * The group's batch of grant copies.
 *
 * tx.c and rx.c append the ops of one packet at a time between
 * xnb_copy_begin() and xnb_copy_commit(); the packet is then "in flight".
 * A flush issues every op of the batch in one gnttab_batch_copy (one
 * hypercall unless Xen asks for a retry), checks each op's status, and
 * completes the in-flight packets in the order they were gathered: only
 * a packet whose own ops failed gets an error.  Then each touched ring
 * pushes its responses once and guest-TX skbs go up the stack.
 *
 * The batch belongs to the group's worker alone; no locking.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <xen/grant_table.h>

#include "common.h"

int xnb_copy_alloc(struct xnb_group *g)
{
	g->ops = kvcalloc(xnb_copy_batch, sizeof(*g->ops), GFP_KERNEL);
	g->inflight = kvcalloc(xnb_copy_batch, sizeof(*g->inflight),
			       GFP_KERNEL);
	if (!g->ops || !g->inflight) {
		xnb_copy_free(g);
		return -ENOMEM;
	}
	return 0;
}

void xnb_copy_free(struct xnb_group *g)
{
	kvfree(g->ops);
	kvfree(g->inflight);
	g->ops = NULL;
	g->inflight = NULL;
}

/* Start a packet that needs at most @max_ops ops, flushing first when the
 * batch cannot take it.  Its ops go at g->ops + return->first_op.
 */
struct xnb_inflight *xnb_copy_begin(struct xnb_group *g, struct xnb_queue *q,
				    u8 dir, unsigned int max_ops)
{
	struct xnb_inflight *f;

	if (g->nr_ops + max_ops > xnb_copy_batch ||
	    g->nr_inflight >= xnb_copy_batch) {
		g->stats.full_flushes++;
		xnb_copy_flush(g);
	}
	f = &g->inflight[g->nr_inflight];
	memset(f, 0, sizeof(*f));
	f->queue = q;
	f->dir = dir;
	f->first_op = g->nr_ops;
	return f;
}

void xnb_copy_commit(struct xnb_group *g, struct xnb_inflight *f,
		     unsigned int nr_ops)
{
	f->nr_ops = nr_ops;
	g->nr_ops += nr_ops;
	g->nr_inflight++;
}

static bool xnb_copy_ok(const struct xnb_group *g,
			const struct xnb_inflight *f)
{
	unsigned int i;

	if (f->drop)
		return false;
	for (i = f->first_op; i < f->first_op + f->nr_ops; i++)
		if (g->ops[i].status != GNTST_okay)
			return false;
	return true;
}

void xnb_copy_flush(struct xnb_group *g)
{
	unsigned int i, gen;

	if (!g->nr_inflight)
		return;

	if (g->nr_ops) {
		gnttab_batch_copy(g->ops, g->nr_ops);
		g->stats.batches++;
		g->stats.ops += g->nr_ops;
	}

	/* A fresh generation marks each queue once per flush. */
	gen = ++g->flush_gen;
	for (i = 0; i < g->nr_inflight; i++) {
		struct xnb_inflight *f = &g->inflight[i];
		struct xnb_queue *q = f->queue;
		bool ok = xnb_copy_ok(g, f);

		u64_stats_update_begin(&q->stats.sync);
		q->stats.copy_ops += f->nr_ops;
		if (q->flush_gen != gen && g->nr_ops)
			q->stats.copy_batches++;
		u64_stats_update_end(&q->stats.sync);
		q->flush_gen = gen;

		if (f->dir == XNB_DIR_TX)
			xnb_tx_complete(g, f, ok);
		else
			xnb_rx_complete(g, f, ok);
	}

	/* Push each touched ring once; clearing the mark dedups. */
	for (i = 0; i < g->nr_inflight; i++) {
		struct xnb_queue *q = g->inflight[i].queue;

		if (q->flush_gen != gen)
			continue;
		q->flush_gen = gen - 1;
		xnb_tx_push(q);
		xnb_rx_push(q);
	}

	g->nr_ops = 0;
	g->nr_inflight = 0;
	xnb_tx_deliver(g);
}
