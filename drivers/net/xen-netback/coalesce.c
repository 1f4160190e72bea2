// SPDX-License-Identifier: GPL-2.0
/*
 * Guest RX notification moderation: how often a guest is told of the
 * responses on its RX ring.
 *
 * Each notification costs dom0 a hypercall and the guest an interrupt,
 * and the guest's vCPU is what bounds guest RX.  The flush pushes every
 * response at once (a guest still polling takes them with no event);
 * only the event a guest asked for may wait, per queue: at most one per
 * rx-usecs, sooner once rx-frames packets or half the ring wait, never
 * for the first after a quiet spell (proto.c's xnb_rxmod_decide, which
 * rx.c's push and turns ask).  One put off has a deadline: the queue's
 * hrtimer kicks the group then, and the pass sends it.
 *
 * The limits are the vif's (ethtool -C vifX.Y rx-usecs N rx-frames M
 * adaptive-rx off), or with adaptive-rx on (the default) each queue's
 * own, chosen by the kernel's net_dim from what its notifications
 * carry: the pass feeds net_dim a sample after each notification, and
 * net_dim's work applies the profile it picks.  Its RX profiles of the
 * EQE mode are used: their timer counts from an event, as ours counts
 * from the last notification, not restarting at each response.
 */
#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "common.h"

/* net_dim's profile a queue starts with: its EQE table's second, as in
 * lib/dim (8 us; 1 us is the table's first).
 */
#define XNB_DIM_MODE		DIM_CQ_PERIOD_MODE_START_FROM_EQE
#define XNB_DIM_START_PROFILE	1

/**
 * xnb_coal_init() - Give a new vif the default moderation.
 * @vif: the vif, not registered yet
 *
 * Adaptive (net_dim), with XNB_COAL_USECS_DEF and XNB_COAL_FRAMES_DEF
 * for when adaptive-rx is turned off.
 *
 * Context: Process context (probe).
 */
void xnb_coal_init(struct xnb_vif *vif)
{
	vif->coal.adaptive = true;
	vif->coal.usecs = XNB_COAL_USECS_DEF;
	vif->coal.frames = XNB_COAL_FRAMES_DEF;
}

/* A put-off notification is due: bring the pass back to the queue,
 * which sends it (rx.c, xnb_rx_notify_check).  A queue in no group
 * (moving, or leaving) is kicked by whoever attaches it next, so the
 * notification is not lost to a move either.
 */
static enum hrtimer_restart xnb_rx_notify_timer_fn(struct hrtimer *t)
{
	struct xnb_queue *q = container_of(t, struct xnb_queue,
					   rx_notify_timer);

	xnb_group_kick(q);
	return HRTIMER_NORESTART;
}

/* net_dim picked a profile for a queue: apply it, and hand the dim back
 * for its next measurement (net_dim ignores samples until then).
 */
static void xnb_rx_dim_work(struct work_struct *work)
{
	struct dim *dim = container_of(work, struct dim, work);
	struct xnb_queue *q = container_of(dim, struct xnb_queue, rx_dim);
	struct dim_cq_moder m = net_dim_get_rx_moderation(dim->mode,
							  dim->profile_ix);

	WRITE_ONCE(q->rx_dim_usecs, m.usec);
	WRITE_ONCE(q->rx_dim_frames, m.pkts);
	WRITE_ONCE(dim->state, DIM_START_MEASURE);
}

/**
 * xnb_rxmod_init() - Set up a new queue's moderation.
 * @q: the queue, allocated (zeroed) and in no group
 *
 * Nothing owed, the notify timer and net_dim's work set up, net_dim at
 * its start profile.
 *
 * Context: Process context (the xenbus thread), before the queue can
 * be attached.
 */
void xnb_rxmod_init(struct xnb_queue *q)
{
	struct dim_cq_moder m;

	xnb_hrtimer_setup(&q->rx_notify_timer, xnb_rx_notify_timer_fn,
			  CLOCK_MONOTONIC, HRTIMER_MODE_ABS_PINNED);
	INIT_WORK(&q->rx_dim.work, xnb_rx_dim_work);
	q->rx_dim.mode = XNB_DIM_MODE;
	q->rx_dim.profile_ix = XNB_DIM_START_PROFILE;
	m = net_dim_get_rx_moderation(XNB_DIM_MODE, XNB_DIM_START_PROFILE);
	q->rx_dim_usecs = m.usec;
	q->rx_dim_frames = m.pkts;
}

/**
 * xnb_rxmod_stop() - Stop a leaving queue's notify timer and net_dim.
 * @q: the queue, detached: no pass arms the timer or calls net_dim
 *	any more
 *
 * Waits for a running timer (its kick finds no group) and net_dim's
 * work.  A notification still owed is dropped: the guest is going.
 *
 * Context: Process context (the xenbus thread), sleeps.
 */
void xnb_rxmod_stop(struct xnb_queue *q)
{
	hrtimer_cancel(&q->rx_notify_timer);
	cancel_work_sync(&q->rx_dim.work);
	q->rxmod.owed = false;
}

/**
 * xnb_rxmod_limits() - The moderation limits in force for a queue.
 * @q: the queue, served by the caller's pass
 * @lim: filled with them
 *
 * net_dim's current choice for @q with adaptive-rx on, else the vif's
 * rx-usecs and rx-frames; a notification waits for half the ring at
 * most, whatever the frames.
 *
 * Context: The group's poll (BH off), in the pass serving @q.
 */
void xnb_rxmod_limits(struct xnb_queue *q, struct xnb_rxmod_limits *lim)
{
	struct xnb_vif *vif = q->vif;

	if (READ_ONCE(vif->coal.adaptive)) {
		lim->usecs = READ_ONCE(q->rx_dim_usecs);
		lim->frames = READ_ONCE(q->rx_dim_frames);
	} else {
		lim->usecs = READ_ONCE(vif->coal.usecs);
		lim->frames = READ_ONCE(vif->coal.frames);
	}
	lim->slots_max = XNB_RX_RING_SIZE / 2;
}

/**
 * xnb_rxmod_sample() - Feed net_dim after a notification.
 * @q: the queue that sent one
 *
 * With adaptive-rx on: the queue's guest RX packets and bytes and its
 * notifications so far.  net_dim measures over 64 notifications and
 * moves the profile (through its work) to where the same traffic takes
 * fewer of them.
 *
 * Context: The group's poll (BH off), in the pass serving @q, which
 * writes the counters read here.
 */
void xnb_rxmod_sample(struct xnb_queue *q)
{
	struct dim_sample s;

	if (!READ_ONCE(q->vif->coal.adaptive))
		return;
	dim_update_sample((u16)u64_stats_read(&q->stats.rx_notify),
			  u64_stats_read(&q->stats.rx_packets),
			  u64_stats_read(&q->stats.rx_bytes), &s);
	net_dim(&q->rx_dim, &s);
}

/**
 * xnb_get_coalesce() - ethtool -c: the vif's RX notification moderation.
 * @dev: the vif's netdev
 * @ec: filled with rx-usecs, rx-frames and adaptive-rx
 * @kec: unused
 * @extack: unused
 *
 * rx-usecs and rx-frames are the values used with adaptive-rx off;
 * with it on, each queue's come from net_dim (debugfs "groups" shows
 * them).
 *
 * Context: Process context, under rtnl.
 * Return: 0.
 */
int xnb_get_coalesce(struct net_device *dev, struct ethtool_coalesce *ec,
		     struct kernel_ethtool_coalesce *kec,
		     struct netlink_ext_ack *extack)
{
	struct xnb_vif *vif = netdev_priv(dev);

	ec->rx_coalesce_usecs = vif->coal.usecs;
	ec->rx_max_coalesced_frames = vif->coal.frames;
	ec->use_adaptive_rx_coalesce = vif->coal.adaptive;
	return 0;
}

/**
 * xnb_set_coalesce() - ethtool -C: set the vif's RX notification moderation.
 * @dev: the vif's netdev
 * @ec: rx-usecs (below XNB_RXMOD_USECS_MIN, 0 included: no moderation;
 *	at most XNB_RXMOD_USECS_MAX),
 *	rx-frames (0: no frame limit, 1: no moderation; at most
 *	XNB_RXMOD_FRAMES_MAX) and adaptive-rx; the ethtool core refuses
 *	any other parameter (supported_coalesce_params)
 * @kec: unused
 * @extack: why a value was refused
 *
 * Applies from each queue's next push or turn; a notification already
 * put off keeps its due time, or comes sooner (proto.c).
 *
 * Context: Process context, under rtnl.
 * Return: 0, or -EINVAL with nothing changed.
 */
int xnb_set_coalesce(struct net_device *dev, struct ethtool_coalesce *ec,
		     struct kernel_ethtool_coalesce *kec,
		     struct netlink_ext_ack *extack)
{
	struct xnb_vif *vif = netdev_priv(dev);

	ASSERT_RTNL();
	/* The messages name the limits. */
	BUILD_BUG_ON(XNB_RXMOD_USECS_MAX != 10000);
	BUILD_BUG_ON(XNB_RXMOD_FRAMES_MAX != 256);
	if (ec->rx_coalesce_usecs > XNB_RXMOD_USECS_MAX) {
		NL_SET_ERR_MSG_MOD(extack, "rx-usecs is 10000 at most");
		return -EINVAL;
	}
	if (ec->rx_max_coalesced_frames > XNB_RXMOD_FRAMES_MAX) {
		NL_SET_ERR_MSG_MOD(extack, "rx-frames is 256 at most");
		return -EINVAL;
	}
	WRITE_ONCE(vif->coal.usecs, ec->rx_coalesce_usecs);
	WRITE_ONCE(vif->coal.frames, ec->rx_max_coalesced_frames);
	WRITE_ONCE(vif->coal.adaptive, !!ec->use_adaptive_rx_coalesce);
	return 0;
}
