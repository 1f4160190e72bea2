// SPDX-License-Identifier: GPL-2.0
/*
 * The guest's multicast filter (feature-multicast-control).
 *
 * The guest adds and removes addresses with MCAST_ADD/DEL extras on
 * dummy TX requests (tx.c, in the group worker of whichever queue
 * carried them); while it sets request-multicast-control, multicast
 * frames for it whose destination is not in the list are dropped in
 * xnb_start_xmit (any CPU, BH off).
 *
 * Locking: an RCU list.  The reader is the transmit path, per packet,
 * on every CPU at once: it must not share a lock with the others or
 * with the writers.  Writers are rare (a guest changing its groups)
 * but may be several group workers at once (a vif's queues can sit in
 * different groups), so they serialise on mcast.lock; removed entries
 * are freed after a grace period.
 *
 * Bounded as stock at XNB_MCAST_MAX entries, duplicates included.  An
 * ADD beyond the bound is refused (RSP_ERROR, as stock) and from then
 * on the vif floods multicast to the guest until its list is empty
 * again or it reconnects: stock keeps filtering on the 64 it has, and
 * the guest silently loses the groups it could not add.
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

/**
 * xnb_mcast_init() - Set up a vif's empty multicast filter.
 * @vif: the vif, just created
 *
 * Context: Process context (probe).
 */
void xnb_mcast_init(struct xnb_vif *vif)
{
	spin_lock_init(&vif->mcast.lock);
	INIT_LIST_HEAD(&vif->mcast.addrs);
	vif->mcast.count = 0;
	vif->mcast.flood = false;
}

/**
 * xnb_mcast_add() - Add an address to the guest's multicast filter.
 * @vif: the vif
 * @addr: the group address (MCAST_ADD)
 *
 * Context: A group's poll (BH off): the guest's request came on one of
 * the vif's queues.  Takes the vif's mcast lock; never sleeps.
 * Return: 0; -EINVAL for an address that is not multicast; -ENOMEM; or
 * -ENOSPC when the list is full, after which the vif floods multicast
 * to the guest.
 */
int xnb_mcast_add(struct xnb_vif *vif, const u8 *addr)
{
	struct xnb_mcast *mc = &vif->mcast;
	struct xnb_mcast_addr *m;

	/* Only group addresses are filtered; a unicast one is a guest
	 * error (stock would store it, to no effect).
	 */
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

/**
 * xnb_mcast_del() - Remove an address from the guest's multicast filter.
 * @vif: the vif
 * @addr: the group address (MCAST_DEL)
 *
 * Removes one entry for @addr, if any: deleting an absent address is
 * not an error (stock answers it OKAY too).  An empty list ends the
 * flooding.
 *
 * Context: A group's poll (BH off).  Takes the vif's mcast lock.
 */
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

/**
 * xnb_mcast_clear() - Empty the guest's multicast filter.
 * @vif: the vif
 *
 * At disconnect and remove: the next connection starts empty.
 *
 * Context: Process context (the xenbus thread).  Takes the vif's mcast
 * lock.
 */
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

/**
 * xnb_mcast_wanted() - Whether the guest takes a multicast frame.
 * @vif: the vif
 * @dest: the frame's group address
 *
 * Context: The transmit path (BH off), any CPU.  An RCU reader of the
 * list, no lock.
 * Return: true when @dest is in the list or the vif floods multicast.
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
