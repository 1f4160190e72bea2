/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Force-included (-include) ahead of drivers/net/xen-netback/proto.c in
 * the userspace tests: every READ_ONCE of the shared ring goes through
 * xnb_hook_read() after the load, so a test can count the reads of each
 * byte and can play a guest that rewrites a field the moment the backend
 * has read it (a double fetch would then see the rewritten value).
 */
#ifndef XNB_READ_HOOK_H
#define XNB_READ_HOOK_H

void xnb_hook_read(const void *addr, unsigned long size);

#define READ_ONCE(x) ({							\
	__typeof__(x) __xnb_v = __atomic_load_n(&(x), __ATOMIC_RELAXED); \
	xnb_hook_read(&(x), sizeof(x));					\
	__xnb_v;							\
})

/* Watch [base, base + len): count reads per byte, optionally scribble. */
struct xnb_hook {
	unsigned char *base;
	unsigned long len;
	unsigned char *reads;	/* len counters, or NULL */
	unsigned long outside;	/* reads that fell outside the window */
	int scribble;		/* rewrite each field right after its read */
	unsigned char salt;
	/* Cheap alternative to reads[]: a byte read twice in one watch
	 * finds its stamp already at gen and counts in twice.
	 */
	unsigned int *stamp;	/* len stamps, or NULL */
	unsigned int gen;
	unsigned long twice;
};

extern struct xnb_hook xnb_hook;

void xnb_hook_watch(void *base, unsigned long len, unsigned char *reads,
		    int scribble, unsigned char salt);
/* Like xnb_hook_watch, with stamps (kept across calls) for reads[]. */
void xnb_hook_watch_stamped(void *base, unsigned long len,
			    unsigned int *stamp, int scribble,
			    unsigned char salt);
void xnb_hook_off(void);

#endif /* XNB_READ_HOOK_H */
