// SPDX-License-Identifier: GPL-2.0
/*
 * The control ring (netif.h): the frontend's Toeplitz hash settings.
 * One work item serves it within a per-vif budget, and the channel stays
 * masked until its late EOI: one reader, and a flooding guest costs dom0
 * only its budget.  hash_lock's writer (the work) keeps BHs off; its
 * readers, per dom0 -> guest packet, are rx.c's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/gfp.h>
#include <linux/jiffies.h>
#include <linux/timekeeping.h>
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
		.dest.u.gmfn = virt_to_gfn(vif->ctrl_buf),
		.dest.domid = DOMID_SELF,
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
	xnb_backoff_init(&vif->ctrl_backoff);
	snprintf(vif->ctrl_name, sizeof(vif->ctrl_name), "%s-ctrl",
		 vif->dev->name);
}

/* After the data queues (requests need their count), under the backend lock;
 * sleeps.  An error leaves nothing mapped or bound.
 */
int xnb_ctrl_connect(struct xnb_vif *vif, grant_ref_t ref,
		     unsigned int evtchn)
{
	struct xen_netif_ctrl_sring *sring;
	void *addr;
	int err;

	/* The hash is reset already: at init, and by every disconnect. */
	xnb_backend_assert_held(vif);
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

/* Take any control ring down; under the backend lock, sleeps. */
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
