// SPDX-License-Identifier: GPL-2.0
/* Only the event a guest asked for may wait (xnb_rxmod_decide()).
 * adaptive-rx: net_dim's EQE profiles, whose timer counts from an event
 * as ours does from a notification.
 */
#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "common.h"

/* Start at the EQE table's second profile, as lib/dim does. */
#define XNB_DIM_MODE		DIM_CQ_PERIOD_MODE_START_FROM_EQE
#define XNB_DIM_START_PROFILE	1

/* The pass sends it; a queue in no group is kicked at its next attach. */
static enum hrtimer_restart xnb_rx_notify_timer_fn(struct hrtimer *t)
{
	struct xnb_queue *q = container_of(t, struct xnb_queue,
					   rx_notify_timer);

	xnb_group_kick(q);
	return HRTIMER_NORESTART;
}

/* DIM_START_MEASURE hands the dim back: net_dim ignores samples till then. */
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
 * @q: the queue, detached: no pass arms the timer any more
 * Context: process, sleeps.
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
 * @lim: filled; half the ring at most, whatever the frames
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
 * xnb_rxmod_sample() - Feed net_dim after a notification (adaptive-rx).
 * @q: the queue, served by the caller's pass, which writes its counters
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

/* rx-usecs and rx-frames shown are those used with adaptive-rx off. */
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
 * @ec: rx-usecs (below XNB_RXMOD_USECS_MIN: none), rx-frames (0: no limit,
 *	1: none) and adaptive-rx; the ethtool core refuses the others
 * @kec: unused
 * @extack: why a value was refused
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
