// SPDX-License-Identifier: GPL-2.0
/* Guest RX: dom0 -> guest, steered by the frontend's hash (ctrlring.c). */
#include <linux/etherdevice.h>
#include <net/flow_dissector.h>
#include <xen/events.h>
#include <xen/page.h>

#include "common.h"
#include "trace.h"

#define XNB_RX_MASK		(XNB_RX_RING_SIZE - 1)

/* The TCP types need the ports: not for a fragment. */
static u32 xnb_hash_type(u32 flags, const struct flow_keys *keys)
{
	bool tcp = keys->basic.ip_proto == IPPROTO_TCP &&
		   !(keys->control.flags & FLOW_DIS_IS_FRAGMENT);

	switch (keys->control.addr_type) {
	case FLOW_DISSECTOR_KEY_IPV4_ADDRS:
		if (tcp && (flags & XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP))
			return XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP;
		if (flags & XEN_NETIF_CTRL_HASH_TYPE_IPV4)
			return XEN_NETIF_CTRL_HASH_TYPE_IPV4;
		return 0;
	case FLOW_DISSECTOR_KEY_IPV6_ADDRS:
		if (tcp && (flags & XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP))
			return XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP;
		if (flags & XEN_NETIF_CTRL_HASH_TYPE_IPV6)
			return XEN_NETIF_CTRL_HASH_TYPE_IPV6;
		return 0;
	default:
		return 0;
	}
}

static u32 xnb_hash_keys(const struct xnb_hash *h, u32 type,
			 const struct flow_keys *keys)
{
	const u8 *src, *dst;

	if (type & (XEN_NETIF_CTRL_HASH_TYPE_IPV4 |
		    XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP)) {
		src = (const u8 *)&keys->addrs.v4addrs.src;
		dst = (const u8 *)&keys->addrs.v4addrs.dst;
	} else {
		src = keys->addrs.v6addrs.src.s6_addr;
		dst = keys->addrs.v6addrs.dst.s6_addr;
	}
	return xnb_hash_flow(h, type, src, dst, (__force u16)keys->ports.src,
			     (__force u16)keys->ports.dst);
}

/* Set @skb's hash as the frontend asked; its queue, or -1 for none. */
static int xnb_hash_skb(struct xnb_vif *vif, struct sk_buff *skb)
{
	/* Hashing may be on before xnb_vif_start sets the real count. */
	unsigned int n = min(READ_ONCE(vif->num_queues),
			     READ_ONCE(vif->dev->real_num_tx_queues));
	struct flow_keys keys;
	bool dissected = false;
	u32 type = 0, hash = 0, q = 0;
	unsigned int seq;

	if (!n || READ_ONCE(vif->hash.alg) !=
		  XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ)
		return -1;
	/* Netpoll may run in a writer or after its CPU stopped: we'd spin. */
	if (irqs_disabled())
		return -1;
	do {
		seq = read_seqbegin(&vif->hash_lock);
		if (vif->hash.alg != XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ) {
			q = U32_MAX;
			continue;
		}
		if (!dissected) {
			if (!skb_flow_dissect_flow_keys(skb, &keys, 0))
				memset(&keys, 0, sizeof(keys));
			dissected = true;
		}
		type = xnb_hash_type(vif->hash.flags, &keys);
		hash = type ? xnb_hash_keys(&vif->hash, type, &keys) : 0;
		q = xnb_hash_queue(&vif->hash, hash, n);
	} while (read_seqretry(&vif->hash_lock, seq));

	if (q == U32_MAX)
		return -1;
	if (type)
		__skb_set_sw_hash(skb, hash,
				  type & (XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP |
					  XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP));
	else
		skb_clear_hash(skb);
	return q;
}

/* ndo_select_queue: by the frontend's hash, if set. */
u16 xnb_select_queue(struct net_device *dev, struct sk_buff *skb,
		     struct net_device *sb_dev)
{
	int q = xnb_hash_skb(netdev_priv(dev), skb);

	if (q < 0)
		return netdev_pick_tx(dev, skb, sb_dev);
	return q;
}

static bool xnb_rx_hash_wanted(struct xnb_vif *vif,
			       const struct sk_buff *skb)
{
	return READ_ONCE(vif->hash.alg) ==
	       XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ && skb->sw_hash;
}

static void xnb_rx_hash_fill(const struct sk_buff *skb,
			     struct xen_netif_extra_info *ex)
{
	bool v6 = skb->protocol == htons(ETH_P_IPV6);
	__le32 value = cpu_to_le32(skb_get_hash_raw(skb));

	ex->type = XEN_NETIF_EXTRA_TYPE_HASH;
	ex->flags = 0;
	if (skb->l4_hash)
		ex->u.hash.type = v6 ? _XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP :
				       _XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP;
	else
		ex->u.hash.type = v6 ? _XEN_NETIF_CTRL_HASH_TYPE_IPV6 :
				       _XEN_NETIF_CTRL_HASH_TYPE_IPV4;
	ex->u.hash.algorithm = XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ;
	memcpy(ex->u.hash.value, &value, sizeof(value));
}

static bool xnb_rx_gso_ok(const struct xnb_vif *vif, const struct sk_buff *skb)
{
	if (!skb_is_gso(skb))
		return true;
	if (skb_shinfo(skb)->gso_type & SKB_GSO_TCPV4)
		return vif->gso_tcpv4;
	if (skb_shinfo(skb)->gso_type & SKB_GSO_TCPV6)
		return vif->gso_tcpv6;
	return false;
}

/**
 * xnb_start_xmit() - Queue a dom0 -> guest packet (ndo_start_xmit).
 * @skb: the packet
 * @dev: the vif's netdev
 * Context: Under the core's tx queue lock, which serialises rx_kick_owed.
 * Return: NETDEV_TX_OK, always.
 */
netdev_tx_t xnb_start_xmit(struct sk_buff *skb, struct net_device *dev)
{
	struct xnb_vif *vif = netdev_priv(dev);
	unsigned int qi = skb_get_queue_mapping(skb);
	struct netdev_queue *txq;
	struct xnb_queue *q;
	bool full;

	/* Pairs with xnb_vif_start()'s release.  A disconnect strands no
	 * unkicked skb: its netif_tx_disable() waits for us, then it purges.
	 */
	if (!smp_load_acquire(&vif->connected) ||
	    qi >= READ_ONCE(vif->num_queues)) {
		dev_core_stats_tx_dropped_inc(dev);
		dev_kfree_skb_any(skb);
		return NETDEV_TX_OK;
	}
	q = &vif->queues[qi];
	txq = netdev_get_tx_queue(dev, qi);
	if (READ_ONCE(vif->disabled))
		goto drop_core;
	/* The config may have changed, and no stack hash may pass as ours. */
	if (xnb_hash_skb(vif, skb) < 0)
		skb_clear_hash(skb);

	if (READ_ONCE(vif->mcast_ctrl) && skb_headlen(skb) >= ETH_HLEN) {
		const u8 *dest = ((const struct ethhdr *)skb->data)->h_dest;

		if (is_multicast_ether_addr(dest) &&
		    !is_broadcast_ether_addr(dest) &&
		    !xnb_mcast_wanted(vif, dest))
			goto drop_core;
	}

	if (!xnb_rx_fits(skb->len, skb_is_gso(skb), xnb_rx_gso_ok(vif, skb),
			 vif->can_sg, READ_ONCE(vif->xdp_headroom))) {
		atomic_long_inc(&q->unsupported_dropped);
		dev_kfree_skb_any(skb);
		goto out;
	}

	/* Count first: the worker may free it once queued; truesize stays. */
	full = atomic_add_return(skb->truesize, &q->rx_bytes_queued) >=
	       xnb_rx_queue_bytes;
	skb_queue_tail(&q->rx_skbs, skb);
	q->rx_kick_owed = true;
	if (full) {
		netif_tx_stop_queue(txq);
		/* The worker may have drained meanwhile: recheck. */
		smp_mb__after_atomic();
		if (atomic_read(&q->rx_bytes_queued) < xnb_rx_queue_bytes)
			netif_tx_wake_queue(txq);
	}
	goto out;

drop_core:
	dev_core_stats_tx_dropped_inc(dev);
	dev_kfree_skb_any(skb);
out:
	/* At the burst's end, and when stopped: only the worker wakes it. */
	if (q->rx_kick_owed &&
	    (!netdev_xmit_more() || netif_xmit_stopped(txq))) {
		q->rx_kick_owed = false;
		xnb_group_kick(q);
	}
	return NETDEV_TX_OK;
}

/* Not once disconnected: the purge must not undo netif_tx_disable(). */
static void xnb_rx_dequeued(struct xnb_queue *q, struct sk_buff *skb)
{
	struct netdev_queue *txq = netdev_get_tx_queue(q->vif->dev, q->id);

	if (atomic_sub_return(skb->truesize, &q->rx_bytes_queued) <
	    xnb_rx_queue_bytes / 2 && netif_tx_queue_stopped(txq) &&
	    READ_ONCE(q->vif->connected))
		netif_tx_wake_queue(txq);
}

/**
 * xnb_rx_purge() - Drop every packet queued for the guest.
 * @q: the queue
 * Context: @q's pass, or the xenbus thread once @q left its group.
 * Return: the packets dropped.
 */
unsigned int xnb_rx_purge(struct xnb_queue *q)
{
	struct sk_buff *skb;
	unsigned int n = 0;

	while ((skb = skb_dequeue(&q->rx_skbs))) {
		xnb_rx_dequeued(q, skb);
		kfree_skb(skb);
		n++;
	}
	if (n)
		xnb_stat_add(q, &q->stats.rx_dropped, n);
	return n;
}

void xnb_stall_timer_fn(struct timer_list *t)
{
	struct xnb_queue *q = timer_container_of(q, t, stall_timer);

	xnb_group_kick(q);
}

static void xnb_rx_unblocked(struct xnb_queue *q)
{
	unsigned long since = q->rx_blocked_since;

	WRITE_ONCE(q->rx_blocked_since, 0);
	/* The event that told us of the buffers was real work. */
	q->worked |= BIT(XNB_DIR_RX);
	if (q->stalled) {
		q->stalled = false;
		atomic_dec(&q->vif->stalled_queues);
		trace_xnb_rx_unstall(q->name, since,
				     skb_queue_len_lockless(&q->rx_skbs));
		if (xnb_vif_log_ok(q->vif))
			netdev_info(q->vif->dev, "queue %u: RX buffers back, carrier on\n",
				    q->id);
		xnb_vif_update_carrier(q->vif);
	}
}

/* A bad req_prod is fatal here too, or each event kicks us for nothing. */
static void xnb_rx_check_unstall(struct xnb_queue *q)
{
	int avail;

	WRITE_ONCE(q->rx_want, 1);
	smp_wmb(); /* rx_want before req_event: see group.c's xnb_rx_event */
	q->rx.sring->req_event = q->rx.req_cons + 1;
	virt_mb(); /* req_event write before req_prod read */
	avail = xnb_ring_unconsumed(READ_ONCE(q->rx.sring->req_prod),
				    q->rx.req_cons, XNB_RX_RING_SIZE);
	if (avail < 0)
		xnb_vif_fatal(q->vif, "RX producer index beyond ring size");
	else if (avail > 0)
		xnb_rx_unblocked(q);
}

/* Carrier off after rx_stall; until then the timer re-arms, drained or not. */
static void xnb_rx_stall_check(struct xnb_queue *q)
{
	unsigned long drain = msecs_to_jiffies(xnb_rx_drain_msecs);
	unsigned long stall = msecs_to_jiffies(xnb_rx_stall_msecs);
	struct xnb_vif *vif = q->vif;

	if (time_after_eq(jiffies, q->rx_blocked_since + stall) &&
	    !q->stalled) {
		q->stalled = true;
		atomic_inc(&vif->stalled_queues);
		trace_xnb_rx_stall(q->name, q->rx_blocked_since,
				   skb_queue_len_lockless(&q->rx_skbs));
		if (xnb_vif_log_ok(vif))
			netdev_info(vif->dev, "queue %u: guest posts no RX buffers, carrier off\n",
				    q->id);
		xnb_vif_update_carrier(vif);
	}
	if (!q->stalled || !skb_queue_empty_lockless(&q->rx_skbs))
		mod_timer(&q->stall_timer, jiffies + min(drain, stall) / 2 + 1);
}

/* The guest posts no buffers: drop what waits, then lose the carrier. */
static void xnb_rx_blocked(struct xnb_queue *q)
{
	unsigned long drain = msecs_to_jiffies(xnb_rx_drain_msecs);

	xnb_rx_stall_check(q);
	if (time_after_eq(jiffies, q->rx_blocked_since + drain)) {
		unsigned int n = xnb_rx_purge(q);

		if (n)
			trace_xnb_rx_drain(q->name, q->rx_blocked_since, n);
		/* Drained: any buffer now ends the stall. */
		xnb_rx_check_unstall(q);
	}
}

/* Pack @skb into the data slots' buffers; returns the ops, 0 on failure. */
static unsigned int xnb_rx_ops(struct xnb_queue *q, struct sk_buff *skb,
			       const grant_ref_t *grefs, const u8 *slot_of,
			       unsigned int nr_data, unsigned int headroom,
			       struct gnttab_copy *ops)
{
	/* base: where this slot's data starts (the headroom in the first). */
	unsigned int n = 0, d = 0, dst_off = headroom, base = headroom, f;
	domid_t domid = q->vif->domid;
	int piece;

	/* piece -1 is the linear head, then each frag. */
	for (piece = -1; piece < skb_shinfo(skb)->nr_frags; piece++) {
		struct page *page;
		unsigned int off, len;

		if (piece < 0) {
			page = virt_to_page(skb->data);
			off = offset_in_page(skb->data);
			len = skb_headlen(skb);
		} else {
			skb_frag_t *fr = &skb_shinfo(skb)->frags[piece];

			page = skb_frag_page(fr);
			off = skb_frag_off(fr);
			len = skb_frag_size(fr);
		}
		page += off >> PAGE_SHIFT;	/* compound pages */
		off &= ~PAGE_MASK;

		while (len) {
			unsigned int chunk = min3(len, (unsigned int)PAGE_SIZE - off,
						  (unsigned int)XEN_PAGE_SIZE - dst_off);
			struct xen_page_foreign *foreign;
			struct gnttab_copy *op;

			if (d >= nr_data || n == XNB_RX_MAX_OPS)
				return 0;	/* cannot happen: slots counted */
			op = &ops[n++];
			op->flags = GNTCOPY_dest_gref;
			/* Another guest's page is copied from its grant;
			 * compound ones, never foreign, must skip PageForeign.
			 */
			foreign = PageCompound(page) ? NULL :
				  xen_page_foreign(page);
			if (foreign) {
				op->source.u.ref = foreign->gref;
				op->source.domid = foreign->domid;
				op->flags |= GNTCOPY_source_gref;
			} else {
				op->source.u.gmfn = xen_page_to_gfn(page);
				op->source.domid = DOMID_SELF;
			}
			op->source.offset = off;
			op->dest.u.ref = grefs[slot_of[d]];
			op->dest.domid = domid;
			op->dest.offset = dst_off;
			op->len = chunk;

			len -= chunk;
			off += chunk;
			dst_off += chunk;
			if (off == PAGE_SIZE) {
				page++;
				off = 0;
			}
			if (dst_off == XEN_PAGE_SIZE) {
				q->rx_len[(q->rx.req_cons + slot_of[d]) & XNB_RX_MASK] =
					dst_off - base;
				d++;
				dst_off = 0;
				base = 0;
			}
		}
	}
	if (dst_off > base) {
		q->rx_len[(q->rx.req_cons + slot_of[d]) & XNB_RX_MASK] =
			dst_off - base;
		d++;
	}
	for (f = d; f < nr_data; f++)
		q->rx_len[(q->rx.req_cons + slot_of[f]) & XNB_RX_MASK] = 0;
	return n;
}

static void xnb_rx_start(struct xnb_group *g, struct xnb_queue *q,
			 struct sk_buff *skb, unsigned int need, bool gso,
			 bool hash, unsigned int headroom)
{
	unsigned int extras = gso + hash;
	grant_ref_t grefs[XNB_RX_MAX_SLOTS];
	u8 slot_of[XNB_RX_MAX_SLOTS];
	RING_IDX cons = q->rx.req_cons;
	struct xnb_inflight *f;
	unsigned int i, d = 0, n;

	/* Copy each request out once; the guest may rewrite the ring. */
	for (i = 0; i < need; i++) {
		const struct xen_netif_rx_request *req =
			RING_GET_REQUEST(&q->rx, cons + i);

		q->rx_id[(cons + i) & XNB_RX_MASK] = READ_ONCE(req->id);
		grefs[i] = READ_ONCE(req->gref);
		/* Slots 1.. carry the extras (GSO, hash), not data. */
		if (i == 0 || i > extras)
			slot_of[d++] = i;
	}

	f = xnb_copy_begin(g, q, XNB_DIR_RX, XNB_RX_MAX_OPS);
	n = xnb_rx_ops(q, skb, grefs, slot_of, d, headroom,
		       g->ops + f->first_op);
	if (!n)
		f->drop = true;
	f->skb = skb;
	f->gso = gso;
	f->hash = hash;
	f->headroom = headroom;
	f->ring_start = cons;
	f->nr_slots = need;
	/* The event handler judges by it lockless (xnb_rx_event). */
	WRITE_ONCE(q->rx.req_cons, cons + need);
	xnb_copy_commit(g, f, n);
}

/**
 * xnb_rx_gather() - Start copying queued packets into a queue's guest.
 * @g: the group whose pass runs
 * @q: the queue it serves
 * @budget: ring slots the queue may use this turn
 * @slots: the ring slots used are added to it
 * Context: May take the vif's carrier_lock.
 * Return: the packets started, drops not counted.
 */
int xnb_rx_gather(struct xnb_group *g, struct xnb_queue *q, int budget,
		  unsigned int *slots)
	__must_hold(&g->pass_busy)
{
	struct xnb_vif *vif = q->vif;
	struct sk_buff *skb;
	int done = 0, used = 0;

	lockdep_assert_held(&g->pass_busy);
	if (q->rx_blocked_since && skb_queue_empty_lockless(&q->rx_skbs)) {
		xnb_rx_check_unstall(q);
		/* Still nothing posted: the stall clock keeps running. */
		if (q->rx_blocked_since && !READ_ONCE(vif->disabled))
			xnb_rx_stall_check(q);
	}

	while (used < budget && !READ_ONCE(vif->disabled) &&
	       (skb = skb_peek(&q->rx_skbs))) {
		bool gso = skb_is_gso(skb);
		/* Once per packet: the guest may change it meanwhile. */
		unsigned int hr = min_t(unsigned int,
					READ_ONCE(vif->xdp_headroom),
					XNB_RX_HEADROOM_MAX);
		bool hash = xnb_rx_hash_wanted(vif, skb);
		u32 need = xnb_rx_slots_needed(skb->len, gso, hr) + hash;
		int avail;

		/* The headroom may have grown since xmit judged it. */
		if (!xnb_rx_fits(skb->len, gso, xnb_rx_gso_ok(vif, skb),
				 vif->can_sg, hr)) {
			skb = skb_dequeue(&q->rx_skbs);
			xnb_rx_dequeued(q, skb);
			atomic_long_inc(&q->unsupported_dropped);
			kfree_skb(skb);
			used++;
			continue;
		}

		avail = xnb_ring_unconsumed(READ_ONCE(q->rx.sring->req_prod),
					    q->rx.req_cons, XNB_RX_RING_SIZE);
		if (avail < 0) {
			xnb_vif_fatal(vif, "RX producer index beyond ring size");
			break;
		}
		if (avail < need) {
			/* Ask for an event; xnb_rx_event() judges by these. */
			WRITE_ONCE(q->rx_want, need);
			if (!q->rx_blocked_since)	/* 0: unblocked */
				WRITE_ONCE(q->rx_blocked_since, jiffies | 1);
			smp_wmb(); /* both first: group.c's xnb_rx_event */
			q->rx.sring->req_event = q->rx.req_cons + need;
			virt_mb(); /* req_event write before req_prod recheck */
			avail = xnb_ring_unconsumed(READ_ONCE(q->rx.sring->req_prod),
						    q->rx.req_cons,
						    XNB_RX_RING_SIZE);
			if (avail >= 0 && avail < need) {
				xnb_rx_blocked(q);
				break;
			}
			/* Charged: a guest toggling req_prod can't hold us. */
			used++;
			continue;
		}
		/* The responses owed must fit: wait for the flush. */
		if (!xnb_ring_room(q->rx.req_cons, q->rx.rsp_prod_pvt, need,
				   XNB_RX_RING_SIZE))
			break;
		virt_rmb();	/* read requests after req_prod */
		if (q->rx_blocked_since)
			xnb_rx_unblocked(q);

		skb = skb_dequeue(&q->rx_skbs);
		xnb_rx_dequeued(q, skb);
		xnb_rx_start(g, q, skb, need, gso, hash, hr);
		used += need;
		done++;
	}
	*slots += used;
	return done;
}

bool xnb_rx_pending(struct xnb_queue *q)
{
	return !q->rx_blocked_since && !READ_ONCE(q->vif->disabled) &&
	       !skb_queue_empty_lockless(&q->rx_skbs);
}

static u16 xnb_rx_flags(const struct sk_buff *skb)
{
	if (skb->ip_summed == CHECKSUM_PARTIAL)
		return XEN_NETRXF_csum_blank | XEN_NETRXF_data_validated;
	if (skb->ip_summed == CHECKSUM_UNNECESSARY)
		return XEN_NETRXF_data_validated;
	return 0;
}

/**
 * xnb_rx_complete() - Answer a guest RX packet once its copy is done.
 * @g: the group whose pass runs
 * @f: the packet
 * @ok: whether all of its copy ops succeeded
 */
void xnb_rx_complete(struct xnb_group *g, struct xnb_inflight *f, bool ok)
	__must_hold(&g->pass_busy)
{
	struct xnb_queue *q = f->queue;
	struct sk_buff *skb = f->skb;
	unsigned int i, last_data = f->nr_slots - 1;
	unsigned int extras = f->gso + f->hash;
	u16 flags = xnb_rx_flags(skb);

	lockdep_assert_held(&g->pass_busy);
	if (last_data <= extras)
		last_data = 0;	/* data in slot 0 alone, extras after it */

	for (i = 0; i < f->nr_slots; i++) {
		unsigned int idx = (f->ring_start + i) & XNB_RX_MASK;
		struct xen_netif_rx_response *rsp;

		rsp = RING_GET_RESPONSE(&q->rx, q->rx.rsp_prod_pvt);
		q->rx.rsp_prod_pvt++;

		if (f->gso && i == 1) {
			struct xen_netif_extra_info *ex = (void *)rsp;

			ex->type = XEN_NETIF_EXTRA_TYPE_GSO;
			ex->flags = 0;
			ex->u.gso.size = skb_shinfo(skb)->gso_size;
			ex->u.gso.type = (skb_shinfo(skb)->gso_type & SKB_GSO_TCPV6) ?
				XEN_NETIF_GSO_TYPE_TCPV6 : XEN_NETIF_GSO_TYPE_TCPV4;
			ex->u.gso.pad = 0;
			ex->u.gso.features = 0;
			if (f->hash)
				ex->flags = XEN_NETIF_EXTRA_FLAG_MORE;
			continue;
		}
		if (f->hash && i == 1 + f->gso) {
			xnb_rx_hash_fill(skb, (void *)rsp);
			continue;
		}
		rsp->id = q->rx_id[idx];
		/* status counts the data only, not the XDP headroom. */
		rsp->offset = i == 0 ? f->headroom : 0;
		rsp->flags = i == 0 ? flags : 0;
		if (i == 0 && extras)
			rsp->flags |= XEN_NETRXF_extra_info;
		if (i != last_data)
			rsp->flags |= XEN_NETRXF_more_data;
		rsp->status = ok ? (s16)q->rx_len[idx] : XEN_NETIF_RSP_ERROR;
	}

	/* For the push's notification (xnb_rx_notify): what waits. */
	q->rx_done_pkts++;
	q->rx_done_slots += f->nr_slots;

	u64_stats_update_begin(&q->stats.sync);
	if (ok) {
		u64_stats_inc(&q->stats.rx_packets);
		u64_stats_add(&q->stats.rx_bytes, skb->len);
	} else {
		u64_stats_inc(&q->stats.rx_errors);
	}
	u64_stats_update_end(&q->stats.sync);

	if (ok)
		dev_consume_skb_any(skb);
	else
		dev_kfree_skb_any(skb);
}

/* Only the pass sends: a deferred one has the timer kick the pass. */
static void xnb_rx_notify_do(struct xnb_queue *q, enum xnb_rxmod_verdict v,
			     u64 now)
{
	struct hrtimer *t = &q->rx_notify_timer;
	bool late = q->rxmod.deferred;
	ktime_t due;

	if (v == XNB_RXMOD_DEFER) {
		due = ns_to_ktime(q->rxmod.due_ns);
		/* Armed for then or sooner already: its kick will do. */
		if (!hrtimer_is_queued(t) ||
		    ktime_after(hrtimer_get_expires(t), due))
			hrtimer_start(t, due, HRTIMER_MODE_ABS_PINNED);
		return;
	}
	if (v != XNB_RXMOD_NOW)
		return;
	/* rsp_event is read after xnb_ring_push()'s virt_mb() (this push's or
	 * an earlier one's); compared with our index, not the guest's rsp_prod.
	 */
	if (!xnb_rxmod_wanted(q->rx.rsp_prod_pvt,
			      READ_ONCE(q->rx.sring->rsp_event),
			      XNB_RX_RING_SIZE)) {
		xnb_stat_add(q, &q->stats.rx_notify_skipped, 1);
		return;
	}
	notify_remote_via_irq(q->rx_irq);
	xnb_rxmod_sent(&q->rxmod, now);
	u64_stats_update_begin(&q->stats.sync);
	u64_stats_inc(&q->stats.rx_notify);
	if (late)
		u64_stats_inc(&q->stats.rx_notify_deferred);
	u64_stats_update_end(&q->stats.sync);
	xnb_rxmod_sample(q);
}

/* @asked: the push crossed the guest's rsp_event. */
static void xnb_rx_notify(struct xnb_queue *q, bool asked)
{
	struct xnb_rxmod_limits lim;
	u32 pkts = q->rx_done_pkts, slots = q->rx_done_slots;
	u64 now;

	q->rx_done_pkts = 0;
	q->rx_done_slots = 0;
	if (!asked && !q->rxmod.owed)
		return;		/* the guest polls, or was told */
	xnb_rxmod_limits(q, &lim);
	now = ktime_get_ns();
	xnb_rx_notify_do(q, xnb_rxmod_decide(&q->rxmod, asked, pkts, slots,
					     q->rx_blocked_since != 0, now,
					     &lim), now);
}

/* At @q's turn: send a put-off RX notification if due. */
void xnb_rx_notify_check(struct xnb_queue *q)
{
	if (unlikely(q->rxmod.owed))
		xnb_rx_notify(q, false);
}

/**
 * xnb_rx_push() - Publish a queue's guest RX responses, notify if due.
 * @q: the queue, touched by the flush
 */
void xnb_rx_push(struct xnb_queue *q)
{
	bool asked;

	asked = xnb_ring_push(&q->rx.sring->rsp_prod, &q->rx.sring->rsp_event,
			      q->rx.rsp_prod_pvt, &q->rx_pushed);
	xnb_rx_notify(q, asked);
}
