// SPDX-License-Identifier: GPL-2.0
/*
 * The xenbus "vif" backend: negotiation, the state machine and the admin's
 * keys on the backend node, which the guest cannot write.  Callbacks run
 * in the xenwatch thread or connect_work, ordered by be->lock.
 */
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/ktime.h>
#include <linux/ratelimit.h>
#include <linux/workqueue.h>

#include "common.h"

/* Locking: lock guards all but dev (fixed), msg_rs (own lock) and
 * mcast_queued (atomic, set by the xenbus core's reader thread).
 */
struct xnb_backend {
	struct xenbus_device *dev;
	struct xnb_vif *vif;
	struct mutex lock;	/* state changes vs. watches vs. remove */
	bool hotplug_ok;	/* the hotplug script said "connected" */
	bool want_connected;	/* connected, waiting for the script */
	/* Offered at the last InitWait: a connection keeps its offer. */
	unsigned int max_queues;
	bool split_evtchn;
	bool xdp_offer;		/* feature-xdp-headroom */
	struct xenbus_watch rate_watch;
	struct xenbus_watch group_watch;
	struct xenbus_watch hotplug_watch;
	struct xenbus_watch mcast_watch;	/* frontend's, when connected */
	/* An event of mcast_watch is queued (xnb_mcast_will_handle()). */
	atomic_t mcast_queued;
	/* Budget of guest-driven messages, and how many it suppressed. */
	struct ratelimit_state msg_rs;
	unsigned int msg_missed;
	/* Row 10h: failed connects in a row, the last one's time (ms). */
	unsigned int connect_fails;
	u64 connect_last;
	/* Row 10d: quick reconnects; connect_work takes up a held Connected. */
	struct xnb_reconnect reconnect;
	struct delayed_work connect_work;
	bool connect_queued;
};

#define XNB_MSG_INTERVAL	(10 * HZ)
#define XNB_MSG_BURST		5

/* lockdep: @vif's backend lock is held (probe sets the drvdata first). */
void xnb_backend_assert_held(struct xnb_vif *vif)
{
	struct xnb_backend *be = dev_get_drvdata(&vif->xbdev->dev);

	lockdep_assert_held(&be->lock);
}

/* Within the budget; first says how many were suppressed. */
static bool xnb_guest_msg_ok(struct xnb_backend *be)
	__must_hold(&be->lock)
{
	lockdep_assert_held(&be->lock);
	if (!__ratelimit(&be->msg_rs)) {
		be->msg_missed++;
		return false;
	}
	if (be->msg_missed) {
		dev_warn(&be->dev->dev,
			 "%u messages about the frontend suppressed\n",
			 be->msg_missed);
		be->msg_missed = 0;
	}
	return true;
}

/* Past the budget only Closing: a looping guest floods no log or node. */
static __printf(3, 4)
void xnb_fatal(struct xnb_backend *be, int err, const char *fmt, ...)
	__must_hold(&be->lock)
{
	struct va_format vaf;
	va_list ap;

	if (!xnb_guest_msg_ok(be)) {
		xenbus_switch_state(be->dev, XenbusStateClosing);
		return;
	}
	va_start(ap, fmt);
	vaf.fmt = fmt;
	vaf.va = &ap;
	xenbus_dev_fatal(be->dev, err, "%pV", &vaf);
	va_end(ap);
}

/* At each InitWait, so changed parameters apply to the next connection;
 * multi-queue-max-queues no more than the netdev was made with.
 */
static int xnb_write_features(struct xnb_backend *be)
	__must_hold(&be->lock)
{
	bool split = READ_ONCE(xnb_separate_tx_rx_irq);
	bool xdp = READ_ONCE(xnb_provides_xdp_headroom);
	unsigned int max_queues = min(READ_ONCE(xnb_max_queues),
				      be->vif ? be->vif->dev->num_tx_queues :
						UINT_MAX);
	const struct {
		const char *key;
		unsigned int val;
	} keys[] = {
		{ "feature-sg", 1 }, { "feature-gso-tcpv4", 1 },
		{ "feature-gso-tcpv6", 1 }, { "feature-ipv6-csum-offload", 1 },
		{ "feature-rx-copy", 1 }, { "feature-ctrl-ring", 1 },
		{ "feature-multicast-control", 1 },
		{ "feature-dynamic-multicast-control", 1 },
		{ "feature-rx-flip", 0 },
		{ "feature-split-event-channels", split },
		{ "multi-queue-max-queues", max_queues },
		{ "feature-xdp-headroom", xdp },
	};
	struct xenbus_transaction xbt;
	unsigned int i;
	int err;

	lockdep_assert_held(&be->lock);
again:
	err = xenbus_transaction_start(&xbt);
	if (err) {
		xnb_fatal(be, err, "starting transaction");
		return err;
	}
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		err = xenbus_printf(xbt, be->dev->nodename, keys[i].key, "%u",
				    keys[i].val);
		if (err) {
			xenbus_transaction_end(xbt, 1);
			xnb_fatal(be, err, "writing %s", keys[i].key);
			return err;
		}
	}
	err = xenbus_transaction_end(xbt, 0);
	if (err == -EAGAIN)
		goto again;
	if (err) {
		xnb_fatal(be, err, "completing transaction");
		return err;
	}
	be->split_evtchn = split;
	be->max_queues = max_queues;
	be->xdp_offer = xdp;
	/* ethtool -l's maximum. */
	if (be->vif)
		WRITE_ONCE(be->vif->max_queues, max_queues);
	return 0;
}

static void xnb_rate_changed(struct xenbus_watch *w, const char *path,
			     const char *token)
{
	struct xnb_backend *be = container_of(w, struct xnb_backend,
					      rate_watch);
	char *s, *comma;
	u64 bytes = 0;
	u32 usec = 0;

	s = xenbus_read(XBT_NIL, be->dev->nodename, "rate", NULL);
	if (!IS_ERR(s)) {
		/* "bytes,usec"; a zero period would refill constantly. */
		comma = strchr(s, ',');
		if (comma)
			*comma = '\0';
		if (!comma || kstrtou64(s, 10, &bytes) ||
		    kstrtou32(comma + 1, 10, &usec) || !usec) {
			if (comma)
				*comma = ',';	/* the whole value in the log */
			dev_warn_ratelimited(&be->dev->dev,
					     "ignoring invalid rate \"%.32s\"\n", s);
			kfree(s);
			return;
		}
		kfree(s);
	}
	/* No key: no limit. */
	mutex_lock(&be->lock);
	if (be->vif) {
		struct xnb_vif *vif = be->vif;
		unsigned int i;

		spin_lock_bh(&vif->credit_lock);
		xnb_credit_set(&vif->credit, bytes, usec,
			       ktime_to_us(ktime_get()));
		spin_unlock_bh(&vif->credit_lock);
		/* A queue held for credit under the old limit may go now. */
		for (i = 0; i < vif->num_queues; i++)
			xnb_group_kick_task(&vif->queues[i]);
	}
	mutex_unlock(&be->lock);
}

static void xnb_worker_group_changed(struct xenbus_watch *w,
				     const char *path, const char *token)
{
	struct xnb_backend *be = container_of(w, struct xnb_backend,
					      group_watch);
	/* A groups write may change it meanwhile: only a range check. */
	unsigned int v, nr = READ_ONCE(xnb_nr_groups);
	int group = -1;
	int n;

	n = xenbus_scanf(XBT_NIL, be->dev->nodename, "worker-group", "%u",
			 &v);
	if (n == 1 && v < nr) {
		group = v;
	} else if (n != -ENOENT) {
		dev_warn_ratelimited(&be->dev->dev,
				     "ignoring invalid worker-group (groups=%u)\n",
				     nr);
		return;
	}

	mutex_lock(&be->lock);
	if (be->vif && be->vif->pinned_group != group)
		xnb_vif_set_pinned(be->vif, group);
	mutex_unlock(&be->lock);
}

static void xnb_maybe_connected(struct xnb_backend *be)
	__must_hold(&be->lock)
{
	lockdep_assert_held(&be->lock);
	if (be->want_connected && be->hotplug_ok &&
	    be->dev->state != XenbusStateConnected)
		xenbus_switch_state(be->dev, XenbusStateConnected);
}

static void xnb_hotplug_changed(struct xenbus_watch *w, const char *path,
				const char *token)
{
	struct xnb_backend *be = container_of(w, struct xnb_backend,
					      hotplug_watch);
	char *s;

	/* Row H of the table above xnb_frontend_changed(). */
	s = xenbus_read(XBT_NIL, be->dev->nodename, "hotplug-status", NULL);
	if (IS_ERR(s))
		return;
	mutex_lock(&be->lock);
	if (!strcmp(s, "connected")) {
		be->hotplug_ok = true;
		xnb_maybe_connected(be);
	}
	mutex_unlock(&be->lock);
	kfree(s);
}

/* One queued event stands for any number of guest writes, so a guest
 * cannot grow the shared xenwatch queue (XSA-349).  Must not sleep.
 */
static bool xnb_mcast_will_handle(struct xenbus_watch *w, const char *path,
				  const char *token)
{
	struct xnb_backend *be = container_of(w, struct xnb_backend,
					      mcast_watch);

	return atomic_cmpxchg(&be->mcast_queued, 0, 1) == 0;
}

/* The guest's multicast filter switch: any value but a number is 0. */
static void xnb_mcast_ctrl_changed(struct xenbus_watch *w, const char *path,
				   const char *token)
{
	struct xnb_backend *be = container_of(w, struct xnb_backend,
					      mcast_watch);

	/* Before the read (a full barrier), so no later write goes unread. */
	atomic_xchg(&be->mcast_queued, 0);
	/* Registered only while connected, removed before be->vif goes. */
	WRITE_ONCE(be->vif->mcast_ctrl,
		   !!xenbus_read_unsigned(be->dev->otherend,
					  "request-multicast-control", 0));
}

/* Guest-chosen: clamped so a standard frame fits the first slot. */
static void xnb_read_xdp_headroom(struct xnb_backend *be)
	__must_hold(&be->lock)
{
	unsigned int hr = 0;

	lockdep_assert_held(&be->lock);
	if (be->xdp_offer &&
	    xenbus_scanf(XBT_NIL, be->dev->otherend, "xdp-headroom", "%u",
			 &hr) != 1)
		hr = 0;
	if (hr > XNB_RX_HEADROOM_MAX) {
		if (xnb_guest_msg_ok(be))
			dev_warn(&be->dev->dev,
				 "xdp-headroom %u above %u, using %u\n",
				 hr, XNB_RX_HEADROOM_MAX, XNB_RX_HEADROOM_MAX);
		hr = XNB_RX_HEADROOM_MAX;
	}
	WRITE_ONCE(be->vif->xdp_headroom, hr);
}

static int xnb_read_queue(struct xnb_backend *be, struct xnb_queue *q,
			  const char *path)
	__must_hold(&be->lock)
{
	unsigned int tx_ref, rx_ref, tx_evt, rx_evt;
	int err;

	lockdep_assert_held(&be->lock);
	err = xenbus_gather(XBT_NIL, path, "tx-ring-ref", "%u", &tx_ref,
			    "rx-ring-ref", "%u", &rx_ref, NULL);
	if (err) {
		xnb_fatal(be, err, "reading %s/ring-ref", path);
		return err;
	}
	err = xenbus_gather(XBT_NIL, path, "event-channel-tx", "%u", &tx_evt,
			    "event-channel-rx", "%u", &rx_evt, NULL);
	if (err || !be->split_evtchn) {
		err = xenbus_scanf(XBT_NIL, path, "event-channel", "%u",
				   &tx_evt);
		if (err != 1) {
			err = err < 0 ? err : -EINVAL;
			xnb_fatal(be, err, "reading %s/event-channel", path);
			return err;
		}
		rx_evt = tx_evt;
	}

	/* The xenbus core logs a bad grant too: the back-off bounds it. */
	err = xnb_vif_connect_queue(q, tx_ref, rx_ref, tx_evt, rx_evt);
	if (err)
		xnb_fatal(be, err, "mapping rings %u/%u, event channels %u/%u",
			  tx_ref, rx_ref, tx_evt, rx_evt);
	return err;
}

/* Optional, but one that is there and unusable refuses the connect. */
static int xnb_read_ctrl(struct xnb_backend *be)
	__must_hold(&be->lock)
{
	const char *fe = be->dev->otherend;
	unsigned int ref, evt;
	int err;

	lockdep_assert_held(&be->lock);
	err = xenbus_scanf(XBT_NIL, fe, "ctrl-ring-ref", "%u", &ref);
	if (err == -ENOENT)
		return 0;
	if (err != 1) {
		err = err < 0 ? err : -EINVAL;
		xnb_fatal(be, err, "reading %s/ctrl-ring-ref", fe);
		return err;
	}
	err = xenbus_scanf(XBT_NIL, fe, "event-channel-ctrl", "%u", &evt);
	if (err != 1) {
		err = err < 0 ? err : -EINVAL;
		xnb_fatal(be, err, "reading %s/event-channel-ctrl", fe);
		return err;
	}
	err = xnb_ctrl_connect(be->vif, ref, evt);
	if (err)
		xnb_fatal(be, err, "mapping control ring %u, event channel %u",
			  ref, evt);
	return err;
}

static int xnb_connect(struct xnb_backend *be)
	__must_hold(&be->lock)
{
	struct xenbus_device *dev = be->dev;
	const char *fe = dev->otherend;
	struct xnb_vif *vif = be->vif;
	unsigned int i, n;
	char *path;
	int err;

	lockdep_assert_held(&be->lock);
	n = xenbus_read_unsigned(fe, "multi-queue-num-queues", 1);
	if (n == 0 || n > be->max_queues) {
		xnb_fatal(be, -EINVAL,
			  "guest asked for %u queues, the maximum is %u",
			  n, be->max_queues);
		return -EINVAL;
	}
	if (!xenbus_read_unsigned(fe, "request-rx-copy", 0)) {
		xnb_fatal(be, -EOPNOTSUPP, "frontend does not request rx-copy");
		return -EOPNOTSUPP;
	}
	if (!xenbus_read_unsigned(fe, "feature-rx-notify", 0)) {
		xnb_fatal(be, -EINVAL, "feature-rx-notify is mandatory");
		return -EINVAL;
	}
	/* ndo_fix_features and ndo_change_mtu read these under rtnl alone. */
	WRITE_ONCE(vif->can_sg, !!xenbus_read_unsigned(fe, "feature-sg", 0));
	WRITE_ONCE(vif->gso_tcpv4,
		   !!xenbus_read_unsigned(fe, "feature-gso-tcpv4", 0));
	WRITE_ONCE(vif->gso_tcpv6,
		   !!xenbus_read_unsigned(fe, "feature-gso-tcpv6", 0));
	WRITE_ONCE(vif->ip_csum,
		   !xenbus_read_unsigned(fe, "feature-no-csum-offload", 0));
	WRITE_ONCE(vif->ipv6_csum,
		   !!xenbus_read_unsigned(fe, "feature-ipv6-csum-offload", 0));

	err = xnb_vif_alloc_queues(vif, n);
	if (err) {
		xnb_fatal(be, err, "allocating %u queues", n);
		return err;
	}
	for (i = 0; i < n; i++) {
		if (n == 1)
			path = kstrdup(fe, GFP_KERNEL);
		else
			path = kasprintf(GFP_KERNEL, "%s/queue-%u", fe, i);
		if (!path) {
			err = -ENOMEM;
			break;
		}
		err = xnb_read_queue(be, &vif->queues[i], path);
		kfree(path);
		if (err)
			break;
	}
	/* After the queues: control requests are judged by their count. */
	if (!err)
		err = xnb_read_ctrl(be);
	if (err) {
		xnb_vif_disconnect(vif);
		return err;
	}

	xnb_read_xdp_headroom(be);
	/* Unwatching dropped any queued event, so the mark starts clear. */
	vif->mcast_ctrl = !!xenbus_read_unsigned(fe, "request-multicast-control",
						 0);
	atomic_set(&be->mcast_queued, 0);
	err = xenbus_watch_pathfmt(dev, &be->mcast_watch,
				   xnb_mcast_will_handle, xnb_mcast_ctrl_changed,
				   "%s/request-multicast-control", fe);
	if (err) {
		xnb_vif_disconnect(vif);
		return err;
	}

	xnb_vif_start(vif);
	be->want_connected = true;
	xnb_maybe_connected(be);
	return 0;
}

/* Drop a held Connected: its work, if it runs still, finds nothing. */
static void xnb_connect_unqueue(struct xnb_backend *be)
	__must_hold(&be->lock)
{
	lockdep_assert_held(&be->lock);
	be->connect_queued = false;
	cancel_delayed_work(&be->connect_work);
}

/* Rows 10h, 10d and 10: the frontend Connected, no connection up. */
static void xnb_connect_rows(struct xnb_backend *be)
	__must_hold(&be->lock)
{
	u64 now = ktime_to_ms(ktime_get());
	u32 wait;

	lockdep_assert_held(&be->lock);
	wait = xnb_connect_wait(be->connect_fails, be->connect_last, now);
	if (wait) {		/* row 10h: failed connects refuse this one */
		xnb_fatal(be, -EAGAIN,
			  "%u failed connects in a row: next attempt in %u ms at the earliest",
			  be->connect_fails, wait);
		xnb_connect_unqueue(be);
		return;
	}
	wait = xnb_reconnect_wait(&be->reconnect, now);
	if (wait) {		/* row 10d: held for connect_work */
		/* The held connect would be the run's next quick reconnect. */
		if (xnb_reconnect_log(&be->reconnect, wait) &&
		    xnb_guest_msg_ok(be))
			dev_warn(&be->dev->dev,
				 "frontend reconnects in a loop (%u times in a row, each within %u s of the last): next connect held %u ms, later ones up to %u ms\n",
				 be->reconnect.run < UINT_MAX ?
				 be->reconnect.run + 1 : UINT_MAX,
				 XNB_RECONNECT_WINDOW_MS / 1000u, wait,
				 XNB_RECONNECT_HOLD_MAX_MS);
		be->connect_queued = true;
		mod_delayed_work(system_wq, &be->connect_work,
				 msecs_to_jiffies(wait));
		return;
	}
	xnb_connect_unqueue(be);
	/* Row 10: count a failure or a success for the back-offs. */
	if (!xnb_connect(be)) {
		be->connect_fails = 0;
		xnb_reconnect_done(&be->reconnect, ktime_to_ms(ktime_get()));
		return;
	}
	if (be->connect_fails < UINT_MAX)
		be->connect_fails++;
	be->connect_last = ktime_to_ms(ktime_get());
}

/* Unregisters no watch: remove() waits for this work in the xenwatch
 * thread, which unregistering a watch would wait for in turn.
 */
static void xnb_connect_work(struct work_struct *work)
{
	struct xnb_backend *be = container_of(to_delayed_work(work),
					      struct xnb_backend,
					      connect_work);

	mutex_lock(&be->lock);
	if (be->connect_queued)
		xnb_connect_rows(be);
	mutex_unlock(&be->lock);
}

static void xnb_unwatch(struct xenbus_watch *w);

static void xnb_disconnect(struct xnb_backend *be)
	__must_hold(&be->lock)
{
	lockdep_assert_held(&be->lock);
	be->want_connected = false;
	xnb_unwatch(&be->mcast_watch);
	if (be->vif) {
		xnb_vif_disconnect(be->vif);
		/* The next connection negotiates these again. */
		WRITE_ONCE(be->vif->mcast_ctrl, false);
		WRITE_ONCE(be->vif->xdp_headroom, 0);
		xnb_mcast_clear(be->vif);
	}
}

/* Row 16: only ENOENT says gone; other read errors go to row 17. */
static bool xnb_frontend_gone(struct xenbus_device *dev)
{
	char *val = xenbus_read(XBT_NIL, dev->otherend, "", NULL);

	if (IS_ERR(val))
		return PTR_ERR(val) == -ENOENT;
	kfree(val);
	return false;
}

/* The frontend's state (fe) against ours; the first matching row applies
 * and each branch of the switch names its rows.  up: be->want_connected
 * (connected, no disconnect since); hp: be->hotplug_ok; go X:
 * xenbus_switch_state(X); fatal: xnb_fatal(), then Closing; features:
 * xnb_write_features(), fatal if it fails.
 *
 * row fe             ours, up           action                  next ours
 *  1  Initialising   Connected          disconnect, go Closing, InitWait
 *                                       features, go InitWait
 *  2  Initialising   InitWait, up       disconnect              InitWait
 *  3  Initialising   InitWait, !up      -                       InitWait
 *  4  Initialising   other, up          disconnect, features,   InitWait
 *                                       go InitWait
 *  5  Initialising   other, !up         features, go InitWait   InitWait
 *  6  Initialised    any                -                       same
 *  7  Connected      Connected          -                       Connected
 *  8  Connected      Reconfigured, up   read xdp-headroom,      Connected (a)
 *                                       go Connected if hp
 *  9  Connected      other, up          go Connected if hp      Connected (a)
 * 10h Connected      other, !up; held   fatal, nothing read     Closing
 * 10d Connected      other, !up;        hold the Connected for  same
 *                    delayed            connect_work
 * 10  Connected      other, !up         connect (or fatal), go  Connected (a)
 *                                       Connected if hp
 * 11  Reconfiguring  any, !up           -                       same
 * 12  Reconfiguring  any, up            read xdp-headroom,      Reconfigured
 *                                       go Reconfigured
 * 13  Closing        any                disconnect, go Closing  Closing
 * 14  Closed         any; online        disconnect, go Closed   Closed
 * 15  Closed         any; not online    as 14, then as 16       removed
 * 16  Unknown, gone  any                unregister the device   removed
 * 17  any other      any                fatal                   Closing
 *  H  hotplug-status "connected"        hp, go Connected if up  Connected (a)
 *
 * gone: the frontend's directory.  held: xnb_connect_wait(), delayed:
 * xnb_reconnect_wait() (proto.c); only a connect that succeeds clears the
 * failures, as a looping guest passes through Closed each time.
 * (a) only with up and hp, else ours stays.
 */
static void xnb_frontend_changed(struct xenbus_device *dev,
				 enum xenbus_state fe_state)
{
	struct xnb_backend *be = dev_get_drvdata(&dev->dev);
	bool gone = false;

	mutex_lock(&be->lock);
	if (fe_state != XenbusStateConnected)		/* drop a 10d hold */
		xnb_connect_unqueue(be);
	switch (fe_state) {
	case XenbusStateInitialising:			/* rows 1-5 */
		/* Starting over: drop even a connection awaiting hotplug. */
		if (dev->state == XenbusStateConnected || be->want_connected) {
			/* rows 1, 2, 4 */
			xnb_disconnect(be);
			if (dev->state == XenbusStateConnected)	/* row 1 */
				xenbus_switch_state(dev, XenbusStateClosing);
		}
		if (dev->state != XenbusStateInitWait &&	/* rows 1, 4, 5 */
		    !xnb_write_features(be))
			xenbus_switch_state(dev, XenbusStateInitWait);
		break;
	case XenbusStateInitialised:			/* row 6 */
		break;
	case XenbusStateConnected:			/* rows 7-10 */
		if (dev->state == XenbusStateConnected)	/* row 7 */
			break;
		if (be->want_connected) {		/* rows 8, 9 */
			/* netfront writes the key after Reconfiguring. */
			if (dev->state == XenbusStateReconfigured)
				xnb_read_xdp_headroom(be);
			xnb_maybe_connected(be);
			break;
		}
		xnb_connect_rows(be);			/* rows 10h, 10d, 10 */
		break;
	case XenbusStateReconfiguring:			/* rows 11, 12 */
		if (!be->want_connected)		/* row 11 */
			break;
		xnb_read_xdp_headroom(be);		/* row 12 */
		xenbus_switch_state(dev, XenbusStateReconfigured);
		break;
	case XenbusStateClosing:			/* row 13 */
		xnb_disconnect(be);
		xenbus_switch_state(dev, XenbusStateClosing);
		break;
	case XenbusStateClosed:				/* rows 14, 15 */
		xnb_disconnect(be);
		xenbus_switch_state(dev, XenbusStateClosed);
		gone = !xenbus_dev_is_online(dev);	/* row 15, else 14 */
		break;
	case XenbusStateUnknown:			/* rows 16, 17 */
		/* A guest may delete its "state": not a removal by itself. */
		if (xnb_frontend_gone(dev)) {
			gone = true;			/* row 16 */
			break;
		}
		fallthrough;
	case XenbusStateInitWait:			/* row 17 */
	case XenbusStateReconfigured:
	default:
		xnb_fatal(be, -EINVAL, "saw state %d at frontend", fe_state);
		break;
	}
	mutex_unlock(&be->lock);
	/* Unlocked first: remove() runs now and takes the lock. */
	if (gone)
		device_unregister(&dev->dev);
}

static void xnb_unwatch(struct xenbus_watch *w)
{
	if (!w->node)
		return;
	unregister_xenbus_watch(w);
	kfree(w->node);
	w->node = NULL;
}

static void xnb_remove(struct xenbus_device *dev)
{
	struct xnb_backend *be = dev_get_drvdata(&dev->dev);

	/* No state change reaches us any more: nothing requeues the work. */
	cancel_delayed_work_sync(&be->connect_work);
	xnb_unwatch(&be->rate_watch);
	xnb_unwatch(&be->group_watch);
	xnb_unwatch(&be->hotplug_watch);
	xnb_unwatch(&be->mcast_watch);

	mutex_lock(&be->lock);
	be->want_connected = false;
	if (be->vif) {
		xnb_vif_destroy(be->vif);	/* frees the multicast list */
		be->vif = NULL;
	}
	mutex_unlock(&be->lock);
	xenbus_rm(XBT_NIL, dev->nodename, "hotplug-status");
	dev_set_drvdata(&dev->dev, NULL);
	kfree(be);
}

static int xnb_probe(struct xenbus_device *dev,
		     const struct xenbus_device_id *id)
{
	struct xnb_backend *be;
	unsigned int handle;
	int err;

	be = kzalloc(sizeof(*be), GFP_KERNEL);
	if (!be) {
		xenbus_dev_fatal(dev, -ENOMEM, "allocating backend");
		return -ENOMEM;
	}
	be->dev = dev;
	mutex_init(&be->lock);
	INIT_DELAYED_WORK(&be->connect_work, xnb_connect_work);
	/* xnb_guest_msg_ok() prints its own line, naming the device. */
	ratelimit_state_init(&be->msg_rs, XNB_MSG_INTERVAL, XNB_MSG_BURST);
	ratelimit_set_flags(&be->msg_rs, RATELIMIT_MSG_ON_RELEASE);
	dev_set_drvdata(&dev->dev, be);

	err = xenbus_scanf(XBT_NIL, dev->nodename, "handle", "%u", &handle);
	if (err != 1) {
		err = err < 0 ? err : -EINVAL;
		xenbus_dev_fatal(dev, err, "reading handle");
		goto fail;
	}

	be->vif = xnb_vif_create(dev, dev->otherend_id, handle);
	if (IS_ERR(be->vif)) {
		err = PTR_ERR(be->vif);
		be->vif = NULL;
		xenbus_dev_fatal(dev, err, "creating interface");
		goto fail;
	}
	xnb_mcast_init(be->vif);
	mutex_lock(&be->lock);
	err = xnb_write_features(be);
	mutex_unlock(&be->lock);
	if (err)
		goto fail;
	kobject_uevent(&dev->dev.kobj, KOBJ_ONLINE);

	/* Each watch fires once at once, applying the current value. */
	err = xenbus_watch_pathfmt(dev, &be->rate_watch, NULL,
				   xnb_rate_changed, "%s/rate", dev->nodename);
	if (!err)
		err = xenbus_watch_pathfmt(dev, &be->group_watch, NULL,
					   xnb_worker_group_changed,
					   "%s/worker-group", dev->nodename);
	if (!err)
		err = xenbus_watch_pathfmt(dev, &be->hotplug_watch, NULL,
					   xnb_hotplug_changed,
					   "%s/hotplug-status", dev->nodename);
	if (err)
		goto fail;

	err = xenbus_switch_state(dev, XenbusStateInitWait);
	if (err)
		goto fail;
	return 0;

fail:
	xnb_remove(dev);
	return err;
}

static int xnb_uevent(XNB_XENBUS_UEVENT_CONST struct xenbus_device *dev,
		      struct kobj_uevent_env *env)
{
	struct xnb_backend *be = dev_get_drvdata(&dev->dev);
	char *script;
	int err = 0;

	script = xenbus_read(XBT_NIL, dev->nodename, "script", NULL);
	if (!IS_ERR(script)) {
		err = add_uevent_var(env, "script=%s", script);
		kfree(script);
		if (err)
			return err;
	}
	if (be && be->vif)
		err = add_uevent_var(env, "vif=%s", be->vif->dev->name);
	return err;
}

static const struct xenbus_device_id xnb_ids[] = {
	{ "vif" },
	{ "" }
};

static struct xenbus_driver xnb_driver = {
	.ids = xnb_ids,
	.probe = xnb_probe,
	.remove = xnb_remove,
	.uevent = xnb_uevent,
	.otherend_changed = xnb_frontend_changed,
};

/* At module init, after the groups are up. */
int xnb_xenbus_init(void)
{
	return xenbus_register_backend(&xnb_driver);
}

/* At module exit, first; no vif is left (each holds a reference). */
void xnb_xenbus_exit(void)
{
	xenbus_unregister_driver(&xnb_driver);
}
