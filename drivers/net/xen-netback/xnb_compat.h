/* SPDX-License-Identifier: GPL-2.0 */
/* Every difference between the kernels we build against, in one place.
 *
 * Supported: Linux 6.1 (Debian 12) to 6.12 (Debian 13, and Debian 12
 * with bookworm-backports).  Newer kernels are accepted as long as the
 * module builds; a new difference gets a shim here, not an #if in a .c
 * file.  The driver is written against the newest interface; each shim
 * below supplies it on the older kernels and is named after it, so
 * dropping a kernel from the range means deleting its shims.
 */
#ifndef XNB_COMPAT_H
#define XNB_COMPAT_H

#include <linux/dim.h>
#include <linux/hrtimer.h>
#include <linux/netdevice.h>
#include <linux/slab.h>
#include <linux/timer.h>
#include <linux/version.h>

/* True when building for a kernel older than major.minor.  The only
 * place that reads the version: checkpatch flags each use.
 */
#define XNB_KERNEL_BEFORE(major, minor) \
	(KERNEL_VERSION(major, minor, 0) > LINUX_VERSION_CODE)

#if XNB_KERNEL_BEFORE(6, 1)
#error "xen-netback (worker groups) needs Linux 6.1 or newer (supported: 6.1 to 6.12)"
#endif

/* 6.2 added timer_delete_sync() (later 6.1.y releases have it too) and
 * 6.15 removed the old name del_timer_sync(), which every 6.1 has.
 */
#if XNB_KERNEL_BEFORE(6, 2)
#define timer_delete_sync(timer) del_timer_sync(timer)
#endif

/* 6.16 renamed from_timer() to timer_container_of().  Both are macros,
 * so test for the name: some distribution kernels carry the rename.
 */
#ifndef timer_container_of
#define timer_container_of(var, timer, field) from_timer(var, timer, field)
#endif

/* 6.3 made the device argument of xenbus_driver.uevent const. */
#if XNB_KERNEL_BEFORE(6, 3)
#define XNB_XENBUS_UEVENT_CONST
#else
#define XNB_XENBUS_UEVENT_CONST const
#endif

/* 6.10 added alloc_netdev_dummy(), whose device goes back with
 * free_netdev().  Before it, a dummy netdev (one that only carries NAPI
 * contexts) was any zeroed struct net_device passed to
 * init_dummy_netdev(), freed as plain memory once its NAPI contexts are
 * deleted.  Only the groups' NAPI devices use these two.
 */
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

/* 6.10 dropped __assign_str()'s source argument: the field's __string()
 * names it.  trace.h assigns its strings with this, giving the source
 * the __string() gave.  Only the tracepoints' assign stage expands it.
 */
#if XNB_KERNEL_BEFORE(6, 10)
#define xnb_assign_str(dst, src)	__assign_str(dst, src)
#else
#define xnb_assign_str(dst, src)	__assign_str(dst)
#endif

/* 6.13 passes net_dim() its sample by reference.  Function-like and
 * named after the function, which its expansion calls (a macro does not
 * expand inside itself); defined after linux/dim.h, whose declaration
 * it would otherwise rewrite.
 */
#if XNB_KERNEL_BEFORE(6, 13)
#define net_dim(dim, sample)	net_dim(dim, *(sample))
#endif

/* 6.13 added hrtimer_setup(), which sets the function with the clock
 * and mode, and later kernels dropped hrtimer_init().  A wrapper rather
 * than the name itself: a stable kernel that gained hrtimer_setup()
 * must not meet a second definition here.
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

/* netdev_xmit_more() is an inline of the same name and meaning on
 * every kernel supported: a per-CPU flag, or with PREEMPT_RT on newer
 * ones (6.12 among them) the task's.  rx.c calls it as is.
 */

#endif /* XNB_COMPAT_H */
