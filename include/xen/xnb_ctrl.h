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

/* What a frontend configured; all zero (xnb_hash_init) until it does. */
struct xnb_hash {
	u32 alg;			/* XEN_NETIF_CTRL_HASH_ALGORITHM_* */
	u32 flags;			/* XEN_NETIF_CTRL_HASH_TYPE_* */
	u32 size;			/* mapping entries; 0: hash % queues */
	u8 key[XNB_HASH_KEY_MAX];	/* octets past the set length are 0 */
	u32 mapping[XNB_HASH_MAPPING_MAX];
};

void xnb_hash_init(struct xnb_hash *h);

/* Toeplitz over @len octets of @data with a key of @keylen octets (the
 * key is taken as followed by zeros), as netif.h defines it.
 */
u32 xnb_toeplitz(const u8 *key, u32 keylen, const u8 *data, u32 len);

/* Only the four hash types netif.h defines. */
bool xnb_hash_flags_valid(u32 flags);

/*
 * The hash of a flow for one XEN_NETIF_CTRL_HASH_TYPE_* bit (@type):
 * source then destination address (4 octets each for IPv4, 16 for
 * IPv6), then for the TCP types source and destination port, all in
 * network order as in the packet.  0 for any other @type.
 */
u32 xnb_hash_flow(const struct xnb_hash *h, u32 type, const u8 *saddr,
		  const u8 *daddr, u16 sport_be, u16 dport_be);

/*
 * The queue for a packet of hash @hash: the mapping table's entry if the
 * frontend set one, else @hash modulo @num_queues.  An entry no longer
 * below @num_queues (the table was set for more queues) falls back to
 * the modulo.  @num_queues must not be 0.
 */
u32 xnb_hash_queue(const struct xnb_hash *h, u32 hash, u32 num_queues);

/*
 * Octets to copy from the grant data[0] of @req (from its offset 0)
 * before xnb_ctrl_answer() can judge it: the key for SET_HASH_KEY, the
 * (sub-)table for SET_HASH_MAPPING; 0 for other types and for requests
 * whose fields are invalid already (the answer needs no copy then).
 * At most max(XNB_HASH_KEY_MAX, 4 * XNB_HASH_MAPPING_MAX).
 */
u32 xnb_ctrl_copy_len(const struct xnb_hash *h,
		      const struct xen_netif_ctrl_request *req);

/*
 * The status of the response to @req (a private copy, read once), as
 * the stock driver answers; on success the request is applied to @h.
 * @buf holds the xnb_ctrl_copy_len() octets the driver copied, @copied
 * says whether that grant copy succeeded (ignored when the length was
 * 0).  *@data gets the response's data field.  @num_queues: the queues
 * of the connection, at least 1.
 */
u32 xnb_ctrl_answer(struct xnb_hash *h, u32 num_queues,
		    const struct xen_netif_ctrl_request *req,
		    const void *buf, bool copied, u32 *data);

#endif /* XNB_CTRL_H */
