// SPDX-License-Identifier: GPL-2.0
/*
 * The worker groups as scripts see them: /sys/module/xen_netback/groups/.
 *
 * A stable interface (docs/admin.md): one directory per group, named by
 * its index, with one value per file:
 *
 *   cpu        the CPU the group runs on now (its thread, its queues'
 *              irqs)
 *   home_cpu   the CPU it was given when its set was made; cpu differs
 *              while that one is offline (groupset.c follows CPU hotplug)
 *   mode       who runs its passes now: "light" (the softirq context
 *              that polls while the load is light) or "thread" with
 *              worker=kthread, "softirq" with worker=tasklet
 *   queues     the queues it serves
 *   busy_pct   its time in passes over the wall time, an integer
 *              percent (rounded down), over the balancer's last interval
 *              (rebalance_ms, or XNB_BUSY_WINDOW_MS with the balancer
 *              off: balance.c measures either way); until that has
 *              measured this group set once, since the group was
 *              created.  Reading it changes nothing
 *   passes packets batches ops handoffs moves_in moves_out
 *              counters since the group was created
 *   max_pass_us, max_pass_slots
 *              the longest pass (microseconds, rounded up) and the most
 *              ring slots a pass used, both ways (a guest TX packet
 *              counted as xnb_tx_charge()), since the group was
 *              created or since root wrote 0 to that file, which resets
 *              it; the only files that take a write
 *
 * debugfs (groupset.c's "groups", balance.c's "balance") stays the
 * developers' view, free to change; these names and formats are not.
 *
 * A write of the groups parameter replaces every group (groupset.c), and
 * the counters start again: the directories are made again for the new
 * set.  Each one remembers the set it was made for (xnb_groups_gen),
 * and a read, under the assign mutex, answers -ENODEV once that set is
 * gone, until the directory goes.  Directories are removed and made
 * outside the assign mutex: removing a sysfs file waits for the reads
 * under way, which take that mutex.
 *
 * Locking: xnb_sysfs_mutex serialises the updates (load, groups writes,
 * unload) and covers xnb_sysfs_root, xnb_sysfs_dirs, xnb_sysfs_nr and
 * xnb_sysfs_gen.  It is taken before xnb_assign_mutex.  A directory's
 * fields are fixed once it is published.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/kobject.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/sysfs.h>

#include "common.h"

struct xnb_group_dir {
	struct kobject kobj;
	unsigned int index;	/* the group's, in its set */
	unsigned long gen;	/* xnb_groups_gen of that set */
	/* busy_pct before the first window: since these. */
	u64 made_ns;		/* when the directory was made */
	u64 made_busy_ns;	/* the group's busy_ns then */
};

static DEFINE_MUTEX(xnb_sysfs_mutex);
static struct kobject *xnb_sysfs_root;	/* .../xen_netback/groups */
static struct xnb_group_dir **xnb_sysfs_dirs;
static unsigned int xnb_sysfs_nr;
static unsigned long xnb_sysfs_gen;	/* the set they show; 0: none */

/* The group @d shows, or NULL once its set is gone. */
static struct xnb_group *xnb_dir_group(const struct xnb_group_dir *d)
	__must_hold(&xnb_assign_mutex)
{
	lockdep_assert_held(&xnb_assign_mutex);
	if (!xnb_groups || d->gen != xnb_groups_gen ||
	    d->index >= xnb_nr_groups)
		return NULL;
	return &xnb_groups[d->index];
}

static ssize_t xnb_show_cpu(struct xnb_group_dir *d, struct xnb_group *g,
			    char *buf)
{
	/* Moved by the CPU hotplug callbacks, under the assign mutex. */
	lockdep_assert_held(&xnb_assign_mutex);
	return sysfs_emit(buf, "%d\n", g->cpu);
}

static ssize_t xnb_show_home_cpu(struct xnb_group_dir *d,
				 struct xnb_group *g, char *buf)
{
	return sysfs_emit(buf, "%d\n", g->home_cpu);
}

static ssize_t xnb_show_mode(struct xnb_group_dir *d, struct xnb_group *g,
			     char *buf)
{
	const char *mode = "softirq";	/* worker=tasklet: no light context */

	/* Not g->light_dev: a group serving nothing yet has none. */
	if (!xnb_use_tasklet)
		mode = READ_ONCE(g->run) == XNB_RUN_LIGHT ? "light" : "thread";
	return sysfs_emit(buf, "%s\n", mode);
}

static ssize_t xnb_show_queues(struct xnb_group_dir *d, struct xnb_group *g,
			       char *buf)
{
	/* nr_queues changes only under the assign mutex as well. */
	lockdep_assert_held(&xnb_assign_mutex);
	return sysfs_emit(buf, "%u\n", g->nr_queues);
}

/* The balancer's measure over its last window (it measures with
 * rebalance_ms=0 too); before its first for this set, the same measure
 * since the directory was made.  Neither changes on a read, so readers
 * do not skew each other.
 */
static ssize_t xnb_show_busy_pct(struct xnb_group_dir *d, struct xnb_group *g,
				 char *buf)
{
	struct xnb_group_counters c;
	u32 permille;

	lockdep_assert_held(&xnb_assign_mutex);
	if (!xnb_balance_busy(d->index, &permille)) {
		xnb_group_stats_read(g, &c);
		permille = xnb_busy_share(d->made_busy_ns, c.busy_ns,
					  ktime_get_ns() - d->made_ns);
	}
	return sysfs_emit(buf, "%u\n", min(permille, XNB_BAL_SCALE) / 10);
}

static ssize_t xnb_show_moves_in(struct xnb_group_dir *d, struct xnb_group *g,
				 char *buf)
{
	lockdep_assert_held(&xnb_assign_mutex);
	return sysfs_emit(buf, "%lu\n", g->moves_in);
}

static ssize_t xnb_show_moves_out(struct xnb_group_dir *d, struct xnb_group *g,
				  char *buf)
{
	lockdep_assert_held(&xnb_assign_mutex);
	return sysfs_emit(buf, "%lu\n", g->moves_out);
}

static ssize_t xnb_show_max_pass_us(struct xnb_group_dir *d,
				    struct xnb_group *g, char *buf)
{
	unsigned long ns = READ_ONCE(g->max_pass_ns);

	/* Rounded up: a pass of 1 ns is not 0 (nor may ns + 999 wrap). */
	return sysfs_emit(buf, "%lu\n",
			  ns / NSEC_PER_USEC + !!(ns % NSEC_PER_USEC));
}

static void xnb_reset_max_pass_us(struct xnb_group *g)
{
	WRITE_ONCE(g->max_pass_ns, 0);
}

static ssize_t xnb_show_max_pass_slots(struct xnb_group_dir *d,
				       struct xnb_group *g, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(g->max_pass_slots));
}

static void xnb_reset_max_pass_slots(struct xnb_group *g)
{
	WRITE_ONCE(g->max_pass_slots, 0);
}

/* A file of a group's directory: a value shown by @show, or, without
 * one, the u64 at @counter in the group's counters; @reset, for the
 * files a write of 0 resets.
 */
struct xnb_group_attr {
	struct kobj_attribute kattr;
	ssize_t (*show)(struct xnb_group_dir *d, struct xnb_group *g,
			char *buf);
	void (*reset)(struct xnb_group *g);
	size_t counter;
};

static ssize_t xnb_group_attr_show(struct kobject *kobj,
				   struct kobj_attribute *kattr, char *buf)
{
	struct xnb_group_dir *d = container_of(kobj, struct xnb_group_dir,
					       kobj);
	const struct xnb_group_attr *a = container_of(kattr,
						      struct xnb_group_attr,
						      kattr);
	struct xnb_group_counters c;
	struct xnb_group *g;
	ssize_t ret;

	/* The set may be swapped meanwhile: it is looked up under this. */
	ret = mutex_lock_interruptible(&xnb_assign_mutex);
	if (ret)
		return ret;
	g = xnb_dir_group(d);
	if (!g) {
		ret = -ENODEV;	/* a groups write replaced it */
	} else if (a->show) {
		ret = a->show(d, g, buf);
	} else {
		xnb_group_stats_read(g, &c);
		ret = sysfs_emit(buf, "%llu\n",
				 *(u64 *)((char *)&c + a->counter));
	}
	mutex_unlock(&xnb_assign_mutex);
	return ret;
}

/* A write of 0 to a file with a reset; other values are refused.  Under
 * the assign mutex, as a read: the group stays while it is reset.
 */
static ssize_t xnb_group_attr_store(struct kobject *kobj,
				    struct kobj_attribute *kattr,
				    const char *buf, size_t count)
{
	struct xnb_group_dir *d = container_of(kobj, struct xnb_group_dir,
					       kobj);
	const struct xnb_group_attr *a = container_of(kattr,
						      struct xnb_group_attr,
						      kattr);
	struct xnb_group *g;
	unsigned int v;
	ssize_t ret;

	ret = kstrtouint(buf, 0, &v);
	if (ret)
		return ret;
	if (v)
		return -EINVAL;	/* only a reset */
	ret = mutex_lock_interruptible(&xnb_assign_mutex);
	if (ret)
		return ret;
	g = xnb_dir_group(d);
	if (g)
		a->reset(g);
	mutex_unlock(&xnb_assign_mutex);
	return g ? count : -ENODEV;
}

/* Files read through xnb_group_attr_show(), read-only but for
 * XNB_GROUP_RESETTABLE's.
 */
#define XNB_GROUP_VALUE(_name)						\
	static struct xnb_group_attr xnb_attr_##_name = {		\
		.kattr.attr = { .name = #_name, .mode = 0444 },		\
		.kattr.show = xnb_group_attr_show,			\
		.show = xnb_show_##_name,				\
	}

/* root writes 0 to reset it. */
#define XNB_GROUP_RESETTABLE(_name)					\
	static struct xnb_group_attr xnb_attr_##_name = {		\
		.kattr.attr = { .name = #_name, .mode = 0644 },		\
		.kattr.show = xnb_group_attr_show,			\
		.kattr.store = xnb_group_attr_store,			\
		.show = xnb_show_##_name,				\
		.reset = xnb_reset_##_name,				\
	}

#define XNB_GROUP_COUNTER(_name)					\
	static struct xnb_group_attr xnb_attr_##_name = {		\
		.kattr.attr = { .name = #_name, .mode = 0444 },		\
		.kattr.show = xnb_group_attr_show,			\
		.counter = offsetof(struct xnb_group_counters, _name),	\
	}

XNB_GROUP_VALUE(cpu);
XNB_GROUP_VALUE(home_cpu);
XNB_GROUP_VALUE(mode);
XNB_GROUP_VALUE(queues);
XNB_GROUP_VALUE(busy_pct);
XNB_GROUP_COUNTER(passes);
XNB_GROUP_COUNTER(packets);
XNB_GROUP_COUNTER(batches);
XNB_GROUP_COUNTER(ops);
XNB_GROUP_COUNTER(handoffs);
XNB_GROUP_VALUE(moves_in);
XNB_GROUP_VALUE(moves_out);
XNB_GROUP_RESETTABLE(max_pass_us);
XNB_GROUP_RESETTABLE(max_pass_slots);

static struct attribute *xnb_group_attrs[] = {
	&xnb_attr_cpu.kattr.attr,
	&xnb_attr_home_cpu.kattr.attr,
	&xnb_attr_mode.kattr.attr,
	&xnb_attr_queues.kattr.attr,
	&xnb_attr_busy_pct.kattr.attr,
	&xnb_attr_passes.kattr.attr,
	&xnb_attr_packets.kattr.attr,
	&xnb_attr_batches.kattr.attr,
	&xnb_attr_ops.kattr.attr,
	&xnb_attr_handoffs.kattr.attr,
	&xnb_attr_moves_in.kattr.attr,
	&xnb_attr_moves_out.kattr.attr,
	&xnb_attr_max_pass_us.kattr.attr,
	&xnb_attr_max_pass_slots.kattr.attr,
	NULL,
};
ATTRIBUTE_GROUPS(xnb_group);

/* Directories not released yet, plus one for the module until exit: a
 * release may come after the last put (CONFIG_DEBUG_KOBJECT_RELEASE
 * delays it), and this file's code must outlive it.  The last one
 * completes xnb_sysfs_released, which exit waits for.
 */
static atomic_t xnb_sysfs_live = ATOMIC_INIT(1);
static DECLARE_COMPLETION(xnb_sysfs_released);

static void xnb_group_dir_release(struct kobject *kobj)
{
	kfree(container_of(kobj, struct xnb_group_dir, kobj));
	if (atomic_dec_and_test(&xnb_sysfs_live))
		complete(&xnb_sysfs_released);
}

static const struct kobj_type xnb_group_ktype = {
	.release = xnb_group_dir_release,
	.sysfs_ops = &kobj_sysfs_ops,
	.default_groups = xnb_group_groups,
};

/* Remove the directories; each waits for the reads under way in it. */
static void xnb_sysfs_remove_dirs(void)
	__must_hold(&xnb_sysfs_mutex)
{
	unsigned int i;

	lockdep_assert_held(&xnb_sysfs_mutex);
	for (i = 0; i < xnb_sysfs_nr; i++) {
		if (!xnb_sysfs_dirs[i])
			continue;
		kobject_del(&xnb_sysfs_dirs[i]->kobj);
		kobject_put(&xnb_sysfs_dirs[i]->kobj);
	}
	kfree(xnb_sysfs_dirs);
	xnb_sysfs_dirs = NULL;
	xnb_sysfs_nr = 0;
	xnb_sysfs_gen = 0;
}

/* A directory for each of the first @n groups of the set in force, not
 * in sysfs yet; *@made of them, the rest NULL (out of memory).
 */
static struct xnb_group_dir **xnb_sysfs_alloc_dirs(unsigned int n,
						   unsigned int *made)
	__must_hold(&xnb_assign_mutex)
{
	struct xnb_group_dir **dirs;
	unsigned int i;
	u64 now;

	lockdep_assert_held(&xnb_assign_mutex);
	*made = 0;
	dirs = kcalloc(n, sizeof(*dirs), GFP_KERNEL);
	if (!dirs)
		return NULL;
	now = ktime_get_ns();
	for (i = 0; i < n; i++) {
		struct xnb_group_dir *d = kzalloc(sizeof(*d), GFP_KERNEL);
		struct xnb_group_counters c;

		if (!d)
			break;
		kobject_init(&d->kobj, &xnb_group_ktype);
		atomic_inc(&xnb_sysfs_live);
		d->index = i;
		d->gen = xnb_groups_gen;
		/* busy_pct until the first window: since about the group's
		 * start.
		 */
		xnb_group_stats_read(&xnb_groups[i], &c);
		d->made_ns = now;
		d->made_busy_ns = c.busy_ns;
		dirs[i] = d;
		(*made)++;
	}
	return dirs;
}

/**
 * xnb_sysfs_update() - Make groups/ show the group set in force.
 *
 * Description: When the set changed since the last update (a groups
 * write), removes the old set's directories and makes one per group of
 * the new set.  Until then a read of an old directory gets -ENODEV;
 * between the two steps there is no directory.  Nothing happens before
 * xnb_sysfs_init() or after xnb_sysfs_exit().  Whoever swaps the set
 * calls this after, so the last update shows the last set.  A directory
 * that cannot be made is missing, with a log line; the groups still
 * run.
 *
 * Context: Process context, may sleep (waits for the reads under way
 * in the directories it removes).  Takes xnb_sysfs_mutex, then
 * xnb_assign_mutex for a moment.  The caller holds neither.
 */
void xnb_sysfs_update(void)
{
	struct xnb_group_dir **dirs = NULL;
	unsigned int i, want, made = 0;
	unsigned long gen;
	int err;

	mutex_lock(&xnb_sysfs_mutex);
	if (!xnb_sysfs_root)
		goto out;
	mutex_lock(&xnb_assign_mutex);
	gen = xnb_groups_gen;
	want = xnb_groups ? xnb_nr_groups : 0;	/* none: init or exit */
	if (gen != xnb_sysfs_gen && want)
		dirs = xnb_sysfs_alloc_dirs(want, &made);
	mutex_unlock(&xnb_assign_mutex);
	if (gen == xnb_sysfs_gen)
		goto out;	/* shown already */

	xnb_sysfs_remove_dirs();
	for (i = 0; dirs && i < want; i++) {
		if (!dirs[i])
			continue;
		err = kobject_add(&dirs[i]->kobj, xnb_sysfs_root, "%u", i);
		if (err) {
			kobject_put(&dirs[i]->kobj);
			dirs[i] = NULL;
			made--;
		}
	}
	if (made < want)
		pr_warn("sysfs groups/: %u of %u group directories made\n",
			made, want);
	xnb_sysfs_dirs = dirs;
	xnb_sysfs_nr = dirs ? want : 0;
	xnb_sysfs_gen = gen;
out:
	mutex_unlock(&xnb_sysfs_mutex);
}

/**
 * xnb_sysfs_init() - Create /sys/module/xen_netback/groups/.
 *
 * Description: With a directory per group: the groups are up.  A sysfs
 * failure is not an error (a log line; the module works without).
 *
 * Context: Process context (module init), may sleep.  Takes
 * xnb_sysfs_mutex and xnb_assign_mutex.
 */
void xnb_sysfs_init(void)
{
	struct kobject *mod;

	/* Built in, the module's directory is params.c's (the parameters
	 * make it); as a module, its own.
	 */
#ifdef MODULE
	mod = kobject_get(&THIS_MODULE->mkobj.kobj);
#else
	mod = kset_find_obj(module_kset, KBUILD_MODNAME);
#endif
	if (!mod) {
		pr_warn("sysfs groups/: no module directory\n");
		return;
	}
	mutex_lock(&xnb_sysfs_mutex);
	xnb_sysfs_root = kobject_create_and_add("groups", mod);
	mutex_unlock(&xnb_sysfs_mutex);
	kobject_put(mod);
	if (!xnb_sysfs_root) {
		pr_warn("sysfs groups/ not created\n");
		return;
	}
	xnb_sysfs_update();
}

/**
 * xnb_sysfs_exit() - Remove /sys/module/xen_netback/groups/.
 *
 * Description: Waits for the reads under way and for every directory's
 * release; later updates do nothing.
 *
 * Context: Process context (module exit, or a failed init).  Takes
 * xnb_sysfs_mutex; the caller does not hold xnb_assign_mutex.
 */
void xnb_sysfs_exit(void)
{
	mutex_lock(&xnb_sysfs_mutex);
	xnb_sysfs_remove_dirs();
	kobject_put(xnb_sysfs_root);
	xnb_sysfs_root = NULL;
	mutex_unlock(&xnb_sysfs_mutex);
	if (!atomic_dec_and_test(&xnb_sysfs_live))
		wait_for_completion(&xnb_sysfs_released);
}
