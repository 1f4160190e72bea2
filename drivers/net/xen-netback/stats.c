// SPDX-License-Identifier: GPL-2.0
/* Directions are the guest's, as in-tree: "tx" is what the guest sent.
 * The in-tree driver's zerocopy and tx_frag_overflow rows stay 0, for its
 * users' scripts: guest TX is always copied, into full pages.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/ethtool.h>
#include <linux/rtnetlink.h>

#include "common.h"
#include "trace.h"

struct xnb_stat_desc {
	char name[ETH_GSTRING_LEN];
	size_t offset;
};

#define XNB_STAT(field) { #field, offsetof(struct xnb_queue_stats, field) }

static const struct xnb_stat_desc xnb_stat_descs[] = {
	XNB_STAT(rx_gso_checksum_fixup),
	XNB_STAT(tx_packets),
	XNB_STAT(tx_bytes),
	XNB_STAT(tx_dropped),
	XNB_STAT(tx_errors),
	XNB_STAT(rx_packets),
	XNB_STAT(rx_bytes),
	XNB_STAT(rx_dropped),
	XNB_STAT(rx_errors),
	XNB_STAT(copy_ops),
	XNB_STAT(copy_batches),
	XNB_STAT(copy_eagain_failed),
	XNB_STAT(tx_alloc_failed),
	XNB_STAT(rx_notify),
	XNB_STAT(rx_notify_deferred),
	XNB_STAT(rx_notify_skipped),
};

#define XNB_NR_STATS ARRAY_SIZE(xnb_stat_descs)

static const struct xnb_stat_desc xnb_queue_descs[] = {
	XNB_STAT(tx_packets),
	XNB_STAT(tx_bytes),
	XNB_STAT(tx_dropped),
	XNB_STAT(rx_packets),
	XNB_STAT(rx_bytes),
	XNB_STAT(rx_dropped),
};

#define XNB_NR_QSTATS ARRAY_SIZE(xnb_queue_descs)
#define XNB_QUEUE_ROWS (1 + XNB_NR_QSTATS)

enum {
	XNB_ROW_UNSUPPORTED, XNB_ROW_DISABLED, XNB_ROW_QUEUES,
	XNB_ROW_ZC_SENT, XNB_ROW_ZC_SUCCESS, XNB_ROW_ZC_FAIL,
	XNB_ROW_FRAG_OVERFLOW, XNB_NR_ROWS
};

static const char xnb_row_names[XNB_NR_ROWS][ETH_GSTRING_LEN] = {
	"rx_unsupported_dropped", "disabled", "queues",
	"tx_zerocopy_sent", "tx_zerocopy_success", "tx_zerocopy_fail",
	"tx_frag_overflow",
};

static u64_stats_t *xnb_stat_at(struct xnb_queue_stats *s, size_t off)
{
	return (u64_stats_t *)((char *)s + off);
}

static u64 xnb_stat_read(const struct xnb_queue_stats *s, size_t off)
{
	return u64_stats_read((const u64_stats_t *)((const char *)s + off));
}

static u64 xnb_stat(const struct xnb_queue_stats *s, unsigned int i)
{
	return xnb_stat_read(s, xnb_stat_descs[i].offset);
}

/* stats_lock keeps vif->queues from being freed under us. */
static void xnb_stats_sum(struct xnb_vif *vif, u64 *out, u64 *unsupported)
	__must_hold(&vif->stats_lock)
{
	unsigned int i, j, start;

	lockdep_assert_held(&vif->stats_lock);
	for (i = 0; i < XNB_NR_STATS; i++)
		out[i] = xnb_stat(&vif->saved, i);
	*unsupported = vif->saved_unsupported;

	for (j = 0; j < READ_ONCE(vif->num_queues); j++) {
		struct xnb_queue *q = &vif->queues[j];
		u64 v[XNB_NR_STATS];

		do {
			start = u64_stats_fetch_begin(&q->stats.sync);
			for (i = 0; i < XNB_NR_STATS; i++)
				v[i] = xnb_stat(&q->stats, i);
		} while (u64_stats_fetch_retry(&q->stats.sync, start));
		for (i = 0; i < XNB_NR_STATS; i++)
			out[i] += v[i];
		*unsupported += atomic_long_read(&q->unsupported_dropped);
	}
}

/**
 * xnb_stats_save() - Keep a connection's counters past its end.
 * @vif: the vif, its queues quiesced and about to go
 * Context: stats_lock held.
 */
void xnb_stats_save(struct xnb_vif *vif)
	__must_hold(&vif->stats_lock)
{
	u64 v[XNB_NR_STATS], xd;
	unsigned int i;

	lockdep_assert_held(&vif->stats_lock);
	xnb_stats_sum(vif, v, &xd);
	for (i = 0; i < XNB_NR_STATS; i++)
		u64_stats_set(xnb_stat_at(&vif->saved, xnb_stat_descs[i].offset),
			      v[i]);
	vif->saved_unsupported = xd;
}

/**
 * xnb_get_stats64() - The vif's counters as netdev stats (ndo_get_stats64).
 * @dev: the vif's netdev
 * @s: filled with dom0's view: what the guest sent, the vif received
 * Context: IRQs enabled; takes stats_lock against the queues' freeing.
 */
void xnb_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *s)
{
	struct xnb_vif *vif = netdev_priv(dev);
	u64 v[XNB_NR_STATS], xd;
	struct xnb_queue_stats sum;
	unsigned int i;

	spin_lock_bh(&vif->stats_lock);
	xnb_stats_sum(vif, v, &xd);
	spin_unlock_bh(&vif->stats_lock);

	/* Back into a struct, to read by field name. */
	for (i = 0; i < XNB_NR_STATS; i++)
		u64_stats_set(xnb_stat_at(&sum, xnb_stat_descs[i].offset), v[i]);
	s->rx_packets = u64_stats_read(&sum.tx_packets);
	s->rx_bytes = u64_stats_read(&sum.tx_bytes);
	s->rx_dropped = u64_stats_read(&sum.tx_dropped);
	s->rx_errors = u64_stats_read(&sum.tx_errors);
	s->tx_packets = u64_stats_read(&sum.rx_packets);
	s->tx_bytes = u64_stats_read(&sum.rx_bytes);
	/* dev_get_stats() adds the core counters (drops with no queue). */
	s->tx_dropped = u64_stats_read(&sum.rx_dropped) + xd;
	s->tx_errors = u64_stats_read(&sum.rx_errors);
}

/* Set under rtnl, so one ethtool request's count and values agree. */
static unsigned int xnb_queue_rows(struct xnb_vif *vif)
{
	ASSERT_RTNL();
	return vif->stats_queues;
}

int xnb_get_sset_count(struct net_device *dev, int sset)
{
	if (sset != ETH_SS_STATS)
		return -EINVAL;
	return XNB_NR_STATS + XNB_NR_ROWS +
	       xnb_queue_rows(netdev_priv(dev)) * XNB_QUEUE_ROWS;
}

void xnb_get_strings(struct net_device *dev, u32 sset, u8 *data)
{
	unsigned int i, j, n;

	if (sset != ETH_SS_STATS)
		return;
	for (i = 0; i < XNB_NR_STATS; i++, data += ETH_GSTRING_LEN)
		memcpy(data, xnb_stat_descs[i].name, ETH_GSTRING_LEN);
	for (i = 0; i < XNB_NR_ROWS; i++, data += ETH_GSTRING_LEN)
		memcpy(data, xnb_row_names[i], ETH_GSTRING_LEN);
	n = xnb_queue_rows(netdev_priv(dev));
	for (i = 0; i < n; i++) {
		ethtool_sprintf(&data, "q%u_group", i);
		for (j = 0; j < XNB_NR_QSTATS; j++)
			ethtool_sprintf(&data, "q%u_%s", i,
					xnb_queue_descs[j].name);
	}
}

static void xnb_queue_values(struct xnb_queue *q, u64 *out)
{
	const struct xnb_queue_stats *s = &q->stats;
	unsigned int j, start;

	out[0] = READ_ONCE(q->last_group);
	do {
		start = u64_stats_fetch_begin(&s->sync);
		for (j = 0; j < XNB_NR_QSTATS; j++)
			out[1 + j] = xnb_stat_read(s, xnb_queue_descs[j].offset);
	} while (u64_stats_fetch_retry(&s->sync, start));
}

void xnb_get_ethtool_stats(struct net_device *dev,
			   struct ethtool_stats *stats, u64 *data)
{
	struct xnb_vif *vif = netdev_priv(dev);
	u64 *rows = data + XNB_NR_STATS + XNB_NR_ROWS;
	unsigned int i, n, nr_rows = xnb_queue_rows(vif);
	u64 xd;

	spin_lock_bh(&vif->stats_lock);
	xnb_stats_sum(vif, data, &xd);
	n = READ_ONCE(vif->num_queues);
	data[XNB_NR_STATS + XNB_ROW_QUEUES] = n;
	/* stats_lock keeps the queues; rtnl keeps the rows within them. */
	for (i = 0; i < nr_rows; i++, rows += XNB_QUEUE_ROWS) {
		if (WARN_ON_ONCE(i >= n))
			memset(rows, 0, XNB_QUEUE_ROWS * sizeof(*rows));
		else
			xnb_queue_values(&vif->queues[i], rows);
	}
	spin_unlock_bh(&vif->stats_lock);
	/* The zerocopy and frag rows stay 0: the core zeroes the buffer. */
	data[XNB_NR_STATS + XNB_ROW_UNSUPPORTED] = xd;
	data[XNB_NR_STATS + XNB_ROW_DISABLED] = READ_ONCE(vif->disabled);
}

/* Read-only: the guest chooses, up to our offer.  Combined: TX and RX. */
void xnb_get_channels(struct net_device *dev,
		      struct ethtool_channels *ch)
{
	struct xnb_vif *vif = netdev_priv(dev);

	ch->max_combined = READ_ONCE(vif->max_queues);
	ch->combined_count = xnb_queue_rows(vif);
}

/**
 * xnb_vif_update_carrier() - Set the carrier from the vif's state.
 * @vif: the vif
 * Context: IRQs enabled; carrier_lock keeps racing decisions in order.
 */
void xnb_vif_update_carrier(struct xnb_vif *vif)
{
	bool on;

	spin_lock_bh(&vif->carrier_lock);
	on = READ_ONCE(vif->connected) && !READ_ONCE(vif->disabled) &&
	     !atomic_read(&vif->stalled_queues);
	if (on)
		netif_carrier_on(vif->dev);
	else
		netif_carrier_off(vif->dev);
	spin_unlock_bh(&vif->carrier_lock);
}

void xnb_vif_log_missed(struct xnb_vif *vif)
{
	int missed = atomic_xchg(&vif->log_missed, 0);

	if (missed)
		netdev_warn(vif->dev, "%d messages about the guest suppressed\n",
			    missed);
}

/**
 * xnb_vif_log_ok() - May a line the guest brought about be logged now?
 * @vif: the vif the line is about
 * Return: true within the vif's budget, after logging the lines suppressed.
 */
bool xnb_vif_log_ok(struct xnb_vif *vif)
{
	if (!__ratelimit(&vif->log_rl)) {
		atomic_inc(&vif->log_missed);
		return false;
	}
	xnb_vif_log_missed(vif);
	return true;
}

/**
 * xnb_vif_fatal() - Disable the vif until the guest reconnects.
 * @vif: the vif
 * @why: the guest's protocol violation, for the log
 * Context: A group's poll or the control ring's work; takes carrier_lock.
 */
void xnb_vif_fatal(struct xnb_vif *vif, const char *why)
{
	if (READ_ONCE(vif->disabled))
		return;
	WRITE_ONCE(vif->disabled, true);
	trace_xnb_vif_disabled(vif->dev->name, vif->domid, why);
	if (__ratelimit(&vif->fatal_rl))
		pr_err("%s: frontend of domain %u broke the protocol, vif disabled: %s\n",
		       vif->dev->name, vif->domid, why);
	xnb_vif_update_carrier(vif);
}
