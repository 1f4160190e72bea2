// SPDX-License-Identifier: GPL-2.0
/* The read hook for the userspace tests: see xnb_read_hook.h. */
#include <string.h>
#include "xnb_read_hook.h"

struct xnb_hook xnb_hook;

void xnb_hook_watch(void *base, unsigned long len, unsigned char *reads,
		    int scribble, unsigned char salt)
{
	xnb_hook.base = base;
	xnb_hook.len = len;
	xnb_hook.reads = reads;
	xnb_hook.outside = 0;
	xnb_hook.scribble = scribble;
	xnb_hook.salt = salt;
	if (reads)
		memset(reads, 0, len);
}

void xnb_hook_watch_stamped(void *base, unsigned long len,
			    unsigned int *stamp, int scribble,
			    unsigned char salt)
{
	unsigned int gen = xnb_hook.gen + 1;

	if (!gen)
		gen = 1;	/* zero is what fresh (calloc) stamps hold */

	xnb_hook_watch(base, len, NULL, scribble, salt);
	xnb_hook.stamp = stamp;
	xnb_hook.gen = gen;
	xnb_hook.twice = 0;
}

void xnb_hook_off(void)
{
	unsigned int gen = xnb_hook.gen;

	memset(&xnb_hook, 0, sizeof(xnb_hook));
	xnb_hook.gen = gen;	/* stamps from earlier watches stay stale */
}

void xnb_hook_read(const void *addr, unsigned long size)
{
	const unsigned char *a = addr;
	unsigned long off, i;

	if (!xnb_hook.base)
		return;
	if (a < xnb_hook.base || a + size > xnb_hook.base + xnb_hook.len) {
		xnb_hook.outside++;
		return;
	}
	off = (unsigned long)(a - xnb_hook.base);
	for (i = 0; i < size; i++) {
		if (xnb_hook.reads && xnb_hook.reads[off + i] < 255)
			xnb_hook.reads[off + i]++;
		if (xnb_hook.stamp) {
			if (xnb_hook.stamp[off + i] == xnb_hook.gen)
				xnb_hook.twice++;
			xnb_hook.stamp[off + i] = xnb_hook.gen;
		}
		/* The guest strikes: a different, hostile value. */
		if (xnb_hook.scribble)
			xnb_hook.base[off + i] ^= (unsigned char)
				(((0xa5 ^ xnb_hook.salt) + i) | 1);
	}
}
