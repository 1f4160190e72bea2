// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's multicast filter: an RCU list read by the transmit path and
 * written under mcast.lock.  Past XNB_MCAST_MAX the vif floods multicast
 * until the list is empty, so the guest loses no group.
 */
#include <linux/etherdevice.h>
#include <linux/rculist.h>
#include <linux/slab.h>

#include "common.h"

struct xnb_mcast_addr {
	struct list_head node;
	struct rcu_head rcu;
	u8 addr[ETH_ALEN];
};

/* A new vif's empty filter. */
void xnb_mcast_init(struct xnb_vif *vif)
{
	spin_lock_init(&vif->mcast.lock);
	INIT_LIST_HEAD(&vif->mcast.addrs);
	vif->mcast.count = 0;
	vif->mcast.flood = false;
}

/* MCAST_ADD, from a group's poll; takes mcast.lock.  Returns 0, -EINVAL (not
 * multicast), -ENOMEM, or -ENOSPC (list full: the vif now floods multicast).
 */
int xnb_mcast_add(struct xnb_vif *vif, const u8 *addr)
{
	struct xnb_mcast *mc = &vif->mcast;
	struct xnb_mcast_addr *m;

	if (!is_multicast_ether_addr(addr))
		return -EINVAL;
	/* Never sleeps: the group worker may be a tasklet. */
	m = kmalloc(sizeof(*m), GFP_NOWAIT | __GFP_NOWARN);
	if (!m)
		return -ENOMEM;
	memcpy(m->addr, addr, ETH_ALEN);

	spin_lock_bh(&mc->lock);
	if (mc->count >= XNB_MCAST_MAX) {
		WRITE_ONCE(mc->flood, true);
		spin_unlock_bh(&mc->lock);
		kfree(m);
		if (xnb_vif_log_ok(vif))
			pr_warn("%s: more than %u multicast addresses, flooding multicast\n",
				vif->dev->name, XNB_MCAST_MAX);
		return -ENOSPC;
	}
	list_add_tail_rcu(&m->node, &mc->addrs);
	mc->count++;
	spin_unlock_bh(&mc->lock);
	return 0;
}

/* MCAST_DEL of one entry, if any, from a group's poll; takes mcast.lock. */
void xnb_mcast_del(struct xnb_vif *vif, const u8 *addr)
{
	struct xnb_mcast *mc = &vif->mcast;
	struct xnb_mcast_addr *m;

	spin_lock_bh(&mc->lock);
	list_for_each_entry(m, &mc->addrs, node) {
		if (ether_addr_equal_unaligned(m->addr, addr)) {
			list_del_rcu(&m->node);
			kfree_rcu(m, rcu);
			mc->count--;
			break;
		}
	}
	if (!mc->count)
		WRITE_ONCE(mc->flood, false);
	spin_unlock_bh(&mc->lock);
}

/* Empty the filter, in process context; takes mcast.lock. */
void xnb_mcast_clear(struct xnb_vif *vif)
{
	struct xnb_mcast *mc = &vif->mcast;
	struct xnb_mcast_addr *m, *n;

	spin_lock_bh(&mc->lock);
	list_for_each_entry_safe(m, n, &mc->addrs, node) {
		list_del_rcu(&m->node);
		kfree_rcu(m, rcu);
	}
	mc->count = 0;
	WRITE_ONCE(mc->flood, false);
	spin_unlock_bh(&mc->lock);
}

/* The transmit path, any CPU, as an RCU reader without the lock: the guest
 * takes a frame to @dest when it is listed or the vif floods multicast.
 */
bool xnb_mcast_wanted(struct xnb_vif *vif, const u8 *dest)
{
	struct xnb_mcast_addr *m;
	bool found = false;

	if (READ_ONCE(vif->mcast.flood))
		return true;
	rcu_read_lock();
	list_for_each_entry_rcu(m, &vif->mcast.addrs, node) {
		if (ether_addr_equal_unaligned(m->addr, dest)) {
			found = true;
			break;
		}
	}
	rcu_read_unlock();
	return found;
}
