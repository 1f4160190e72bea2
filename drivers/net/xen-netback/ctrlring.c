// SPDX-License-Identifier: GPL-2.0
/*
 * The control ring (netif.h): the frontend's Toeplitz hash settings.
 * One work item serves it within a per-vif budget, and the channel stays
 * masked until its late EOI: one reader, and a flooding guest costs dom0
 * only its budget.  hash_lock's writer (the work) keeps BHs off.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/timekeeping.h>
#include <net/flow_dissector.h>
#include <xen/events.h>
#include <xen/page.h>

#include "common.h"

#define XNB_CTRL_RING_SIZE	__CONST_RING_SIZE(xen_netif_ctrl, XEN_PAGE_SIZE)

/* Unbound: off the CPU whose NAPI carries the data path. */
static struct workqueue_struct *xnb_ctrl_wq;

static bool xnb_ctrl_copy(struct xnb_vif *vif, grant_ref_t gref, u32 len)
{
	struct gnttab_copy op = {
		.source.u.ref = gref,
		.source.domid = vif->domid,
		.source.offset = 0,
		.dest.u.gmfn = virt_to_gfn(vif->ctrl_buf),
		.dest.domid = DOMID_SELF,
		.dest.offset = 0,
		.len = len,
		.flags = GNTCOPY_source_gref,
	};

	/* The buffer is one page; ctrl.c bounds the guest's length to it. */
	if (WARN_ON_ONCE(len > XEN_PAGE_SIZE))
		return false;
	gnttab_batch_copy(&op, 1);
	return op.status == GNTST_okay;
}

static void xnb_ctrl_serve(struct xnb_vif *vif,
			   const struct xen_netif_ctrl_request *req)
{
	struct xen_netif_ctrl_response *rsp;
	bool copied = false;
	u32 len, status, data;

	/* Only this work writes the hash state: reading it unlocked is safe. */
	len = xnb_ctrl_copy_len(&vif->hash, req);
	if (len)
		copied = xnb_ctrl_copy(vif, req->data[0], len);

	write_seqlock_bh(&vif->hash_lock);
	status = xnb_ctrl_answer(&vif->hash, vif->num_queues, req,
				 vif->ctrl_buf, copied, &data);
	write_sequnlock_bh(&vif->hash_lock);

	rsp = RING_GET_RESPONSE(&vif->ctrl, vif->ctrl.rsp_prod_pvt);
	rsp->id = req->id;
	rsp->type = req->type;
	rsp->status = status;
	rsp->data = data;
	vif->ctrl.rsp_prod_pvt++;
}

static void xnb_ctrl_work(struct work_struct *work)
{
	struct xnb_vif *vif = container_of(to_delayed_work(work),
					   struct xnb_vif, ctrl_work);
	struct xen_netif_ctrl_back_ring *ring = &vif->ctrl;
	unsigned int rate = READ_ONCE(xnb_ctrl_rate), served = 0;
	u64 period = rate ? NSEC_PER_SEC / rate : 0;
	struct xen_netif_ctrl_request req;
	bool spurious = true, spent = false;
	u64 now = ktime_get_ns(), wait = 0;
	RING_IDX prod;
	int more;

	/* Bounded by the budget, or by a ring's worth with ctrl_rate=0. */
	for (;;) {
		/* Not vif->disabled: still set from the last connection. */
		if (vif->ctrl_dead)
			break;
		prod = READ_ONCE(ring->sring->req_prod);
		if (!xnb_ring_sane(prod, ring->rsp_prod_pvt,
				   XNB_CTRL_RING_SIZE)) {
			WRITE_ONCE(vif->ctrl_dead, true);
			xnb_vif_fatal(vif,
				      "control producer index beyond ring size");
			break;
		}
		virt_rmb();	/* requests after req_prod */
		while (ring->req_cons != prod) {
			if (rate ? !xnb_ctrl_budget_take(&vif->ctrl_budget,
							 now, period,
							 XNB_CTRL_BUDGET_BURST) :
				   served == XNB_CTRL_BUDGET_BURST) {
				spent = true;
				break;
			}
			/* A private copy: the guest may rewrite the slot. */
			RING_COPY_REQUEST(ring, ring->req_cons, &req);
			ring->req_cons++;
			xnb_ctrl_serve(vif, &req);
			served++;
			spurious = false;
		}
		if (xnb_ring_push(&ring->sring->rsp_prod,
				  &ring->sring->rsp_event, ring->rsp_prod_pvt,
				  &vif->ctrl_pushed))
			notify_remote_via_irq(READ_ONCE(vif->ctrl_irq));
		if (spent)
			break;
		RING_FINAL_CHECK_FOR_REQUESTS(ring, more);
		if (!more)
			break;
	}
	/* Dead: never EOI'd again, so the guest's events stay masked. */
	if (vif->ctrl_dead)
		return;
	/* Out of tokens: the run they bring owes the EOI; masked until then. */
	if (spent) {
		if (rate)
			wait = xnb_ctrl_budget_wait(&vif->ctrl_budget, now,
						    min_t(u32,
							  prod - ring->req_cons,
							  XNB_CTRL_BUDGET_BATCH),
						    period,
						    XNB_CTRL_BUDGET_BURST);
		/* A jiffy more: nsecs_to_jiffies() rounds down. */
		queue_delayed_work(xnb_ctrl_wq, &vif->ctrl_work,
				   rate ? nsecs_to_jiffies(wait) + 1 : 0);
		return;
	}
	xnb_lateeoi(&vif->ctrl_backoff, READ_ONCE(vif->ctrl_irq),
		    ring->req_cons, spurious);
}

static irqreturn_t xnb_ctrl_interrupt(int irq, void *dev_id)
{
	struct xnb_vif *vif = dev_id;

	/* The bind raises an event: this may run before the bind returns. */
	WRITE_ONCE(vif->ctrl_irq, irq);
	queue_delayed_work(xnb_ctrl_wq, &vif->ctrl_work, 0);
	return IRQ_HANDLED;
}

/* The control rings' workqueue. */
int xnb_ctrl_wq_init(void)
{
	xnb_ctrl_wq = alloc_workqueue("xnb_ctrl", WQ_UNBOUND | WQ_SYSFS, 0);
	return xnb_ctrl_wq ? 0 : -ENOMEM;
}

/* Once every vif is gone. */
void xnb_ctrl_wq_exit(void)
{
	destroy_workqueue(xnb_ctrl_wq);
	xnb_ctrl_wq = NULL;
}

/* A new vif's control state, no ring yet. */
void xnb_ctrl_init(struct xnb_vif *vif)
{
	seqlock_init(&vif->hash_lock);
	xnb_hash_init(&vif->hash);
	BUILD_BUG_ON(XNB_CTRL_BUDGET_BURST != XNB_CTRL_RING_SIZE);
	INIT_DELAYED_WORK(&vif->ctrl_work, xnb_ctrl_work);
	xnb_ctrl_budget_init(&vif->ctrl_budget);
	xnb_backoff_init(&vif->ctrl_backoff);
	snprintf(vif->ctrl_name, sizeof(vif->ctrl_name), "%s-ctrl",
		 vif->dev->name);
}

/**
 * xnb_ctrl_connect() - Map the control ring and bind its channel.
 * @vif: the vif, its data queues allocated (requests need their count)
 * @ref: the grant of the control ring
 * @evtchn: the guest's control event channel
 * Context: Process context, under the backend lock; sleeps.
 * Return: 0, or an errno with nothing left mapped or bound.
 */
int xnb_ctrl_connect(struct xnb_vif *vif, grant_ref_t ref,
		     unsigned int evtchn)
{
	struct xen_netif_ctrl_sring *sring;
	void *addr;
	int err;

	xnb_backend_assert_held(vif);
	write_seqlock_bh(&vif->hash_lock);
	xnb_hash_init(&vif->hash);
	write_sequnlock_bh(&vif->hash_lock);

	vif->ctrl_buf = (void *)get_zeroed_page(GFP_KERNEL);
	if (!vif->ctrl_buf)
		return -ENOMEM;
	err = xenbus_map_ring_valloc(vif->xbdev, &ref, 1, &addr);
	if (err)
		goto fail;
	sring = addr;
	BACK_RING_ATTACH(&vif->ctrl, sring, READ_ONCE(sring->rsp_prod),
			 XEN_PAGE_SIZE);
	vif->ctrl_pushed = vif->ctrl.rsp_prod_pvt;
	if (!xnb_ring_sane(READ_ONCE(sring->req_prod), vif->ctrl.rsp_prod_pvt,
			   XNB_CTRL_RING_SIZE)) {
		err = -EINVAL;
		goto fail;
	}
	vif->ctrl_dead = false;
	err = bind_interdomain_evtchn_to_irqhandler_lateeoi(vif->xbdev, evtchn,
							    xnb_ctrl_interrupt, 0,
							    vif->ctrl_name, vif);
	if (err < 0)
		goto fail;
	/* The handler may have stored it already, and the work reads it. */
	WRITE_ONCE(vif->ctrl_irq, err);
	return 0;

fail:
	xnb_ctrl_disconnect(vif);
	return err;
}

/**
 * xnb_ctrl_disconnect() - Take the control ring down, if any.
 * @vif: the vif
 * Context: Process context, under the backend lock; sleeps.
 */
void xnb_ctrl_disconnect(struct xnb_vif *vif)
{
	/* The handler stores the same value until the irq is disabled. */
	unsigned int irq = READ_ONCE(vif->ctrl_irq);

	xnb_backend_assert_held(vif);
	if (irq) {
		/* No new work; the work and the back-off timer EOI through
		 * the irq, so both stop before the unbind, the work first.
		 */
		disable_irq(irq);
		cancel_delayed_work_sync(&vif->ctrl_work);
		xnb_backoff_stop(&vif->ctrl_backoff);
		unbind_from_irqhandler(irq, vif);
		vif->ctrl_irq = 0;
	}
	write_seqlock_bh(&vif->hash_lock);
	xnb_hash_init(&vif->hash);
	write_sequnlock_bh(&vif->hash_lock);
	if (vif->ctrl.sring)
		xenbus_unmap_ring_vfree(vif->xbdev, vif->ctrl.sring);
	vif->ctrl.sring = NULL;
	free_page((unsigned long)vif->ctrl_buf);
	vif->ctrl_buf = NULL;
	vif->ctrl_dead = false;
}

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

/**
 * xnb_hash_skb() - Hash a dom0 -> guest packet as the frontend asked.
 * @vif: the vif
 * @skb: the packet; its hash is set, or cleared when no type applies
 * Context: Any context; a hash_lock reader.
 * Return: the queue for @skb, or -1 when hashing is off or IRQs are.
 */
int xnb_hash_skb(struct xnb_vif *vif, struct sk_buff *skb)
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
	/* Netpoll (netconsole) may have interrupted the writer on this
	 * CPU, or run after its CPU stopped: the seqlock would spin forever.
	 */
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

/* Guest RX of @skb carries a hash extra: Toeplitz is on and @skb hashed. */
bool xnb_rx_hash_wanted(struct xnb_vif *vif, const struct sk_buff *skb)
{
	return READ_ONCE(vif->hash.alg) ==
	       XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ && skb->sw_hash;
}

/* Write @skb's hash extra, as xnb_hash_skb() set it. */
void xnb_rx_hash_fill(const struct sk_buff *skb,
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
