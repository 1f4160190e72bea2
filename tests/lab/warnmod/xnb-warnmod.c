// SPDX-License-Identifier: GPL-2.0
/* Lab self-test: a module that WARNs once at load, so the lab can show that
 * a kernel warning turns a scenario into a failure. */
#include <linux/module.h>
#include <linux/bug.h>

static int __init xnb_warnmod_init(void)
{
	WARN(1, "xnb-warnmod: deliberate warning for the lab self-test\n");
	return 0;
}

static void __exit xnb_warnmod_exit(void)
{
}

module_init(xnb_warnmod_init);
module_exit(xnb_warnmod_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("xen-netback lab self-test: WARN at load");
