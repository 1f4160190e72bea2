// SPDX-License-Identifier: GPL-2.0
/* Guest TX: guest -> dom0; proto.c parses, the group's batch copies. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/etherdevice.h>
#include <linux/ktime.h>
#include <linux/tcp.h>
#include <xen/events.h>
#include <xen/page.h>

#include "common.h"

#define XNB_TX_MASK	(XNB_TX_RING_SIZE - 1)
/* No sleep, direct reclaim or __GFP_HIGH reserves on a guest's behalf. */
#define XNB_TX_GFP	(GFP_NOWAIT | __GFP_NOWARN)

/**
 * xnb_tx_pending() - Re-arm a queue's guest TX event; whether requests wait.
 * @q: the queue, served by the caller's pass
 * Return: true when requests wait, none held for credit, the vif enabled.
 */
bool xnb_tx_pending(struct xnb_queue *q)
{
	int more;

	if (q->tx_held || READ_ONCE(q->vif->disabled))
		return false;	/* the credit timer or a reconnect kicks */
	RING_FINAL_CHECK_FOR_REQUESTS(&q->tx, more);
	return more;
}

/* xnb_tx_pending() re-arming nothing; a bad req_prod counts as work. */
bool xnb_tx_waiting(const struct xnb_queue *q)
{
	if (q->tx_held || READ_ONCE(q->vif->disabled))
		return false;
	return xnb_ring_unconsumed(READ_ONCE(q->tx.sring->req_prod),
				   q->tx.req_cons, XNB_TX_RING_SIZE) != 0;
}

void xnb_credit_timer_fn(struct timer_list *t)
{
	struct xnb_queue *q = timer_container_of(q, t, credit_timer);

	xnb_group_kick(q);
}

/* True when the packet may go now; else arms the credit timer. */
static bool xnb_tx_credit(struct xnb_queue *q, u32 len)
{
	struct xnb_vif *vif = q->vif;
	u64 wait = 0;
	bool ok;

	if (!READ_ONCE(vif->credit.bytes))
		return true;

	spin_lock_bh(&vif->credit_lock);
	ok = xnb_credit_take(&vif->credit, len, ktime_to_us(ktime_get()),
			     &wait);
	spin_unlock_bh(&vif->credit_lock);
	/* A long wait is re-checked each second: the limit may change. */
	if (!ok)
		mod_timer(&q->credit_timer, jiffies +
			  max(1UL, usecs_to_jiffies(min_t(u64, wait, USEC_PER_SEC))));
	return ok;
}

/* Destination cursor over the skb's head, then its page frags. */
struct xnb_tx_dst {
	struct sk_buff *skb;
	int frag;		/* -1 while in the linear head */
	unsigned int off;	/* within the current segment */
};

static unsigned int xnb_tx_dst_room(struct xnb_tx_dst *d, unsigned long *gfn,
				    unsigned int *pg_off)
{
	struct sk_buff *skb = d->skb;

	if (d->frag < 0) {
		unsigned char *p = skb->data + d->off;

		if (d->off == skb_headlen(skb)) {
			d->frag = 0;
			d->off = 0;
			return xnb_tx_dst_room(d, gfn, pg_off);
		}
		*gfn = virt_to_gfn(p);
		*pg_off = offset_in_page(p);
		/* The head may straddle a page: never cross it in one op. */
		return min_t(unsigned int, skb_headlen(skb) - d->off,
			     PAGE_SIZE - *pg_off);
	}
	while (d->frag < skb_shinfo(skb)->nr_frags) {
		skb_frag_t *fr = &skb_shinfo(skb)->frags[d->frag];

		if (d->off < skb_frag_size(fr)) {
			*gfn = xen_page_to_gfn(skb_frag_page(fr));
			*pg_off = skb_frag_off(fr) + d->off;
			return skb_frag_size(fr) - d->off;
		}
		d->frag++;
		d->off = 0;
	}
	return 0;
}

static struct sk_buff *xnb_tx_alloc(u32 len)
{
	unsigned int headlen = min(len, XNB_TX_HEADLEN);
	struct sk_buff *skb;
	u32 rest;
	int i = 0;

	skb = alloc_skb(headlen + NET_SKB_PAD + NET_IP_ALIGN, XNB_TX_GFP);
	if (!skb)
		return NULL;
	skb_reserve(skb, NET_SKB_PAD + NET_IP_ALIGN);
	skb_put(skb, headlen);

	for (rest = len - headlen; rest; i++) {
		unsigned int sz = min_t(u32, rest, PAGE_SIZE);
		struct page *page = alloc_page(XNB_TX_GFP);

		if (!page) {
			kfree_skb(skb);
			return NULL;
		}
		skb_add_rx_frag(skb, i, page, 0, sz, PAGE_SIZE);
		rest -= sz;
	}
	return skb;
}

/* Fill the packet's copy ops; returns their number, or 0 on failure. */
static unsigned int xnb_tx_ops(struct xnb_queue *q, struct sk_buff *skb,
			       const struct xnb_tx_pkt *p,
			       struct gnttab_copy *ops)
{
	struct xnb_tx_dst d = { .skb = skb, .frag = -1 };
	unsigned int i, n = 0;

	for (i = 0; i < p->nr_data; i++) {
		const struct xnb_tx_data *s = &p->data[i];
		unsigned int soff = s->offset, srem = s->size;

		while (srem) {
			unsigned long gfn;
			unsigned int pg_off, room, len;
			struct gnttab_copy *op;

			room = xnb_tx_dst_room(&d, &gfn, &pg_off);
			if (!room || n == XNB_TX_MAX_OPS)
				return 0;	/* cannot happen: sizes match */
			len = min(room, srem);
			op = &ops[n++];
			op->source.u.ref = s->gref;
			op->source.domid = q->vif->domid;
			op->source.offset = soff;
			op->dest.u.gmfn = gfn;
			op->dest.domid = DOMID_SELF;
			op->dest.offset = pg_off;
			op->len = len;
			op->flags = GNTCOPY_source_gref;
			soff += len;
			srem -= len;
			d.off += len;
		}
	}
	return n;
}

static void xnb_tx_consume(struct xnb_queue *q, struct xnb_inflight *f)
{
	const struct xnb_tx_pkt *p = &q->tx_pkt;
	RING_IDX cons = q->tx.req_cons;
	unsigned int i;

	for (i = 0; i < p->nr_slots; i++) {
		q->tx_id[(cons + i) & XNB_TX_MASK] = p->id[i];
		q->tx_extra[(cons + i) & XNB_TX_MASK] = p->is_extra[i];
	}
	f->ring_start = cons;
	f->nr_slots = p->nr_slots;
	/* The event handler judges by it lockless (xnb_tx_event). */
	WRITE_ONCE(q->tx.req_cons, cons + p->nr_slots);
}

static void xnb_tx_setup_skb(struct xnb_queue *q, struct sk_buff *skb,
			     const struct xnb_tx_pkt *p)
{
	if (p->flags & XEN_NETTXF_csum_blank)
		skb->ip_summed = CHECKSUM_PARTIAL;
	else if (p->flags & XEN_NETTXF_data_validated)
		skb->ip_summed = CHECKSUM_UNNECESSARY;

	if (p->gso_type != XNB_GSO_NONE) {
		skb_shinfo(skb)->gso_size = p->gso_size;
		skb_shinfo(skb)->gso_type = SKB_GSO_DODGY |
			(p->gso_type == XNB_GSO_TCPV4 ? SKB_GSO_TCPV4 :
							SKB_GSO_TCPV6);
	}
}

/* Start one parsed, credited packet; false when out of memory. */
static bool xnb_tx_start(struct xnb_group *g, struct xnb_queue *q)
	__must_hold(&g->pass_busy)
{
	const struct xnb_tx_pkt *p = &q->tx_pkt;
	struct xnb_inflight *f;
	struct sk_buff *skb;
	unsigned int n;

	lockdep_assert_held(&g->pass_busy);
	skb = xnb_tx_alloc(p->len);
	if (!skb)
		return false;

	f = xnb_copy_begin(g, q, XNB_DIR_TX, XNB_TX_MAX_OPS);
	n = xnb_tx_ops(q, skb, p, g->ops + f->first_op);
	if (!n)
		f->drop = true;
	xnb_tx_setup_skb(q, skb, p);
	f->skb = skb;
	xnb_tx_consume(q, f);
	xnb_copy_commit(g, f, n);
	return true;
}

/* Answered in order, no copy: with errors, or a mcast request (its reason). */
static void xnb_tx_drop(struct xnb_group *g, struct xnb_queue *q,
			const char *why)
{
	const struct xnb_tx_pkt *p = &q->tx_pkt;
	struct xnb_inflight *f;
	int err = 0;

	if (p->reason != XNB_R_MCAST_CTRL)
		net_dbg_ratelimited("%s: dropped guest packet: %s\n",
				    q->vif->dev->name, why);
	else if (p->mcast_op == XEN_NETIF_EXTRA_TYPE_MCAST_ADD)
		err = xnb_mcast_add(q->vif, p->mcast_addr);
	else
		xnb_mcast_del(q->vif, p->mcast_addr);
	f = xnb_copy_begin(g, q, XNB_DIR_TX, 0);
	f->drop = true;
	f->mcast_ok = p->reason == XNB_R_MCAST_CTRL && !err;
	xnb_tx_consume(q, f);
	xnb_copy_commit(g, f, 0);
}

/**
 * xnb_tx_gather() - Take guest TX packets off a queue's ring.
 * @g: the group whose pass runs
 * @q: the queue it serves
 * @budget: ring slots the queue may use this turn
 * @slots: the slots charged (xnb_tx_charge()) are added to it
 * Context: May take the vif's credit_lock and mcast lock.
 * Return: the packets taken off the ring, drops included.
 */
int xnb_tx_gather(struct xnb_group *g, struct xnb_queue *q, int budget,
		  unsigned int *slots)
	__must_hold(&g->pass_busy)
{
	struct xnb_vif *vif = q->vif;
	struct xnb_tx_limits lim = {
		.fatal_slots = xnb_fatal_skb_slots,
		.gso_tcpv4 = true,
		.gso_tcpv6 = true,
		/* The admin may change it; xnb_tx_gso_setup() rereads it. */
		.gso_max_segs = READ_ONCE(vif->dev->gso_max_segs),
	};
	int done = 0, used = 0;

	lockdep_assert_held(&g->pass_busy);
	/* Slots, not packets: a turn is bounded in bytes. */
	while (used < budget && !READ_ONCE(vif->disabled)) {
		if (!q->tx_held) {
			enum xnb_tx_verdict v;
			int avail;

			avail = xnb_ring_unconsumed(READ_ONCE(q->tx.sring->req_prod),
						    q->tx.req_cons,
						    XNB_TX_RING_SIZE);
			if (avail < 0) {
				xnb_vif_fatal(vif, xnb_tx_reason_str(XNB_R_RING_OVERFLOW));
				break;
			}
			if (!avail)
				break;
			virt_rmb();	/* read slots after req_prod */
			v = xnb_tx_parse(q->tx.sring->ring, XNB_TX_RING_SIZE,
					 q->tx.req_cons, avail, &lim,
					 &q->tx_pkt);
			if (v == XNB_TX_FATAL) {
				xnb_vif_fatal(vif,
					      xnb_tx_reason_str(q->tx_pkt.reason));
				break;
			}
			/* The responses owed must fit: wait for the flush. */
			if (!xnb_ring_room(q->tx.req_cons, q->tx.rsp_prod_pvt,
					   q->tx_pkt.nr_slots,
					   XNB_TX_RING_SIZE))
				break;
			if (v == XNB_TX_DROP) {
				/* A NAPI packet too: the least charge. */
				used += max_t(u32, q->tx_pkt.nr_slots,
					      XNB_TX_PKT_SLOTS);
				xnb_tx_drop(g, q,
					    xnb_tx_reason_str(q->tx_pkt.reason));
				done++;
				continue;
			}
		}
		if (!xnb_tx_credit(q, q->tx_pkt.len)) {
			WRITE_ONCE(q->tx_held, true);
			break;
		}
		WRITE_ONCE(q->tx_held, false);
		/* Charged for the skbs it becomes up the stack (proto.c). */
		used += xnb_tx_charge(&q->tx_pkt, &lim);
		if (!xnb_tx_start(g, q)) {
			/* Fail this one and leave the rest to a later pass. */
			xnb_stat_add(q, &q->stats.tx_alloc_failed, 1);
			xnb_tx_drop(g, q, "out of memory");
			done++;
			break;
		}
		done++;
	}
	*slots += used;
	return done;
}

/* csum_offset must be TCP's: at UDP's, doff would come from payload.  Past
 * gso_max_segs is a drop, not fatal: an honest guest cannot know the limit.
 * A pull may move the head, so skb_shinfo() is not kept across one.
 */
static bool xnb_tx_gso_setup(struct sk_buff *skb)
{
	bool v4 = skb_shinfo(skb)->gso_type & SKB_GSO_TCPV4;
	unsigned int thoff, thlen, segs;

	if (skb->protocol != htons(v4 ? ETH_P_IP : ETH_P_IPV6) ||
	    skb_checksum_start(skb) != skb_transport_header(skb) ||
	    skb->csum_offset != offsetof(struct tcphdr, check))
		return false;
	thoff = skb_transport_offset(skb);
	if (!pskb_may_pull(skb, thoff + sizeof(struct tcphdr)))
		return false;
	thlen = tcp_hdrlen(skb);
	if (thlen < sizeof(struct tcphdr) ||
	    !pskb_may_pull(skb, thoff + thlen) || skb->len <= thoff + thlen)
		return false;
	segs = DIV_ROUND_UP(skb->len - thoff - thlen,
			    skb_shinfo(skb)->gso_size);
	if (segs > READ_ONCE(skb->dev->gso_max_segs))
		return false;
	skb_shinfo(skb)->gso_segs = segs;
	return true;
}

/* Checksum and GSO checks need the headers, so they run after the copy. */
static bool xnb_tx_finish(struct xnb_queue *q, struct sk_buff *skb)
{
	bool recalc = false;

	skb->dev = q->vif->dev;
	skb->protocol = eth_type_trans(skb, skb->dev);
	skb_reset_network_header(skb);
	skb_record_rx_queue(skb, q->id);

	if (skb_is_gso(skb) && skb->ip_summed != CHECKSUM_PARTIAL) {
		/* GSO needs a partial checksum; rebuild the pseudo header. */
		skb->ip_summed = CHECKSUM_PARTIAL;
		recalc = true;
		xnb_stat_add(q, &q->stats.rx_gso_checksum_fixup, 1);
	}
	if (skb->ip_summed == CHECKSUM_PARTIAL &&
	    skb_checksum_setup(skb, recalc))
		return false;

	if (skb_is_gso(skb) && !xnb_tx_gso_setup(skb))
		return false;
	skb_probe_transport_header(skb);
	return true;
}

/**
 * xnb_tx_complete() - Answer a guest TX packet once its copy is done.
 * @g: the group whose pass runs
 * @f: the packet
 * @ok: whether all of its copy ops succeeded
 */
void xnb_tx_complete(struct xnb_group *g, struct xnb_inflight *f, bool ok)
	__must_hold(&g->pass_busy)
{
	struct xnb_queue *q = f->queue;
	struct sk_buff *skb = f->skb;
	bool copied = ok;
	unsigned int i;
	s16 status;

	lockdep_assert_held(&g->pass_busy);
	/* A malformed packet gets an error, not a silent OKAY. */
	if (ok && !xnb_tx_finish(q, skb))
		ok = false;
	status = ok || f->mcast_ok ? XEN_NETIF_RSP_OKAY : XEN_NETIF_RSP_ERROR;

	for (i = 0; i < f->nr_slots; i++) {
		unsigned int idx = (f->ring_start + i) & XNB_TX_MASK;
		struct xen_netif_tx_response *rsp;

		rsp = RING_GET_RESPONSE(&q->tx, q->tx.rsp_prod_pvt);
		rsp->id = q->tx_id[idx];
		rsp->status = q->tx_extra[idx] ? XEN_NETIF_RSP_NULL : status;
		q->tx.rsp_prod_pvt++;
	}

	u64_stats_update_begin(&q->stats.sync);
	if (ok) {
		u64_stats_inc(&q->stats.tx_packets);
		u64_stats_add(&q->stats.tx_bytes, skb->len + ETH_HLEN);
	} else if (f->mcast_ok) {
		/* a filter request, not a packet: nothing to count */
	} else if (copied || f->drop) {
		u64_stats_inc(&q->stats.tx_dropped);
	} else {
		u64_stats_inc(&q->stats.tx_errors);
	}
	u64_stats_update_end(&q->stats.sync);

	if (ok)
		__skb_queue_tail(&g->deliver, skb);
	else
		kfree_skb(skb);
}

/**
 * xnb_tx_push() - Publish a queue's guest TX responses, notify if asked.
 * @q: the queue, touched by the flush
 */
void xnb_tx_push(struct xnb_queue *q)
{
	if (xnb_ring_push(&q->tx.sring->rsp_prod, &q->tx.sring->rsp_event,
			  q->tx.rsp_prod_pvt, &q->tx_pushed))
		notify_remote_via_irq(q->tx_irq);
}

/**
 * xnb_tx_deliver() - Hand the completed guest TX packets to GRO.
 * @g: the group whose pass runs; its NAPI context flushes GRO before a handoff
 */
void xnb_tx_deliver(struct xnb_group *g)
	__must_hold(&g->pass_busy)
{
	struct sk_buff *skb;

	lockdep_assert_held(&g->pass_busy);
	while ((skb = __skb_dequeue(&g->deliver)))
		napi_gro_receive(g->polling, skb);
}
