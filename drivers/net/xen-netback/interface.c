// SPDX-License-Identifier: GPL-2.0
/* The vif: its netdev, its queues' rings and event channels. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/etherdevice.h>
#include <linux/ethtool.h>
#include <linux/if_vlan.h>
#include <linux/rtnetlink.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <xen/events.h>

#include "common.h"

/* Per vif, unlike net_ratelimit(): a guest cannot hide another's lines. */
#define XNB_LOG_INTERVAL	(5 * HZ)
#define XNB_LOG_BURST		10

static int xnb_open(struct net_device *dev)
{
	netif_tx_start_all_queues(dev);
	return 0;
}

static int xnb_stop(struct net_device *dev)
{
	netif_tx_stop_all_queues(dev);
	return 0;
}

/* Racy with a connect (rtnl only): xnb_vif_start() updates them after. */
static netdev_features_t xnb_fix_features(struct net_device *dev,
					  netdev_features_t features)
{
	struct xnb_vif *vif = netdev_priv(dev);

	if (!READ_ONCE(vif->can_sg))
		features &= ~NETIF_F_SG;
	if (!READ_ONCE(vif->gso_tcpv4))
		features &= ~NETIF_F_TSO;
	if (!READ_ONCE(vif->gso_tcpv6))
		features &= ~NETIF_F_TSO6;
	if (!READ_ONCE(vif->ip_csum))
		features &= ~NETIF_F_IP_CSUM;
	if (!READ_ONCE(vif->ipv6_csum))
		features &= ~NETIF_F_IPV6_CSUM;
	return features;
}

static int xnb_change_mtu(struct net_device *dev, int mtu)
{
	struct xnb_vif *vif = netdev_priv(dev);

	/* Without SG a packet must fit one page; xnb_vif_start() rechecks. */
	if (!READ_ONCE(vif->can_sg) && mtu > ETH_DATA_LEN)
		return -EINVAL;
	dev->mtu = mtu;
	return 0;
}

static const struct net_device_ops xnb_netdev_ops = {
	.ndo_open = xnb_open,
	.ndo_stop = xnb_stop,
	.ndo_start_xmit = xnb_start_xmit,
	.ndo_select_queue = xnb_select_queue,
	.ndo_get_stats64 = xnb_get_stats64,
	.ndo_fix_features = xnb_fix_features,
	.ndo_change_mtu = xnb_change_mtu,
	.ndo_set_mac_address = eth_mac_addr,
	.ndo_validate_addr = eth_validate_addr,
};

static const struct ethtool_ops xnb_ethtool_ops = {
	.supported_coalesce_params = ETHTOOL_COALESCE_RX_USECS |
				     ETHTOOL_COALESCE_RX_MAX_FRAMES |
				     ETHTOOL_COALESCE_USE_ADAPTIVE_RX,
	.get_coalesce = xnb_get_coalesce,
	.set_coalesce = xnb_set_coalesce,
	.get_link = ethtool_op_get_link,
	.get_sset_count = xnb_get_sset_count,
	.get_strings = xnb_get_strings,
	.get_ethtool_stats = xnb_get_ethtool_stats,
	.get_channels = xnb_get_channels,
};

#define XNB_TX_QUEUE_LEN	32

/**
 * xnb_vif_create() - Create and register a vif's netdev, carrier off.
 * @xbdev: the backend's xenbus device
 * @domid: the guest's domain
 * @handle: the vif's number in the guest
 *
 * Context: Process context (probe), sleeps; takes rtnl.
 * Return: the vif, or an ERR_PTR().
 */
struct xnb_vif *xnb_vif_create(struct xenbus_device *xbdev, domid_t domid,
			       unsigned int handle)
{
	static const u8 dummy_mac[ETH_ALEN] = {
		0xfe, 0xff, 0xff, 0xff, 0xff, 0xff
	};
	struct net_device *dev;
	struct xnb_vif *vif;
	char name[IFNAMSIZ];
	int err;

	snprintf(name, sizeof(name), "vif%u.%u", domid, handle);
	dev = alloc_netdev_mq(sizeof(*vif), name, NET_NAME_PREDICTABLE,
			      ether_setup, READ_ONCE(xnb_max_queues));
	if (!dev)
		return ERR_PTR(-ENOMEM);

	vif = netdev_priv(dev);
	vif->dev = dev;
	vif->xbdev = xbdev;
	vif->domid = domid;
	vif->handle = handle;
	/* So the hotplug script may set a jumbo MTU; rechecked at connect. */
	vif->can_sg = true;
	vif->pinned_group = -1;
	spin_lock_init(&vif->credit_lock);
	spin_lock_init(&vif->carrier_lock);
	spin_lock_init(&vif->stats_lock);
	atomic_set(&vif->stalled_queues, 0);
	ratelimit_state_init(&vif->log_rl, XNB_LOG_INTERVAL, XNB_LOG_BURST);
	/* xnb_vif_log_missed() prints a line that names the vif. */
	ratelimit_set_flags(&vif->log_rl, RATELIMIT_MSG_ON_RELEASE);
	atomic_set(&vif->log_missed, 0);
	ratelimit_state_init(&vif->fatal_rl, XNB_LOG_INTERVAL, XNB_LOG_BURST);
	xnb_ctrl_init(vif);
	vif->coal.adaptive = true;
	vif->coal.usecs = XNB_COAL_USECS_DEF;
	vif->coal.frames = XNB_COAL_FRAMES_DEF;

	SET_NETDEV_DEV(dev, &xbdev->dev);
	dev->netdev_ops = &xnb_netdev_ops;
	dev->ethtool_ops = &xnb_ethtool_ops;
	dev->hw_features = NETIF_F_SG | NETIF_F_IP_CSUM | NETIF_F_IPV6_CSUM |
			   NETIF_F_TSO | NETIF_F_TSO6;
	dev->features = dev->hw_features | NETIF_F_RXCSUM;
	/* A short qdisc: the RX queue behind it buffers already. */
	dev->tx_queue_len = XNB_TX_QUEUE_LEN;
	dev->min_mtu = ETH_MIN_MTU;
	dev->max_mtu = ETH_MAX_MTU - VLAN_ETH_HLEN;
	/* Not tso_max_segs, which would keep the admin from raising it. */
	dev->gso_max_segs = XNB_GSO_MAX_SEGS;
	eth_hw_addr_set(dev, dummy_mac);
	netif_set_real_num_tx_queues(dev, 1);
	netif_carrier_off(dev);

	err = register_netdev(dev);
	if (err) {
		free_netdev(dev);
		return ERR_PTR(err);
	}
	return vif;
}

/**
 * xnb_vif_alloc_queues() - Allocate a connection's queues.
 * @vif: the vif, not connected and without queues
 * @n: the number of queues the frontend asked for
 *
 * Context: Backend lock held, sleeps.
 * Return: 0 or -ENOMEM.
 */
int xnb_vif_alloc_queues(struct xnb_vif *vif, unsigned int n)
{
	struct xnb_queue *queues;
	unsigned int i;

	xnb_backend_assert_held(vif);
	queues = kvcalloc(n, sizeof(*queues), GFP_KERNEL);
	if (!queues)
		return -ENOMEM;

	for (i = 0; i < n; i++) {
		struct xnb_queue *q = &queues[i];

		q->vif = vif;
		q->id = i;
		snprintf(q->name, sizeof(q->name), "%s-q%u", vif->dev->name, i);
		INIT_LIST_HEAD(&q->group_node);
		INIT_LIST_HEAD(&q->active_node);
		INIT_LIST_HEAD(&q->settle_node);
		skb_queue_head_init(&q->rx_skbs);
		atomic_set(&q->rx_bytes_queued, 0);
		atomic_long_set(&q->unsupported_dropped, 0);
		timer_setup(&q->credit_timer, xnb_credit_timer_fn, 0);
		timer_setup(&q->stall_timer, xnb_stall_timer_fn, 0);
		xnb_rxmod_init(q);
		xnb_backoff_init(&q->backoff[XNB_DIR_TX]);
		xnb_backoff_init(&q->backoff[XNB_DIR_RX]);
		u64_stats_init(&q->stats.sync);
	}
	spin_lock_bh(&vif->stats_lock);
	vif->queues = queues;
	WRITE_ONCE(vif->num_queues, n);
	spin_unlock_bh(&vif->stats_lock);
	return 0;
}

/* No IRQF_NOBALANCING: groupset.c places the irq, the admin may move it. */
static int xnb_bind(struct xnb_queue *q, unsigned int evtchn,
		    irq_handler_t handler)
{
	return bind_interdomain_evtchn_to_irqhandler_lateeoi(q->vif->xbdev,
							      evtchn, handler,
							      0, q->name, q);
}

/**
 * xnb_vif_connect_queue() - Map a queue's rings and bind its channels.
 * @q: the queue, allocated and in no group
 * @tx_ref: the grant of the guest TX ring
 * @rx_ref: the grant of the guest RX ring
 * @tx_evtchn: the guest's TX event channel
 * @rx_evtchn: the guest's RX event channel; @tx_evtchn if shared
 *
 * On failure xnb_vif_disconnect() undoes what was mapped or bound.
 *
 * Context: Backend lock held, sleeps.
 * Return: 0, -EINVAL for impossible ring indices, or a map or bind error.
 */
int xnb_vif_connect_queue(struct xnb_queue *q, grant_ref_t tx_ref,
			  grant_ref_t rx_ref, unsigned int tx_evtchn,
			  unsigned int rx_evtchn)
{
	struct xnb_vif *vif = q->vif;
	struct xen_netif_tx_sring *txs;
	struct xen_netif_rx_sring *rxs;
	void *addr;
	int err;

	xnb_backend_assert_held(vif);
	err = xenbus_map_ring_valloc(vif->xbdev, &tx_ref, 1, &addr);
	if (err)
		return err;
	txs = addr;
	BACK_RING_ATTACH(&q->tx, txs, READ_ONCE(txs->rsp_prod), XEN_PAGE_SIZE);

	err = xenbus_map_ring_valloc(vif->xbdev, &rx_ref, 1, &addr);
	if (err)
		return err;
	rxs = addr;
	BACK_RING_ATTACH(&q->rx, rxs, READ_ONCE(rxs->rsp_prod), XEN_PAGE_SIZE);

	q->tx_prod_eoi = q->tx.rsp_prod_pvt;
	q->tx_pushed = q->tx.rsp_prod_pvt;
	q->rx_pushed = q->rx.rsp_prod_pvt;

	/* Indices that describe no possible ring: refuse to connect. */
	if (!xnb_ring_sane(READ_ONCE(txs->req_prod), q->tx.rsp_prod_pvt,
			   XNB_TX_RING_SIZE) ||
	    !xnb_ring_sane(READ_ONCE(rxs->req_prod), q->rx.rsp_prod_pvt,
			   XNB_RX_RING_SIZE))
		return -EINVAL;

	err = xnb_bind(q, tx_evtchn, tx_evtchn == rx_evtchn ?
		       xnb_interrupt : xnb_tx_interrupt);
	if (err < 0)
		return err;
	q->tx_irq = err;
	if (tx_evtchn == rx_evtchn) {
		q->rx_irq = err;
		return 0;
	}
	err = xnb_bind(q, rx_evtchn, xnb_rx_interrupt);
	if (err < 0)
		return err;
	q->rx_irq = err;
	return 0;
}

/* No lock: the file's removal waits for readers, and precedes the unmap. */
static int xnb_io_ring_show(struct seq_file *m, void *v)
{
	struct xnb_queue *q = m->private;
	const struct xen_netif_tx_sring *ts = q->tx.sring;
	const struct xen_netif_rx_sring *rs = q->rx.sring;

	seq_printf(m, "queue %u (%s) group %d tx_irq %u rx_irq %u\n", q->id,
		   q->name, xnb_queue_group_index(q), q->tx_irq, q->rx_irq);
	seq_printf(m, "tx: req_prod %u req_cons %u req_event %u rsp_prod_pvt %u rsp_prod %u rsp_event %u\n",
		   READ_ONCE(ts->req_prod), READ_ONCE(q->tx.req_cons),
		   READ_ONCE(ts->req_event),
		   data_race(q->tx.rsp_prod_pvt),	/* written plainly */
		   READ_ONCE(ts->rsp_prod), READ_ONCE(ts->rsp_event));
	seq_printf(m, "rx: req_prod %u req_cons %u req_event %u rsp_prod_pvt %u rsp_prod %u rsp_event %u\n",
		   READ_ONCE(rs->req_prod), READ_ONCE(q->rx.req_cons),
		   READ_ONCE(rs->req_event),
		   data_race(q->rx.rsp_prod_pvt),	/* written plainly */
		   READ_ONCE(rs->rsp_prod), READ_ONCE(rs->rsp_event));
	seq_printf(m, "tx_held %d rx_blocked %d rx_skbs %u rx_bytes_queued %d\n",
		   READ_ONCE(q->tx_held), !!READ_ONCE(q->rx_blocked_since),
		   skb_queue_len_lockless(&q->rx_skbs),
		   atomic_read(&q->rx_bytes_queued));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(xnb_io_ring);

/* Named as the xenbus device, which no netdev rename changes. */
static void xnb_vif_debugfs_add(struct xnb_vif *vif)
{
	char name[sizeof("vif--") + 2 * 10];
	unsigned int i;

	xnb_backend_assert_held(vif);
	snprintf(name, sizeof(name), "vif-%u-%u", vif->domid, vif->handle);
	vif->debugfs = debugfs_create_dir(name, xnb_debugfs_dir);
	for (i = 0; i < vif->num_queues; i++) {
		snprintf(name, sizeof(name), "io_ring_q%u", i);
		/* Root only: the guest's ring state is no one else's. */
		debugfs_create_file(name, 0600, vif->debugfs, &vif->queues[i],
				    &xnb_io_ring_fops);
	}
}

/**
 * xnb_vif_start() - Open a connected vif for traffic.
 * @vif: the vif, every queue connected
 *
 * Context: Backend lock held, sleeps; takes rtnl and the groups' locks.
 */
void xnb_vif_start(struct xnb_vif *vif)
{
	struct net_device *dev = vif->dev;
	unsigned int i;

	xnb_backend_assert_held(vif);
	rtnl_lock();
	netif_set_real_num_tx_queues(dev, vif->num_queues);
	netdev_update_features(dev);
	if (!vif->can_sg && dev->mtu > ETH_DATA_LEN)
		dev_set_mtu(dev, ETH_DATA_LEN);
	rtnl_unlock();

	/* A control ring overflowed before we started stays fatal. */
	WRITE_ONCE(vif->disabled, READ_ONCE(vif->ctrl_dead));
	/* Release: xnb_start_xmit() then sees the queues and features. */
	smp_store_release(&vif->connected, true);
	for (i = 0; i < vif->num_queues; i++)
		xnb_group_attach(&vif->queues[i], vif->pinned_group);
	/* ethtool's per-queue rows once each queue has its group. */
	rtnl_lock();
	vif->stats_queues = vif->num_queues;
	rtnl_unlock();
	xnb_vif_debugfs_add(vif);
	xnb_vif_update_carrier(vif);
	netif_tx_wake_all_queues(dev);
}

/**
 * xnb_vif_set_pinned() - Pin a vif's queues to a group ("worker-group").
 * @vif: the vif
 * @group: the group's index, or -1 to unpin
 *
 * Unpinned with the balancer on, the queues stay put until it moves them.
 *
 * Context: Backend lock held, sleeps.
 */
void xnb_vif_set_pinned(struct xnb_vif *vif, int group)
{
	xnb_backend_assert_held(vif);
	WRITE_ONCE(vif->pinned_group, group);
	if (vif->connected && (group >= 0 || !READ_ONCE(xnb_rebalance_ms)))
		xnb_vif_replace(vif, group);
}

static void xnb_queue_release(struct xnb_queue *q)
{
	struct xnb_vif *vif = q->vif;

	/* The worker first: it EOIs and notifies through the irqs. */
	xnb_group_detach(q);
	/* With handlers and worker gone, no EOI is held back again. */
	if (q->tx_irq)
		disable_irq(q->tx_irq);
	if (q->rx_irq && q->rx_irq != q->tx_irq)
		disable_irq(q->rx_irq);
	xnb_backoff_stop(&q->backoff[XNB_DIR_TX]);
	xnb_backoff_stop(&q->backoff[XNB_DIR_RX]);
	if (q->tx_irq)
		unbind_from_irqhandler(q->tx_irq, q);
	if (q->rx_irq && q->rx_irq != q->tx_irq)
		unbind_from_irqhandler(q->rx_irq, q);
	q->tx_irq = 0;
	q->rx_irq = 0;
	timer_delete_sync(&q->credit_timer);
	timer_delete_sync(&q->stall_timer);
	/* net_dim's work writes the queue: stop it before the free. */
	xnb_rxmod_stop(q);
	xnb_rx_purge(q);
	if (q->stalled)
		atomic_dec(&vif->stalled_queues);

	if (q->tx.sring)
		xenbus_unmap_ring_vfree(vif->xbdev, q->tx.sring);
	if (q->rx.sring)
		xenbus_unmap_ring_vfree(vif->xbdev, q->rx.sring);
	q->tx.sring = NULL;
	q->rx.sring = NULL;
}

/**
 * xnb_vif_disconnect() - Take a vif's connection down; the netdev stays.
 * @vif: the vif; nothing happens without queues
 *
 * Context: Backend lock held, sleeps; takes rtnl and the groups' locks.
 */
void xnb_vif_disconnect(struct xnb_vif *vif)
{
	struct net_device *dev = vif->dev;
	struct xnb_queue *queues;
	unsigned int i;

	xnb_backend_assert_held(vif);
	if (!vif->queues)
		return;

	/* Only we write it: if 0 already, skip the wait for rtnl. */
	if (vif->stats_queues) {
		rtnl_lock();
		vif->stats_queues = 0;
		rtnl_unlock();
	}
	/* Before the queues go: waits for reads under way. */
	debugfs_remove_recursive(vif->debugfs);
	vif->debugfs = NULL;
	WRITE_ONCE(vif->connected, false);
	xnb_vif_update_carrier(vif);
	netif_tx_disable(dev);
	synchronize_net();
	/* Before the queues: its requests are judged by their count. */
	xnb_ctrl_disconnect(vif);

	for (i = 0; i < vif->num_queues; i++)
		xnb_queue_release(&vif->queues[i]);

	spin_lock_bh(&vif->stats_lock);
	xnb_stats_save(vif);
	queues = vif->queues;
	WRITE_ONCE(vif->num_queues, 0);
	vif->queues = NULL;
	spin_unlock_bh(&vif->stats_lock);
	kvfree(queues);
}

/**
 * xnb_vif_destroy() - Disconnect, unregister and free a vif.
 * @vif: the vif, freed on return
 *
 * Context: Backend lock held, sleeps; takes rtnl.
 */
void xnb_vif_destroy(struct xnb_vif *vif)
{
	struct net_device *dev = vif->dev;

	xnb_backend_assert_held(vif);
	xnb_vif_disconnect(vif);
	/* Only now: a guest could add entries until the queues left groups. */
	xnb_mcast_clear(vif);
	xnb_vif_log_missed(vif);
	unregister_netdev(dev);
	free_netdev(dev);
}
