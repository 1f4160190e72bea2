// SPDX-License-Identifier: GPL-2.0
/*
 * Module parameters, init and exit.
 *
 * Every parameter is read-only after load (0444): groups and their
 * batches are sized once.  Out-of-range values are clamped with a log
 * line; an unknown worker= refuses the load.
 *
 * Unloading is refused while any vif exists: xenbus holds a module
 * reference for every bound device.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpumask.h>
#include <linux/module.h>
#include <xen/xen.h>

#include "common.h"

unsigned int xnb_nr_groups;
module_param_named(groups, xnb_nr_groups, uint, 0444);
MODULE_PARM_DESC(groups, "Number of worker groups (0 = one per online CPU)");

static char *worker = "kthread";
module_param(worker, charp, 0444);
MODULE_PARM_DESC(worker, "What runs a group: kthread or tasklet");
bool xnb_use_tasklet;

unsigned int xnb_copy_batch = 256;
module_param_named(copy_batch, xnb_copy_batch, uint, 0444);
MODULE_PARM_DESC(copy_batch, "Grant copy ops per hypercall at most (128-4096)");

unsigned int xnb_budget = 64;
module_param_named(budget, xnb_budget, uint, 0444);
MODULE_PARM_DESC(budget, "Ring slots (a page of data at most each) per queue and direction in one group pass");

unsigned int xnb_max_queues;
module_param_named(max_queues, xnb_max_queues, uint, 0444);
MODULE_PARM_DESC(max_queues, "Queues a frontend may use (0 = min(8, online CPUs))");

unsigned int xnb_fatal_skb_slots = 20;
module_param_named(fatal_skb_slots, xnb_fatal_skb_slots, uint, 0444);
MODULE_PARM_DESC(fatal_skb_slots, "Further slots in one packet that disable the vif");

unsigned int xnb_rx_queue_bytes = 512 * 1024;
module_param_named(rx_queue_bytes, xnb_rx_queue_bytes, uint, 0444);
MODULE_PARM_DESC(rx_queue_bytes, "Bytes queued for a guest queue before the netdev queue stops");

unsigned int xnb_rx_drain_msecs = 10000;
module_param_named(rx_drain_timeout_msecs, xnb_rx_drain_msecs, uint, 0444);
MODULE_PARM_DESC(rx_drain_timeout_msecs, "Drop packets queued for a guest that posts no buffers after this long");

unsigned int xnb_rx_stall_msecs = 60000;
module_param_named(rx_stall_timeout_msecs, xnb_rx_stall_msecs, uint, 0444);
MODULE_PARM_DESC(rx_stall_timeout_msecs, "Carrier off when a guest posts no buffers for this long");

bool xnb_separate_tx_rx_irq = true;
module_param_named(separate_tx_rx_irq, xnb_separate_tx_rx_irq, bool, 0444);
MODULE_PARM_DESC(separate_tx_rx_irq, "Offer split event channels");

static unsigned int xnb_clamp(const char *name, unsigned int v,
			      unsigned int lo, unsigned int hi)
{
	unsigned int c = clamp(v, lo, hi);

	if (c != v)
		pr_info("%s=%u out of range [%u, %u], using %u\n",
			name, v, lo, hi, c);
	return c;
}

static int __init xnb_params(void)
{
	unsigned int cpus = num_online_cpus();

	if (!strcmp(worker, "kthread")) {
		xnb_use_tasklet = false;
	} else if (!strcmp(worker, "tasklet")) {
		xnb_use_tasklet = true;
	} else {
		pr_err("worker=%s: must be kthread or tasklet\n", worker);
		return -EINVAL;
	}

	if (!xnb_nr_groups)
		xnb_nr_groups = cpus;
	xnb_nr_groups = xnb_clamp("groups", xnb_nr_groups, 1, 4 * nr_cpu_ids);
	xnb_copy_batch = xnb_clamp("copy_batch", xnb_copy_batch,
				   XNB_COPY_BATCH_MIN, XNB_COPY_BATCH_MAX);
	xnb_budget = xnb_clamp("budget", xnb_budget, 1, 1024);
	if (!xnb_max_queues)
		xnb_max_queues = min(8U, cpus);
	xnb_max_queues = xnb_clamp("max_queues", xnb_max_queues, 1, 64);
	/* Honest frontends use up to 17 further slots; see xnb_proto.h. */
	xnb_fatal_skb_slots = xnb_clamp("fatal_skb_slots", xnb_fatal_skb_slots,
					XNB_TX_MAX_DATA, XNB_TX_FATAL_MAX);
	xnb_rx_queue_bytes = xnb_clamp("rx_queue_bytes", xnb_rx_queue_bytes,
				       64 * 1024, 64 * 1024 * 1024);
	xnb_rx_drain_msecs = xnb_clamp("rx_drain_timeout_msecs",
				       xnb_rx_drain_msecs, 10, 3600 * 1000);
	xnb_rx_stall_msecs = xnb_clamp("rx_stall_timeout_msecs",
				       xnb_rx_stall_msecs, 10, 3600 * 1000);
	return 0;
}

static int __init xnb_init(void)
{
	int err;

	if (!xen_domain())
		return -ENODEV;

	err = xnb_params();
	if (err)
		return err;

	err = xnb_groups_init();
	if (err)
		return err;
	xnb_debugfs_init();

	err = xnb_xenbus_init();
	if (err)
		goto fail;

	pr_info("%u %s groups, copy_batch %u, budget %u\n", xnb_nr_groups,
		xnb_use_tasklet ? "tasklet" : "kthread", xnb_copy_batch,
		xnb_budget);
	return 0;

fail:
	xnb_debugfs_exit();
	xnb_groups_exit();
	return err;
}
module_init(xnb_init);

static void __exit xnb_exit(void)
{
	xnb_xenbus_exit();	/* no vif is left: each held a reference */
	xnb_debugfs_exit();
	xnb_groups_exit();
}
module_exit(xnb_exit);

MODULE_DESCRIPTION("Xen network backend with worker groups and batched grant copies");
MODULE_LICENSE("GPL");
MODULE_VERSION(XNB_VERSION);
MODULE_ALIAS("xen-backend:vif");
