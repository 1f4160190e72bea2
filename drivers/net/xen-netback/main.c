// SPDX-License-Identifier: GPL-2.0
/* Module parameters, init and exit. */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/module.h>
#include <xen/xen.h>

#include "common.h"

static char *worker = "kthread";
module_param(worker, charp, 0444);
MODULE_PARM_DESC(worker, "How a group's NAPI poll runs: kthread (in softirq while light, its own thread under sustained load) or tasklet (softirq only)");
bool xnb_use_tasklet;

static unsigned int xnb_clamp(const char *name, unsigned int v,
			      unsigned int lo, unsigned int hi)
{
	unsigned int c = clamp(v, lo, hi);

	if (c != v)
		pr_warn("%s=%u out of range [%u, %u], using %u\n",
			name, v, lo, hi, c);
	return c;
}

/* A parameter writable at runtime: in [lo, hi] (hi per possible CPU where
 * per_cpu), or 0 (off) too where off_ok.  apply, or a store, takes it.
 */
struct xnb_uparam {
	unsigned int *var;
	unsigned int lo, hi;
	bool per_cpu, off_ok;
	int (*apply)(unsigned int v);
};

/* Clamped before load, so a bad config cannot cost dom0 its backend. */
static bool xnb_loaded;

static int xnb_uparam_set(const char *val, const struct kernel_param *kp)
{
	const struct xnb_uparam *p = kp->arg;
	unsigned int lo = p->lo, hi = p->per_cpu ? p->hi * nr_cpu_ids : p->hi;
	unsigned int v;
	int err = kstrtouint(val, 0, &v);

	if (err)
		return err;
	if (v > hi || (v < lo && (v || !p->off_ok))) {
		/* With 0 for off: above hi is out of [0, hi]. */
		if (v > hi && p->off_ok)
			lo = 0;
		if (READ_ONCE(xnb_loaded)) {
			pr_warn("%s=%u refused: %s[%u, %u]\n", kp->name, v,
				p->off_ok && lo ? "0 or " : "out of range ",
				lo, hi);
			return -EINVAL;
		}
		v = xnb_clamp(kp->name, v, lo, hi);
	}
	if (p->apply)
		return p->apply(v);
	WRITE_ONCE(*p->var, v);
	return 0;
}

/* For values stored outside the param lock (module init, apply). */
static int xnb_uparam_get(char *buffer, const struct kernel_param *kp)
{
	const struct xnb_uparam *p = kp->arg;

	return scnprintf(buffer, PAGE_SIZE, "%u\n", READ_ONCE(*p->var));
}

static const struct kernel_param_ops xnb_uparam_ops = {
	.set = xnb_uparam_set,
	.get = xnb_uparam_get,
};

/* Written only under groupset.c's assign mutex (WRITE_ONCE). */
unsigned int xnb_nr_groups;

/* groupset.c applies it under its assign mutex: no race with init/exit. */
static int xnb_groups_apply(unsigned int v)
{
	int err = xnb_groups_set_count(v);

	if (!err)	/* groups/ in sysfs shows the set now in force */
		xnb_sysfs_update();
	return err;
}

static struct xnb_uparam xnb_groups_p = {
	.var = &xnb_nr_groups, .hi = 4, .per_cpu = true,
	.apply = xnb_groups_apply,
};
module_param_cb(groups, &xnb_uparam_ops, &xnb_groups_p, 0644);
MODULE_PARM_DESC(groups, "Number of worker groups (0 = one per online CPU, at most 4 x possible CPUs); writable at runtime, moves queues live");

/* Each group resizes its batch between two passes (group.c). */
unsigned int xnb_copy_batch = 256;
static struct xnb_uparam xnb_copy_batch_p = {
	.var = &xnb_copy_batch, .lo = XNB_COPY_BATCH_MIN,
	.hi = XNB_COPY_BATCH_MAX, .apply = xnb_groups_set_batch,
};
module_param_cb(copy_batch, &xnb_uparam_ops, &xnb_copy_batch_p, 0644);
MODULE_PARM_DESC(copy_batch, "Grant copy ops per hypercall at most (128-4096)");

unsigned int xnb_budget = 64;
static struct xnb_uparam xnb_budget_p = {
	.var = &xnb_budget, .lo = 1, .hi = XNB_BUDGET_MAX,
};
module_param_cb(budget, &xnb_uparam_ops, &xnb_budget_p, 0644);
MODULE_PARM_DESC(budget, "Ring slots (a page of data at most each) per vif and direction in one group pass, split among its busy queues (1-1024)");

unsigned int xnb_rebalance_ms = 1000;

static int xnb_rebalance_apply(unsigned int ms)
{
	xnb_balance_set_interval(ms);
	return 0;
}

static struct xnb_uparam xnb_rebalance_p = {
	.var = &xnb_rebalance_ms, .lo = XNB_REBALANCE_MIN_MS,
	.hi = XNB_REBALANCE_MAX_MS, .off_ok = true,
	.apply = xnb_rebalance_apply,
};
module_param_cb(rebalance_ms, &xnb_uparam_ops, &xnb_rebalance_p, 0644);
MODULE_PARM_DESC(rebalance_ms, "Every this many ms, move at most one queue from a saturated group to an idle one (0 = off, 100-60000)");

unsigned int xnb_ctrl_rate = XNB_CTRL_BUDGET_RATE;
static struct xnb_uparam xnb_ctrl_rate_p = {
	.var = &xnb_ctrl_rate, .hi = XNB_CTRL_RATE_MAX,
};
module_param_cb(ctrl_rate, &xnb_uparam_ops, &xnb_ctrl_rate_p, 0644);
MODULE_PARM_DESC(ctrl_rate, "Control-ring requests per second per vif after a ring's worth at once (0 = unlimited, at most 1000000)");

/* Any number is accepted, as by the in-tree driver. */
unsigned int xnb_max_queues;

static unsigned int xnb_max_queues_pick(unsigned int v)
{
	if (!v)
		return min(8U, num_online_cpus());
	return xnb_clamp("max_queues", v, 1, XNB_MAX_QUEUES);
}

static int xnb_max_queues_apply(unsigned int v)
{
	WRITE_ONCE(xnb_max_queues, xnb_max_queues_pick(v));
	return 0;
}

static struct xnb_uparam xnb_max_queues_p = {
	.var = &xnb_max_queues, .hi = UINT_MAX,
	.apply = xnb_max_queues_apply,
};
module_param_cb(max_queues, &xnb_uparam_ops, &xnb_max_queues_p, 0644);
MODULE_PARM_DESC(max_queues, "Queues a frontend may use (0 = min(8, online CPUs), 1-64); for the next connection");

unsigned int xnb_fatal_skb_slots = 20;
module_param_named(fatal_skb_slots, xnb_fatal_skb_slots, uint, 0444);
MODULE_PARM_DESC(fatal_skb_slots, "Further slots in one packet that disable the vif (18-64)");

unsigned int xnb_rx_queue_bytes = 512 * 1024;
module_param_named(rx_queue_bytes, xnb_rx_queue_bytes, uint, 0444);
MODULE_PARM_DESC(rx_queue_bytes, "Memory (truesize) the packets queued for a guest queue may hold before the netdev queue stops (64 KiB-64 MiB)");

unsigned int xnb_rx_drain_msecs = 10000;
module_param_named(rx_drain_timeout_msecs, xnb_rx_drain_msecs, uint, 0444);
MODULE_PARM_DESC(rx_drain_timeout_msecs, "Drop packets queued for a guest that posts no buffers after this long (10-3600000)");

unsigned int xnb_rx_stall_msecs = 60000;
module_param_named(rx_stall_timeout_msecs, xnb_rx_stall_msecs, uint, 0444);
MODULE_PARM_DESC(rx_stall_timeout_msecs, "Carrier off when a guest posts no buffers for this long (10-3600000)");

bool xnb_separate_tx_rx_irq = true;
module_param_named(separate_tx_rx_irq, xnb_separate_tx_rx_irq, bool, 0644);
MODULE_PARM_DESC(separate_tx_rx_irq, "Offer split event channels; for the next connection");

/* Accepted for the in-tree driver's users; no hash cache is kept. */
static unsigned int xnb_hash_cache_size = 64;
module_param_named(hash_cache_size, xnb_hash_cache_size, uint, 0644);
MODULE_PARM_DESC(hash_cache_size, "Stock's hash cache bound; accepted, no effect (no cache kept)");

/* Read (READ_ONCE) at each InitWait: a connection keeps its offer. */
bool xnb_provides_xdp_headroom = true;
module_param_named(provides_xdp_headroom, xnb_provides_xdp_headroom, bool,
		   0644);
MODULE_PARM_DESC(provides_xdp_headroom, "Offer feature-xdp-headroom; for the next connection");

static int __init xnb_init(void)
{
	int err;

	WRITE_ONCE(xnb_loaded, true);
	if (!xen_domain())
		return -ENODEV;

	xnb_use_tasklet = !strcmp(worker, "tasklet");
	if (!xnb_use_tasklet && strcmp(worker, "kthread")) {
		pr_err("worker=%s: must be kthread or tasklet\n", worker);
		return -EINVAL;
	}
	/* Unless a write set it meanwhile (it may, from sysfs). */
	cmpxchg(&xnb_max_queues, 0, xnb_max_queues_pick(0));
	/* No lower than honest frontends use (xnb_proto.h). */
	xnb_fatal_skb_slots = xnb_clamp("fatal_skb_slots", xnb_fatal_skb_slots,
					XNB_TX_MAX_DATA, XNB_TX_FATAL_MAX);
	xnb_rx_queue_bytes = xnb_clamp("rx_queue_bytes", xnb_rx_queue_bytes,
				       64 * 1024, 64 * 1024 * 1024);
	xnb_rx_drain_msecs = xnb_clamp("rx_drain_timeout_msecs",
				       xnb_rx_drain_msecs, 10, 3600 * 1000);
	xnb_rx_stall_msecs = xnb_clamp("rx_stall_timeout_msecs",
				       xnb_rx_stall_msecs, 10, 3600 * 1000);

	err = xnb_groups_init();
	if (err)
		return err;
	err = xnb_ctrl_wq_init();
	if (err)
		goto fail_groups;
	xnb_debugfs_init();
	xnb_sysfs_init();
	xnb_balance_start();

	err = xnb_xenbus_init();
	if (err)
		goto fail;

	pr_info("%u %s groups, copy_batch %u, budget %u, rebalance_ms %u\n",
		READ_ONCE(xnb_nr_groups), xnb_use_tasklet ? "tasklet" : "kthread",
		READ_ONCE(xnb_copy_batch), READ_ONCE(xnb_budget),
		READ_ONCE(xnb_rebalance_ms));
	return 0;

fail:
	xnb_balance_stop();
	xnb_sysfs_exit();
	xnb_debugfs_exit();
	xnb_ctrl_wq_exit();
fail_groups:
	xnb_groups_exit();
	return err;
}
module_init(xnb_init);

static void __exit xnb_exit(void)
{
	xnb_xenbus_exit();	/* no vif is left: each held a reference */
	xnb_balance_stop();	/* before the groups it measures */
	xnb_sysfs_exit();
	xnb_debugfs_exit();
	xnb_ctrl_wq_exit();	/* after the last vif's disconnect */
	xnb_groups_exit();
}
module_exit(xnb_exit);

MODULE_DESCRIPTION("Xen network backend with worker groups and batched grant copies");
MODULE_LICENSE("GPL");
MODULE_VERSION(XNB_VERSION);
MODULE_ALIAS("xen-backend:vif");
