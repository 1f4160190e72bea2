/* SPDX-License-Identifier: GPL-2.0 */
/* Every difference between our kernels (6.1 to 6.12), not #if in .c files:
 * each shim gives older kernels the newest interface, and its name.
 */
#ifndef XNB_COMPAT_H
#define XNB_COMPAT_H

#include <linux/dim.h>
#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/version.h>

/* The only reader of the kernel version: checkpatch flags each use. */
#define XNB_KERNEL_BEFORE(major, minor) \
	(KERNEL_VERSION(major, minor, 0) > LINUX_VERSION_CODE)

#if XNB_KERNEL_BEFORE(6, 1)
#error "xen-netback (worker groups) needs Linux 6.1 or newer (supported: 6.1 to 6.12)"
#endif

/* 6.2 added timer_delete_sync(); 6.15 removed del_timer_sync(). */
#if XNB_KERNEL_BEFORE(6, 2)
#define timer_delete_sync(timer) del_timer_sync(timer)
#endif

/* 6.16 renamed from_timer(); tested by name: distributions backport it. */
#ifndef timer_container_of
#define timer_container_of(var, timer, field) from_timer(var, timer, field)
#endif

/* 6.3 made the device argument of xenbus_driver.uevent const. */
#if XNB_KERNEL_BEFORE(6, 3)
#define XNB_XENBUS_UEVENT_CONST
#else
#define XNB_XENBUS_UEVENT_CONST const
#endif

/* 6.10 added alloc_netdev_dummy(); before, init_dummy_netdev() and kfree(). */
#if XNB_KERNEL_BEFORE(6, 10)
static inline struct net_device *xnb_alloc_netdev_dummy(void)
{
	struct net_device *dev = kzalloc(sizeof(*dev), GFP_KERNEL);

	if (dev)
		init_dummy_netdev(dev);
	return dev;
}

static inline void xnb_free_netdev_dummy(struct net_device *dev)
{
	kfree(dev);
}
#else
static inline struct net_device *xnb_alloc_netdev_dummy(void)
{
	return alloc_netdev_dummy(0);
}

static inline void xnb_free_netdev_dummy(struct net_device *dev)
{
	free_netdev(dev);
}
#endif

/* 6.10 dropped __assign_str()'s source argument. */
#if XNB_KERNEL_BEFORE(6, 10)
#define xnb_assign_str(dst, src)	__assign_str(dst, src)
#else
#define xnb_assign_str(dst, src)	__assign_str(dst)
#endif

/* 6.13 passes net_dim() its sample by reference.  The macro calls its
 * own name; after linux/dim.h, whose declaration it would rewrite.
 */
#if XNB_KERNEL_BEFORE(6, 13)
#define net_dim(dim, sample)	net_dim(dim, *(sample))
#endif

/* 6.13 added hrtimer_setup(), later kernels drop hrtimer_init(); a wrapper,
 * so a stable kernel that gained hrtimer_setup() meets no second definition.
 */
static inline void xnb_hrtimer_setup(struct hrtimer *timer,
				     enum hrtimer_restart (*fn)(struct hrtimer *),
				     clockid_t clock_id, enum hrtimer_mode mode)
{
#if XNB_KERNEL_BEFORE(6, 13)
	hrtimer_init(timer, clock_id, mode);
	timer->function = fn;
#else
	hrtimer_setup(timer, fn, clock_id, mode);
#endif
}

#endif /* XNB_COMPAT_H */
