/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure logic of the control ring (netif.h, "Control ring"): the hash
 * configuration a frontend sets, the Toeplitz hash, and the answer to
 * each control request, with the status the stock driver gives.
 *
 * Like proto.c, drivers/net/xen-netback/ctrl.c touches no kernel state
 * and is built into the module and into the userspace tests
 * (tests/unit/test_ctrl.c, tests/fuzz/fuzz_ctrl.c).  Grant copies are
 * the driver's: a request is answered in two steps, xnb_ctrl_copy_len()
 * (what to copy from the guest's grant) and xnb_ctrl_answer() (with the
 * copied bytes).
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

/**
 * struct xnb_hash - What a frontend configured.
 * @alg: XEN_NETIF_CTRL_HASH_ALGORITHM_*
 * @flags: XEN_NETIF_CTRL_HASH_TYPE_*
 * @size: mapping entries; 0: hash % queues
 * @key: the key; octets past the set length are 0
 * @mapping: the mapping table, its first @size entries in use
 *
 * What a frontend configured; all zero (xnb_hash_init) until it does.
 */
struct xnb_hash {
	u32 alg;			/* XEN_NETIF_CTRL_HASH_ALGORITHM_* */
	u32 flags;			/* XEN_NETIF_CTRL_HASH_TYPE_* */
	u32 size;			/* mapping entries; 0: hash % queues */
	u8 key[XNB_HASH_KEY_MAX];	/* octets past the set length are 0 */
	u32 mapping[XNB_HASH_MAPPING_MAX];
};

/**
 * xnb_hash_init() - Clear a hash configuration to all zero.
 * @h: the configuration
 *
 * Context: Any context; no locks, no sleeping.
 */
void xnb_hash_init(struct xnb_hash *h);

/**
 * xnb_toeplitz() - The Toeplitz hash.
 * @key: the key
 * @keylen: the key's length in octets
 * @data: the input
 * @len: the input's length in octets
 *
 * Toeplitz over @len octets of @data with a key of @keylen octets (the
 * key is taken as followed by zeros), as netif.h defines it.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the hash.
 */
u32 xnb_toeplitz(const u8 *key, u32 keylen, const u8 *data, u32 len);

/**
 * xnb_hash_flags_valid() - Check a frontend's hash types.
 * @flags: XEN_NETIF_CTRL_HASH_TYPE_* bits
 *
 * Only the four hash types netif.h defines.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: true when @flags holds no other bit.
 */
bool xnb_hash_flags_valid(u32 flags);

/**
 * xnb_hash_flow() - The hash of a flow.
 * @h: the frontend's configuration, whose key is used
 * @type: one XEN_NETIF_CTRL_HASH_TYPE_* bit
 * @saddr: the source address
 * @daddr: the destination address
 * @sport_be: the source port, in network order
 * @dport_be: the destination port, in network order
 *
 * The hash of a flow for one XEN_NETIF_CTRL_HASH_TYPE_* bit (@type):
 * source then destination address (4 octets each for IPv4, 16 for
 * IPv6), then for the TCP types source and destination port, all in
 * network order as in the packet.  0 for any other @type.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the Toeplitz hash of the flow; 0 for any other @type.
 */
u32 xnb_hash_flow(const struct xnb_hash *h, u32 type, const u8 *saddr,
		  const u8 *daddr, u16 sport_be, u16 dport_be);

/**
 * xnb_hash_queue() - The queue for a packet of a given hash.
 * @h: the frontend's configuration
 * @hash: the packet's hash
 * @num_queues: the queues of the connection, not 0
 *
 * The queue for a packet of hash @hash: the mapping table's entry if the
 * frontend set one, else @hash modulo @num_queues.  An entry no longer
 * below @num_queues (the table was set for more queues) falls back to
 * the modulo.  @num_queues must not be 0.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the queue's index, below @num_queues.
 */
u32 xnb_hash_queue(const struct xnb_hash *h, u32 hash, u32 num_queues);

/**
 * xnb_ctrl_copy_len() - Octets to copy from a control request's grant.
 * @h: the frontend's configuration
 * @req: the request, a private copy
 *
 * Octets to copy from the grant data[0] of @req (from its offset 0)
 * before xnb_ctrl_answer() can judge it: the key for SET_HASH_KEY, the
 * (sub-)table for SET_HASH_MAPPING; 0 for other types and for requests
 * whose fields are invalid already (the answer needs no copy then).
 * At most max(XNB_HASH_KEY_MAX, 4 * XNB_HASH_MAPPING_MAX).
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the octets to copy; 0 for none.
 */
u32 xnb_ctrl_copy_len(const struct xnb_hash *h,
		      const struct xen_netif_ctrl_request *req);

/**
 * xnb_ctrl_answer() - Answer a control request.
 * @h: the frontend's configuration
 * @num_queues: the queues of the connection, at least 1
 * @req: the request (a private copy, read once)
 * @buf: the xnb_ctrl_copy_len() octets the driver copied
 * @copied: whether that grant copy succeeded (ignored when the length
 *	was 0)
 * @data: set to the response's data field
 *
 * The status of the response to @req (a private copy, read once), as
 * the stock driver answers; on success the request is applied to @h.
 * @buf holds the xnb_ctrl_copy_len() octets the driver copied, @copied
 * says whether that grant copy succeeded (ignored when the length was
 * 0).  *@data gets the response's data field.  @num_queues: the queues
 * of the connection, at least 1.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the response's status, a XEN_NETIF_CTRL_STATUS_* value.
 */
u32 xnb_ctrl_answer(struct xnb_hash *h, u32 num_queues,
		    const struct xen_netif_ctrl_request *req,
		    const void *buf, bool copied, u32 *data);

/*
 * The control ring's request budget: a token bucket per vif.  A
 * frontend sends a few requests to set up hashing, at connect and on
 * each change of its RSS settings; a ring's worth at once
 * (XNB_CTRL_BUDGET_BURST) and XNB_CTRL_BUDGET_RATE a second after that
 * (the ctrl_rate parameter's default) is far above what it needs, and
 * bounds what a guest that keeps the ring full costs dom0.  A ring with
 * requests and no tokens waits for XNB_CTRL_BUDGET_BATCH of them (fewer
 * when fewer requests wait), so a guest that keeps it full wakes dom0
 * once per batch, not once per request.
 */
#define XNB_CTRL_BUDGET_RATE	64u	/* requests a second, sustained */
#define XNB_CTRL_BUDGET_BURST	128u	/* a control ring's worth */
#define XNB_CTRL_BUDGET_PERIOD_NS (1000000000ull / XNB_CTRL_BUDGET_RATE)
#define XNB_CTRL_BUDGET_BATCH	16u
/* The most ctrl_rate takes: a token a microsecond. */
#define XNB_CTRL_RATE_MAX	1000000u

/**
 * struct xnb_ctrl_budget - A token bucket, kept as the time it is full.
 * @full_at: when the bucket holds @burst tokens again, in ns of the
 *	caller's monotonic clock; at or before now: it is full
 *
 * Each request taken moves @full_at one period (ns per token) later, so
 * the tokens at time t are burst - ceil((full_at - t) / period): no
 * division is needed to take one or to know how long to wait.
 */
struct xnb_ctrl_budget {
	u64 full_at;
};

/**
 * xnb_ctrl_budget_init() - Fill a budget.
 * @b: the budget
 *
 * Full at any time from 0 on.
 *
 * Context: Any context; no locks, no sleeping.
 */
void xnb_ctrl_budget_init(struct xnb_ctrl_budget *b);

/**
 * xnb_ctrl_budget_take() - Take one token, if there is one.
 * @b: the budget
 * @now: the time, in ns of a monotonic clock
 * @period: ns for one token to come back, at least 1
 * @burst: the tokens the bucket holds when full, at least 1
 *
 * A @now before an earlier one (a clock that went back) finds no more
 * tokens than that earlier time did.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: true when a token was taken (the request may be served).
 */
bool xnb_ctrl_budget_take(struct xnb_ctrl_budget *b, u64 now, u64 period,
			  u32 burst);

/**
 * xnb_ctrl_budget_wait() - How long until a budget holds some tokens.
 * @b: the budget
 * @now: the time, in ns of a monotonic clock
 * @want: the tokens wanted; taken as 1 when 0, as @burst above it
 * @period: ns for one token to come back, at least 1
 * @burst: the tokens the bucket holds when full, at least 1
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the ns from @now until @b holds @want tokens; 0 when it does
 * already (U64 all ones for a @burst of 0: never).
 */
u64 xnb_ctrl_budget_wait(const struct xnb_ctrl_budget *b, u64 now, u32 want,
			 u64 period, u32 burst);

#endif /* XNB_CTRL_H */
