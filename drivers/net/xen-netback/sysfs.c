// SPDX-License-Identifier: GPL-2.0
/*
 * groups/<index>/ answers -ENODEV once its set (xnb_groups_gen) is
 * replaced.  Directories are made and removed outside xnb_assign_mutex,
 * as removal waits for reads that take it; xnb_sysfs_mutex (before
 * xnb_assign_mutex) guards the xnb_sysfs_* state.
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
	unsigned int index;
	unsigned long gen;	/* xnb_groups_gen of its set */
	/* busy_pct before the balancer's first window: since these. */
	u64 made_ns;
	u64 made_busy_ns;
};

static DEFINE_MUTEX(xnb_sysfs_mutex);
static struct kobject *xnb_sysfs_root;
static struct xnb_group_dir **xnb_sysfs_dirs;
static unsigned int xnb_sysfs_nr;
static unsigned long xnb_sysfs_gen;	/* 0: none */

static struct xnb_group *xnb_dir_group(const struct xnb_group_dir *d)
	__must_hold(&xnb_assign_mutex)
{
	lockdep_assert_held(&xnb_assign_mutex);
	if (!xnb_groups || d->gen != xnb_groups_gen ||
	    d->index >= xnb_nr_groups)
		return NULL;
	return &xnb_groups[d->index];
}

/* A read changes nothing, so readers do not skew each other. */
static ssize_t xnb_show_busy_pct(struct xnb_group_dir *d, struct xnb_group *g,
				 char *buf)
{
	u32 permille;

	if (!xnb_balance_busy(d->index, &permille))
		permille = xnb_busy_share(d->made_busy_ns,
					  xnb_gstat(g, &g->stats.busy_ns),
					  ktime_get_ns() - d->made_ns);
	return sysfs_emit(buf, "%u\n", min(permille, XNB_BAL_SCALE) / 10);
}

static ssize_t xnb_show_max_pass_us(struct xnb_group_dir *d,
				    struct xnb_group *g, char *buf)
{
	unsigned long ns = READ_ONCE(g->max_pass_ns);

	/* Rounded up without ns + 999, which may wrap. */
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

struct xnb_group_attr {
	struct kobj_attribute kattr;
	ssize_t (*show)(struct xnb_group_dir *d, struct xnb_group *g,
			char *buf);
	void (*reset)(struct xnb_group *g);
};

/* Shows into buf, or resets where buf is NULL. */
static ssize_t xnb_group_attr_show(struct kobject *kobj,
				   struct kobj_attribute *kattr, char *buf)
{
	struct xnb_group_dir *d = container_of(kobj, typeof(*d), kobj);
	struct xnb_group_attr *a = container_of(kattr, typeof(*a), kattr);
	struct xnb_group *g;
	ssize_t ret;

	ret = mutex_lock_interruptible(&xnb_assign_mutex);
	if (ret)
		return ret;
	g = xnb_dir_group(d);
	if (!g)
		ret = -ENODEV;
	else if (!buf)
		a->reset(g);
	else
		ret = a->show(d, g, buf);
	mutex_unlock(&xnb_assign_mutex);
	return ret;
}

/* Only 0, a reset, may be written. */
static ssize_t xnb_group_attr_store(struct kobject *kobj,
				    struct kobj_attribute *kattr,
				    const char *buf, size_t count)
{
	unsigned int v;
	ssize_t ret = kstrtouint(buf, 0, &v);

	if (!ret && v)
		ret = -EINVAL;
	if (!ret)
		ret = xnb_group_attr_show(kobj, kattr, NULL);
	return ret ? ret : count;
}

#define XNB_GROUP_ATTR(_name, _mode, ...)				\
	static struct xnb_group_attr xnb_attr_##_name = {		\
		.kattr.attr = { .name = #_name, .mode = _mode },	\
		.kattr.show = xnb_group_attr_show,			\
		.show = xnb_show_##_name,				\
		__VA_ARGS__						\
	}

/* A read-only file showing _expr, of the group g, as _fmt and a newline. */
#define XNB_GROUP_VALUE(_name, _fmt, _expr)				\
	static ssize_t xnb_show_##_name(struct xnb_group_dir *d,	\
					struct xnb_group *g, char *buf)	\
	{								\
		return sysfs_emit(buf, _fmt "\n", _expr);		\
	}								\
	XNB_GROUP_ATTR(_name, 0444)

#define XNB_GROUP_RESETTABLE(_name)					\
	XNB_GROUP_ATTR(_name, 0644, .kattr.store = xnb_group_attr_store, \
		       .reset = xnb_reset_##_name)

XNB_GROUP_VALUE(cpu, "%d", g->cpu);
XNB_GROUP_VALUE(home_cpu, "%d", g->home_cpu);
XNB_GROUP_VALUE(mode, "%s", xnb_group_mode(g));
XNB_GROUP_VALUE(queues, "%u", g->nr_queues);
XNB_GROUP_ATTR(busy_pct, 0444);
XNB_GROUP_VALUE(passes, "%llu", xnb_gstat(g, &g->stats.passes));
XNB_GROUP_VALUE(packets, "%llu", xnb_gstat(g, &g->stats.packets));
XNB_GROUP_VALUE(batches, "%llu", xnb_gstat(g, &g->stats.batches));
XNB_GROUP_VALUE(ops, "%llu", xnb_gstat(g, &g->stats.ops));
XNB_GROUP_VALUE(handoffs, "%llu", xnb_gstat(g, &g->stats.handoffs));
XNB_GROUP_VALUE(moves_in, "%lu", g->moves_in);
XNB_GROUP_VALUE(moves_out, "%lu", g->moves_out);
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

/* Live directories plus one for the module: a release may come late,
 * and exit waits for it, as this code must outlive it.
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

/* Each removal waits for the reads under way. */
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

/* Out of memory, the rest of the array is NULL. */
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

		if (!d)
			break;
		kobject_init(&d->kobj, &xnb_group_ktype);
		atomic_inc(&xnb_sysfs_live);
		d->index = i;
		d->gen = xnb_groups_gen;
		d->made_ns = now;
		d->made_busy_ns = xnb_gstat(&xnb_groups[i],
					    &xnb_groups[i].stats.busy_ns);
		dirs[i] = d;
		(*made)++;
	}
	return dirs;
}

/**
 * xnb_sysfs_update() - Make groups/ show the group set in force.
 * Context: Process context, may sleep.  Takes xnb_sysfs_mutex, then
 * xnb_assign_mutex; the caller holds neither.
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
	want = xnb_groups ? xnb_nr_groups : 0;
	if (gen != xnb_sysfs_gen && want)
		dirs = xnb_sysfs_alloc_dirs(want, &made);
	mutex_unlock(&xnb_assign_mutex);
	if (gen == xnb_sysfs_gen)
		goto out;

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

/* Create /sys/module/xen_netback/groups/; failures are logged, not fatal. */
void xnb_sysfs_init(void)
{
	struct kobject *mod;

	/* Built in, kernel/params.c made it for our parameters. */
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

/* Sleeps until every directory is released. */
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
