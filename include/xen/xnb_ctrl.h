/* SPDX-License-Identifier: GPL-2.0 */
/* Control ring logic (ctrl.c), built into the userspace tests too: the hash
 * and stock's answer to each request.  Any context, no locks, no sleeping.
 */
#ifndef XNB_CTRL_H
#define XNB_CTRL_H

#include <xen/xnb_proto.h>	/* u8..u64 and netif.h */

/* Stock's limits: key octets, and mapping table entries. */
#define XNB_HASH_KEY_MAX	40u
#define XNB_HASH_MAPPING_MAX	128u

#define XNB_HASH_FLAGS_ALL	(XEN_NETIF_CTRL_HASH_TYPE_IPV4 |	\
				 XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP |	\
				 XEN_NETIF_CTRL_HASH_TYPE_IPV6 |	\
				 XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP)

/* Hash input: addresses and ports, the longest being IPv6 + TCP. */
#define XNB_HASH_INPUT_MAX	36u

/* What a frontend configured; all zero (xnb_hash_init()) until it does. */
struct xnb_hash {
	u32 alg;			/* XEN_NETIF_CTRL_HASH_ALGORITHM_* */
	u32 flags;			/* XEN_NETIF_CTRL_HASH_TYPE_* */
	u32 size;			/* mapping entries; 0: hash % queues */
	u8 key[XNB_HASH_KEY_MAX];	/* octets past the set length are 0 */
	u32 mapping[XNB_HASH_MAPPING_MAX];
};

/* Clear @h to all zero: no hash. */
void xnb_hash_init(struct xnb_hash *h);

/* The Toeplitz hash, with @h's key, of a flow of @type (one HASH_TYPE_* bit;
 * 0 for any other): addresses of 4 octets (IPv4) or 16, ports (TCP types
 * only) in network order.
 */
u32 xnb_hash_flow(const struct xnb_hash *h, u32 type, const u8 *saddr,
		  const u8 *daddr, u16 sport_be, u16 dport_be);

/* @h->mapping[@hash % @h->size], or @hash % @num_queues (not 0) without a
 * table or for an entry not below @num_queues.
 */
u32 xnb_hash_queue(const struct xnb_hash *h, u32 hash, u32 num_queues);

/**
 * xnb_ctrl_copy_len() - Octets to copy from a control request's grant.
 * @h: the frontend's configuration
 * @req: the request, a private copy
 * Return: the octets xnb_ctrl_answer() needs from data[0]'s grant, from
 * offset 0 (a key or a mapping table); 0 for none or invalid fields.  At
 * most max(XNB_HASH_KEY_MAX, 4 * XNB_HASH_MAPPING_MAX).
 */
u32 xnb_ctrl_copy_len(const struct xnb_hash *h,
		      const struct xen_netif_ctrl_request *req);

/**
 * xnb_ctrl_answer() - Answer a control request; on success apply it to @h.
 * @h: the frontend's configuration
 * @num_queues: the queues of the connection, at least 1
 * @req: the request, a private copy read once
 * @buf: the xnb_ctrl_copy_len() octets the driver copied
 * @copied: that grant copy succeeded (ignored for a length of 0)
 * @data: set to the response's data field
 * Return: the response's XEN_NETIF_CTRL_STATUS_*, as the stock driver's.
 */
u32 xnb_ctrl_answer(struct xnb_hash *h, u32 num_queues,
		    const struct xen_netif_ctrl_request *req,
		    const void *buf, bool copied, u32 *data);

/* A vif's control-request budget, a token bucket far above an honest
 * frontend's needs; an empty bucket waits for a batch, not each request.
 */
#define XNB_CTRL_BUDGET_RATE	64u	/* requests a second, sustained */
#define XNB_CTRL_BUDGET_BURST	128u	/* a control ring's worth */
#define XNB_CTRL_BUDGET_BATCH	16u
/* The most ctrl_rate takes: a token a microsecond. */
#define XNB_CTRL_RATE_MAX	1000000u

/* Kept as the time it is full: taking a token needs no division. */
struct xnb_ctrl_budget {
	u64 full_at;		/* ns, monotonic; at or before now (0): full */
};

/* Take a token, if any, so the request may be served.  @now: ns, monotonic
 * (going back finds no more); @period: ns a token takes to come back;
 * @burst: the tokens of a full bucket; both at least 1.
 */
bool xnb_ctrl_budget_take(struct xnb_ctrl_budget *b, u64 now, u64 period,
			  u32 burst);

/* The ns until @b holds @want tokens (0 counts as 1, above @burst as @burst);
 * 0 if it does, ~0 for a @burst of 0.  The rest as xnb_ctrl_budget_take().
 */
u64 xnb_ctrl_budget_wait(const struct xnb_ctrl_budget *b, u64 now, u32 want,
			 u64 period, u32 burst);

#endif /* XNB_CTRL_H */
