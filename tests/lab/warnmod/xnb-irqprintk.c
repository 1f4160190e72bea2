// SPDX-License-Identifier: GPL-2.0
/* Lab test module: printk from hard irq context on every online CPU, for
 * the netconsole phase of the hostile campaign (scenarios/hostile.sh).
 *
 * With netconsole loaded, a console line goes out through netpoll, with
 * IRQs off, from whatever context printed it: from one of these timers,
 * that is whatever code the timer's interrupt cut into on its CPU, the
 * backend's control ring work among it.  A pinned hard-irq hrtimer per
 * CPU prints one line every period_us for seconds, then stops; unloading
 * stops them too.
 */
#include <linux/cpumask.h>
#include <linux/hrtimer.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/percpu.h>
#include <linux/printk.h>
#include <linux/smp.h>

static unsigned int period_us = 5000;
module_param(period_us, uint, 0444);
MODULE_PARM_DESC(period_us, "Interval between two lines of one CPU (us, at least 100)");

static unsigned int seconds = 10;
module_param(seconds, uint, 0444);
MODULE_PARM_DESC(seconds, "How long each CPU keeps printing (s)");

struct xnb_irqp {
	struct hrtimer timer;
	ktime_t end;
	unsigned long lines;
	bool started;
};

static DEFINE_PER_CPU(struct xnb_irqp, xnb_irqp);

static enum hrtimer_restart xnb_irqp_fire(struct hrtimer *t)
{
	struct xnb_irqp *p = container_of(t, struct xnb_irqp, timer);
	ktime_t now = hrtimer_cb_get_time(t);

	pr_info("xnb-irqprintk: cpu %d line %lu, from hard irq\n",
		smp_processor_id(), ++p->lines);
	if (ktime_after(now, p->end))
		return HRTIMER_NORESTART;
	hrtimer_forward(t, now, ns_to_ktime(period_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/* On each CPU in turn (an IPI): arm that CPU's timer there, pinned. */
static void xnb_irqp_start(void *unused)
{
	struct xnb_irqp *p = this_cpu_ptr(&xnb_irqp);

	hrtimer_init(&p->timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	p->timer.function = xnb_irqp_fire;
	p->end = ktime_add(ktime_get(), ktime_set(seconds, 0));
	p->started = true;
	hrtimer_start(&p->timer, ns_to_ktime(period_us * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
}

static int __init xnb_irqp_init(void)
{
	if (period_us < 100)
		return -EINVAL;
	on_each_cpu(xnb_irqp_start, NULL, 1);
	return 0;
}

static void __exit xnb_irqp_exit(void)
{
	unsigned long lines = 0;
	int cpu;

	for_each_possible_cpu(cpu) {
		struct xnb_irqp *p = per_cpu_ptr(&xnb_irqp, cpu);

		if (!p->started)
			continue;
		hrtimer_cancel(&p->timer);
		lines += p->lines;
	}
	pr_info("xnb-irqprintk: %lu lines printed from hard irq\n", lines);
}

module_init(xnb_irqp_init);
module_exit(xnb_irqp_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("xen-netback lab test: printk from hard irq on every CPU");
