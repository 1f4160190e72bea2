// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the control-ring logic (ctrl.c, built from the
 * tree): a frontend's stream of control requests, honest or not.
 *
 * Input layout (little endian, missing bytes read as zero):
 *   [0]      num_queues = 1 + b % 64
 *   [1]      hash type for the Toeplitz cross-check = 1 << (b % 4)
 *   then     records, each:
 *            [flags] bit 0: the grant copy succeeds; bit 1: raw type
 *                    (else type = b % 12, to hit the handled ones)
 *            [id u16][type u16][data0 u32][data1 u32][data2 u32]
 *            then as many octets as xnb_ctrl_copy_len() asks for: the
 *            guest's grant contents
 *
 * Each answer is checked against a small independent model of the stock
 * driver's rules; a refused request must leave the configuration as it
 * was; the configuration stays within its bounds (size <= 128, entries
 * below the queue count, key octets past the set length zero).  The
 * flow hash (netif.h's Toeplitz, through xnb_hash_flow()) is checked
 * against a naive bit-by-bit version, with the configured key, over
 * every record's bytes taken as addresses and ports.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xen/xnb_ctrl.h>
#include "../common/fuzz_check.h"

struct input {
	const uint8_t *p;
	size_t n;
};

static void take(struct input *in, void *dst, size_t len)
{
	size_t k = len < in->n ? len : in->n;

	memset(dst, 0, len);
	memcpy(dst, in->p, k);
	in->p += k;
	in->n -= k;
}

/* Key bit @i, bit 0 being the top bit of key[0]; zero past the key. */
static unsigned int key_bit(const u8 *key, u32 keylen, u32 i)
{
	return i / 8 < keylen ? (key[i / 8] >> (7 - i % 8)) & 1 : 0;
}

static u32 naive_toeplitz(const u8 *key, u32 keylen, const u8 *d, u32 len)
{
	u32 hash = 0, i, j;

	for (i = 0; i < len * 8; i++) {
		u32 w = 0;

		if (!((d[i / 8] >> (7 - i % 8)) & 1))
			continue;
		for (j = 0; j < 32; j++)
			w = (w << 1) | key_bit(key, keylen, i + j);
		hash ^= w;
	}
	return hash;
}

/* The stock driver's answer, from netif.h and its behaviour. */
static u32 model(const struct xnb_hash *h, u32 nq,
		 const struct xen_netif_ctrl_request *r, const u8 *buf,
		 bool copied, u32 *data)
{
	u64 off = r->data[2], len = r->data[1];
	u32 i, e;

	*data = 0;
	switch (r->type) {
	case 7:	/* SET_HASH_ALGORITHM */
		return r->data[0] <= 1 ? 0 : 2;
	case 1:	/* GET_HASH_FLAGS */
		if (!h->alg)
			return 1;
		*data = 15;
		return 0;
	case 2:	/* SET_HASH_FLAGS */
		return r->data[0] < 16 && h->alg ? 0 : 2;
	case 3:	/* SET_HASH_KEY */
		return len > 40 || (len && !copied) ? 2 : 0;
	case 4:	/* GET_HASH_MAPPING_SIZE */
		*data = 128;
		return 0;
	case 5:	/* SET_HASH_MAPPING_SIZE */
		return r->data[0] > 128 ? 2 : 0;
	case 6:	/* SET_HASH_MAPPING */
		if (off + len > h->size || len > 1024 || (len && !copied))
			return 2;
		for (i = 0; i < len; i++) {
			memcpy(&e, buf + 4 * i, 4);
			if (e >= nq)
				return 2;
		}
		return 0;
	default:
		return 1;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	static u8 buf[4 * XNB_HASH_MAPPING_MAX + XNB_HASH_KEY_MAX];
	struct xnb_hash h, before;
	u32 nq, type, alen, last_key = 0;
	u8 hdr[2];
	int rounds = 0;

	take(&in, hdr, sizeof(hdr));
	nq = 1 + hdr[0] % 64;
	type = 1u << (hdr[1] % 4);
	alen = type & (XEN_NETIF_CTRL_HASH_TYPE_IPV4 |
		       XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP) ? 4 : 16;
	xnb_hash_init(&h);

	while (in.n && rounds++ < 256) {
		struct xen_netif_ctrl_request req;
		u8 rec[17], flow[XNB_HASH_INPUT_MAX];
		u32 len, status, want, d, wd, i, n;
		u16 sport, dport;
		bool copied;

		take(&in, rec, sizeof(rec));
		copied = rec[0] & 1;
		memcpy(&req.id, rec + 1, 2);
		memcpy(&req.type, rec + 3, 2);
		if (!(rec[0] & 2))
			req.type %= 12;
		memcpy(req.data, rec + 5, 12);

		len = xnb_ctrl_copy_len(&h, &req);
		CHECK(len <= sizeof(buf));
		take(&in, buf, len);

		want = model(&h, nq, &req, buf, copied, &wd);
		before = h;
		status = xnb_ctrl_answer(&h, nq, &req, buf, copied, &d);
		CHECK(status == want);
		CHECK(d == wd);
		if (status != XEN_NETIF_CTRL_STATUS_SUCCESS)
			CHECK(!memcmp(&h, &before, sizeof(h)));
		else if (req.type == XEN_NETIF_CTRL_TYPE_SET_HASH_KEY)
			last_key = req.data[1];

		CHECK(h.alg <= XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ);
		CHECK(!(h.flags & ~XNB_HASH_FLAGS_ALL));
		CHECK(h.size <= XNB_HASH_MAPPING_MAX);
		for (i = 0; i < XNB_HASH_MAPPING_MAX; i++) {
			CHECK(h.mapping[i] < nq);
			if (i >= h.size)
				CHECK(h.mapping[i] == 0);
		}
		for (i = last_key; i < XNB_HASH_KEY_MAX; i++)
			CHECK(h.key[i] == 0);

		/* Any hash lands on a queue of the connection. */
		CHECK(xnb_hash_queue(&h, req.data[0], nq) < nq);
		CHECK(xnb_hash_queue(&h, req.data[1], 1 + req.id % nq) <
		      1 + req.id % nq);

		/* The record's bytes as addresses, then ports. */
		memcpy(flow, rec, 17);
		memcpy(flow + 17, rec, 17);
		memcpy(flow + 34, rec, 2);
		memcpy(&sport, flow + 2 * alen, 2);
		memcpy(&dport, flow + 2 * alen + 2, 2);
		n = 2 * alen;
		if (type & (XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP |
			    XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP))
			n += 4;
		CHECK(xnb_hash_flow(&h, type, flow, flow + alen, sport, dport) ==
		      naive_toeplitz(h.key, XNB_HASH_KEY_MAX, flow, n));
	}
	return 0;
}
