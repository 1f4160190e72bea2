// SPDX-License-Identifier: GPL-2.0
/*
 * Control ring logic, shared with the userspace tests (xnb_ctrl.h).  Each
 * request field is the guest's and judged before use; a request that fails
 * leaves the configuration as it was.
 */
/* netif.h's own Toeplitz hash, xen_netif_toeplitz_hash(). */
#define XEN_NETIF_DEFINE_TOEPLITZ
#include <linux/compiler.h>
#include <linux/string.h>

#include <xen/xnb_ctrl.h>

void xnb_hash_init(struct xnb_hash *h)
{
	/* alg is read lockless: a store of its own, not part of a memset. */
	WRITE_ONCE(h->alg, XEN_NETIF_CTRL_HASH_ALGORITHM_NONE);
	h->flags = 0;
	h->size = 0;
	memset(h->key, 0, sizeof(h->key));
	memset(h->mapping, 0, sizeof(h->mapping));
}

u32 xnb_hash_flow(const struct xnb_hash *h, u32 type, const u8 *saddr,
		  const u8 *daddr, u16 sport_be, u16 dport_be)
{
	u8 in[XNB_HASH_INPUT_MAX];
	bool ports;
	u32 alen, n;

	switch (type) {
	case XEN_NETIF_CTRL_HASH_TYPE_IPV4:
	case XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP:
		alen = 4;
		ports = type == XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP;
		break;
	case XEN_NETIF_CTRL_HASH_TYPE_IPV6:
	case XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP:
		alen = 16;
		ports = type == XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP;
		break;
	default:
		return 0;
	}
	memcpy(in, saddr, alen);
	memcpy(in + alen, daddr, alen);
	n = 2 * alen;
	if (ports) {
		/* Already in network order: copied as they lie in memory. */
		memcpy(in + n, &sport_be, 2);
		memcpy(in + n + 2, &dport_be, 2);
		n += 4;
	}
	return xen_netif_toeplitz_hash(h->key, XNB_HASH_KEY_MAX, in, n);
}

u32 xnb_hash_queue(const struct xnb_hash *h, u32 hash, u32 num_queues)
{
	u32 size = h->size, q;

	if (size && size <= XNB_HASH_MAPPING_MAX) {
		q = h->mapping[hash % size];
		if (q < num_queues)
			return q;
	}
	return hash % num_queues;
}

/* As stock: within the table and a page, and off + len cannot overflow. */
static bool xnb_mapping_range_ok(const struct xnb_hash *h, u32 len, u32 off)
{
	return len <= h->size && off <= h->size - len &&
	       len <= XNB_PAGE_SIZE / sizeof(u32);
}

u32 xnb_ctrl_copy_len(const struct xnb_hash *h,
		      const struct xen_netif_ctrl_request *req)
{
	switch (req->type) {
	case XEN_NETIF_CTRL_TYPE_SET_HASH_KEY:
		return req->data[1] <= XNB_HASH_KEY_MAX ? req->data[1] : 0;
	case XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING:
		if (!xnb_mapping_range_ok(h, req->data[1], req->data[2]))
			return 0;
		return req->data[1] * sizeof(u32);
	default:
		return 0;
	}
}

static u32 xnb_ctrl_set_key(struct xnb_hash *h, u32 len, const void *buf,
			    bool copied)
{
	if (len > XNB_HASH_KEY_MAX)
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	if (len && !copied)
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	/* Octets not given are zero: a length of 0 clears the key. */
	memset(h->key, 0, sizeof(h->key));
	if (len)
		memcpy(h->key, buf, len);
	return XEN_NETIF_CTRL_STATUS_SUCCESS;
}

static u32 xnb_ctrl_set_mapping(struct xnb_hash *h, u32 num_queues,
				u32 len, u32 off, const void *buf, bool copied)
{
	const u8 *p = buf;
	u32 i, q;

	if (!xnb_mapping_range_ok(h, len, off))
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	if (len && !copied)
		return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	/* Check every entry first: a bad table changes nothing. */
	for (i = 0; i < len; i++) {
		memcpy(&q, p + i * sizeof(q), sizeof(q));
		if (q >= num_queues)
			return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
	}
	if (len)
		memcpy(&h->mapping[off], buf, len * sizeof(u32));
	return XEN_NETIF_CTRL_STATUS_SUCCESS;
}

u32 xnb_ctrl_answer(struct xnb_hash *h, u32 num_queues,
		    const struct xen_netif_ctrl_request *req,
		    const void *buf, bool copied, u32 *data)
{
	u32 d0 = req->data[0];

	*data = 0;
	switch (req->type) {
	case XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM:
		if (d0 != XEN_NETIF_CTRL_HASH_ALGORITHM_NONE &&
		    d0 != XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ)
			return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
		WRITE_ONCE(h->alg, d0);	/* peeked at lockless */
		return XEN_NETIF_CTRL_STATUS_SUCCESS;

	case XEN_NETIF_CTRL_TYPE_GET_HASH_FLAGS:
		if (h->alg == XEN_NETIF_CTRL_HASH_ALGORITHM_NONE)
			return XEN_NETIF_CTRL_STATUS_NOT_SUPPORTED;
		*data = XNB_HASH_FLAGS_ALL;
		return XEN_NETIF_CTRL_STATUS_SUCCESS;

	case XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS:
		/* Stock answers both cases INVALID_PARAMETER. */
		if ((d0 & ~XNB_HASH_FLAGS_ALL) ||
		    h->alg == XEN_NETIF_CTRL_HASH_ALGORITHM_NONE)
			return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
		h->flags = d0;
		return XEN_NETIF_CTRL_STATUS_SUCCESS;

	case XEN_NETIF_CTRL_TYPE_SET_HASH_KEY:
		return xnb_ctrl_set_key(h, req->data[1], buf, copied);

	case XEN_NETIF_CTRL_TYPE_GET_HASH_MAPPING_SIZE:
		*data = XNB_HASH_MAPPING_MAX;
		return XEN_NETIF_CTRL_STATUS_SUCCESS;

	case XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE:
		if (d0 > XNB_HASH_MAPPING_MAX)
			return XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER;
		/* A new size starts a zero-filled table. */
		memset(h->mapping, 0, sizeof(h->mapping));
		h->size = d0;
		return XEN_NETIF_CTRL_STATUS_SUCCESS;

	case XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING:
		return xnb_ctrl_set_mapping(h, num_queues, req->data[1],
					    req->data[2], buf, copied);

	default:
		/* INVALID (0), the gref-mapping types, anything newer. */
		return XEN_NETIF_CTRL_STATUS_NOT_SUPPORTED;
	}
}

bool xnb_ctrl_budget_take(struct xnb_ctrl_budget *b, u64 now, u64 period,
			  u32 burst)
{
	u64 start = b->full_at > now ? b->full_at : now;

	/* A token at least: full again within burst - 1 periods. */
	if (!burst || start - now > (u64)(burst - 1) * period)
		return false;
	b->full_at = start + period;
	return true;
}

u64 xnb_ctrl_budget_wait(const struct xnb_ctrl_budget *b, u64 now, u32 want,
			 u64 period, u32 burst)
{
	u64 short_by, allowed;

	if (!burst)
		return ~0ull;
	if (want > burst)
		want = burst;
	if (!want)
		want = 1;
	if (b->full_at <= now)
		return 0;
	short_by = b->full_at - now;
	/* want tokens: full again within burst - want periods. */
	allowed = (u64)(burst - want) * period;
	return short_by > allowed ? short_by - allowed : 0;
}
