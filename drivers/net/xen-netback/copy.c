// SPDX-License-Identifier: GPL-2.0
/* The group's batch of grant copies; packets complete in gathered order, as
 * netfront matches RX responses by position.  Not gnttab_batch_copy(): it
 * sleeps on GNTST_eagain with BH off and BUG()s on a failed hypercall.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <xen/grant_table.h>
#include <asm/xen/hypercall.h>

#include "common.h"

/**
 * xnb_copy_arrays_alloc() - Allocate a batch's arrays, in one block.
 * @a: filled with the arrays and their size
 * @n: copy ops (and in-flight packets) the batch holds
 * Return: 0, or -ENOMEM with nothing allocated.
 */
int xnb_copy_arrays_alloc(struct xnb_copy_arrays *a, unsigned int n)
{
	/* A packet's ops always fit an empty batch; op indexes fit u16. */
	BUILD_BUG_ON(XNB_RX_MAX_OPS > XNB_COPY_BATCH_MIN);
	BUILD_BUG_ON(XNB_TX_MAX_OPS > XNB_COPY_BATCH_MIN);
	BUILD_BUG_ON(XNB_COPY_BATCH_MAX > U16_MAX);
	/* The in-flight entries follow the ops, aligned. */
	BUILD_BUG_ON(sizeof(*a->ops) % __alignof__(*a->inflight));

	memset(a, 0, sizeof(*a));
	/* n is at most XNB_COPY_BATCH_MAX: the size cannot overflow. */
	a->ops = vzalloc(n * (sizeof(*a->ops) + sizeof(*a->inflight)));
	if (!a->ops)
		return -ENOMEM;
	a->inflight = (struct xnb_inflight *)(a->ops + n);
	a->batch = n;
	return 0;
}

/* Free a batch's arrays and zero @a; a zeroed @a is fine. */
void xnb_copy_arrays_free(struct xnb_copy_arrays *a)
{
	vfree(a->ops);		/* the block */
	memset(a, 0, sizeof(*a));
}

/**
 * xnb_copy_swap() - Exchange a group's batch arrays.
 * @g: the group
 * @a: the new arrays (or none, zeroed); returns the group's old ones
 * Context: The group's poll paused (sync_mutex) or not running.
 */
void xnb_copy_swap(struct xnb_group *g, struct xnb_copy_arrays *a)
{
	WARN_ON_ONCE(g->nr_ops || g->nr_inflight);
	swap(g->ops, a->ops);
	swap(g->inflight, a->inflight);
	swap(g->batch, a->batch);
}

/**
 * xnb_copy_begin() - Start a packet in the group's batch.
 * @g: the group whose pass runs
 * @q: the packet's queue
 * @dir: XNB_DIR_TX or XNB_DIR_RX
 * @max_ops: the copy ops the packet may need at most
 * Return: the packet's entry; its ops go at g->ops + first_op.
 */
struct xnb_inflight *xnb_copy_begin(struct xnb_group *g, struct xnb_queue *q,
				    u8 dir, unsigned int max_ops)
	__must_hold(&g->pass_busy)
{
	struct xnb_inflight *f;

	lockdep_assert_held(&g->pass_busy);
	if (g->nr_ops + max_ops > g->batch || g->nr_inflight >= g->batch) {
		xnb_gstat_add(g, &g->stats.full_flushes, 1);
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

/* noinline: the bench's kprobe counts hypercalls and @n ops here. */
static noinline void xnb_copy_issue(struct xnb_group *g,
				    struct gnttab_copy *ops, unsigned int n)
{
	unsigned int i;
	int rc;

	rc = HYPERVISOR_grant_table_op(GNTTABOP_copy, ops, n);
	xnb_gstat_add(g, &g->stats.batches, 1);
	xnb_gstat_add(g, &g->stats.ops, n);
	if (likely(!rc))
		return;
	net_err_ratelimited("GNTTABOP_copy of %u ops failed: %d\n",
			    n, rc);
	for (i = 0; i < n; i++)
		ops[i].status = GNTST_general_error;
}

/* Runs of eagain ops retried a flush: a guest whose paged-out pages
 * alternate with others costs its group no more hypercalls; the rest fail.
 */
#define XNB_EAGAIN_RUNS		4

/* Each eagain op once more, in place: one hypercall per run of them. */
static void xnb_copy_retry(struct xnb_group *g)
{
	unsigned int i = 0, j, runs = 0;

	while (i < g->nr_ops && runs < XNB_EAGAIN_RUNS) {
		if (g->ops[i].status != GNTST_eagain) {
			i++;
			continue;
		}
		for (j = i + 1; j < g->nr_ops &&
		     g->ops[j].status == GNTST_eagain; j++)
			;
		xnb_gstat_add(g, &g->stats.eagain_retries, j - i);
		xnb_copy_issue(g, &g->ops[i], j - i);
		runs++;
		i = j;
	}
}

/**
 * xnb_copy_flush() - Issue the batch, complete and push its packets.
 * @g: the group whose pass runs; its batch is empty on return
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

	/* flush_group marks a touched queue; the push loop clears it. */
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

	/* Both rings once per touched queue: an idle ring publishes nothing. */
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
	/* Last: the guest has its responses before the stack runs. */
	xnb_tx_deliver(g);
}
