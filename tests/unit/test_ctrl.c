// SPDX-License-Identifier: GPL-2.0
/*
 * cmocka unit tests of the control-ring logic (ctrl.c built from the
 * tree): the Toeplitz hash against the verification suite of
 * Microsoft's RSS specification, and each control request's answer
 * against the status the stock driver gives, from a table of cases.
 */
#include <arpa/inet.h>

#include "unit.h"
#include <xen/xnb_ctrl.h>
#include "../common/rss_key.h"

#define OK XEN_NETIF_CTRL_STATUS_SUCCESS
#define NOTSUP XEN_NETIF_CTRL_STATUS_NOT_SUPPORTED
#define INVAL XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER
#define NONE XEN_NETIF_CTRL_HASH_ALGORITHM_NONE
#define TOEPLITZ XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ

/* A configuration with @len octets of @key, set the way a frontend does. */
static void hash_with_key(struct xnb_hash *h, const u8 *key, u32 len)
{
	struct xen_netif_ctrl_request req = {
		.type = XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
		.data = { 7, len, 0 },
	};
	u32 data;

	xnb_hash_init(h);
	assert_int_equal(xnb_ctrl_copy_len(h, &req), len);
	assert_int_equal(xnb_ctrl_answer(h, 1, &req, key, true, &data), OK);
	assert_memory_equal(h->key, key, len);
}

static void hash_with_rss_key(struct xnb_hash *h)
{
	hash_with_key(h, xnb_rss_key, sizeof(xnb_rss_key));
}

/* The suite's flows: the hash over the addresses, then with the ports. */
struct rss_vector {
	int af;
	const char *src, *dst;
	u16 sport, dport;
	u32 ip, tcp;
};

static const struct rss_vector rss_vectors[] = {
	{ AF_INET, "66.9.149.187", "161.142.100.80", 2794, 1766,
	  0x323e8fc2, 0x51ccc178 },
	{ AF_INET, "199.92.111.2", "65.69.140.83", 14230, 4739,
	  0xd718262a, 0xc626b0ea },
	{ AF_INET, "24.19.198.95", "12.22.207.184", 12898, 38024,
	  0xd2d0a5de, 0x5c2b394a },
	{ AF_INET, "38.27.205.30", "209.142.163.6", 48228, 2217,
	  0x82989176, 0xafc7327f },
	{ AF_INET, "153.39.163.191", "202.188.127.2", 44251, 1303,
	  0x5d1809c5, 0x10e828a2 },
	{ AF_INET6, "3ffe:2501:200:1fff::7", "3ffe:2501:200:3::1", 2794, 1766,
	  0x2cc18cd5, 0x40207d3d },
	{ AF_INET6, "3ffe:501:8::260:97ff:fe40:efab", "ff02::1", 14230, 4739,
	  0x0f0c461c, 0xdde51bbf },
	{ AF_INET6, "3ffe:1900:4545:3:200:f8ff:fe21:67cf",
	  "fe80::200:f8ff:fe21:67cf", 44251, 38024, 0x4b61e985, 0x02d1feef },
};

static void test_toeplitz(void **state)
{
	struct xnb_hash h;
	unsigned int i;

	(void)state;
	hash_with_rss_key(&h);
	for (i = 0; i < ARRAY_SIZE(rss_vectors); i++) {
		const struct rss_vector *v = &rss_vectors[i];
		bool v4 = v->af == AF_INET;
		u32 ip = v4 ? XEN_NETIF_CTRL_HASH_TYPE_IPV4 :
			      XEN_NETIF_CTRL_HASH_TYPE_IPV6;
		u32 tcp = v4 ? XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP :
			       XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP;
		struct in6_addr s, d;	/* room for either family */

		assert_int_equal(inet_pton(v->af, v->src, &s), 1);
		assert_int_equal(inet_pton(v->af, v->dst, &d), 1);
		assert_int_equal(xnb_hash_flow(&h, ip, (u8 *)&s, (u8 *)&d,
					       0, 0), v->ip);
		assert_int_equal(xnb_hash_flow(&h, tcp, (u8 *)&s, (u8 *)&d,
					       htons(v->sport),
					       htons(v->dport)), v->tcp);
	}
}

/* IPv6/TCP over a short key hashes as over the key padded with zeros;
 * no key, no hash.
 */
static void test_toeplitz_short_key(void **state)
{
	const u32 type = XEN_NETIF_CTRL_HASH_TYPE_IPV6_TCP;
	u8 padded[40], data[32];
	struct xnb_hash h;
	unsigned int i, len;
	u32 want;

	(void)state;
	for (i = 0; i < sizeof(data); i++)
		data[i] = (u8)(i * 37 + 11);
	for (len = 0; len <= 40; len += 5) {
		memset(padded, 0, sizeof(padded));
		memcpy(padded, xnb_rss_key, len);
		hash_with_key(&h, padded, sizeof(padded));
		want = xnb_hash_flow(&h, type, data, data + 16, 0x1234, 0x5678);
		hash_with_key(&h, xnb_rss_key, len);
		assert_int_equal(xnb_hash_flow(&h, type, data, data + 16,
					       0x1234, 0x5678), want);
		if (!len)
			assert_int_equal(want, 0);
	}
}

/* One input bit: the key's 32 bits from that bit's position on. */
static void test_toeplitz_one_bit(void **state)
{
	static const u8 zero[4];
	struct xnb_hash h;
	u8 saddr[4] = { 0 };

	(void)state;
	hash_with_rss_key(&h);
	/* The top one: the key's first 32 bits. */
	saddr[0] = 0x80;
	assert_int_equal(xnb_hash_flow(&h, XEN_NETIF_CTRL_HASH_TYPE_IPV4, saddr,
				       zero, 0, 0), 0x6d5a56da);
	/* The lowest bit of the first octet: key bits 7 .. 38. */
	saddr[0] = 0x01;
	assert_int_equal(xnb_hash_flow(&h, XEN_NETIF_CTRL_HASH_TYPE_IPV4, saddr,
				       zero, 0, 0),
			 (u32)(0x6d5a56da25ULL >> 1));
}

/* An unknown type hashes nothing. */
static void test_hash_flow_unknown_type(void **state)
{
	static const u8 data[36] = { 1 };
	struct xnb_hash h;

	(void)state;
	hash_with_rss_key(&h);
	assert_int_equal(xnb_hash_flow(&h, 1u << 4, data, data, 1, 2), 0);
	assert_int_equal(xnb_hash_flow(&h, 0, data, data, 1, 2), 0);
}

/*
 * One request against a starting configuration.  want_copy: what
 * xnb_ctrl_copy_len() asks for.  On success the configuration is
 * checked by the case's own expectations below; on failure it must be
 * exactly what it was.
 */
struct ctrl_case {
	const char *name;
	u32 alg, flags, size;	/* before */
	u32 nq;
	u16 type;
	u32 d0, d1, d2;
	const u32 *buf;		/* the guest's grant contents, if any */
	bool copied;
	u32 want_copy, want_status, want_data;
};

static const u32 map_ok[4] = { 0, 1, 2, 3 };
static const u32 map_bad[4] = { 0, 1, 4, 3 };	/* 4 >= 4 queues */
static const u32 map_huge[2] = { 0, 0xffffffffu };
static const u32 key_buf[10] = {
	0x01020304, 0x05060708, 0x090a0b0c, 0x0d0e0f10, 0x11121314,
	0x15161718, 0x191a1b1c, 0x1d1e1f20, 0x21222324, 0x25262728,
};
static u32 big[1100];				/* zeros */

static const struct ctrl_case ctrl_cases[] = {
	/* SET_HASH_ALGORITHM */
	{ "alg toeplitz", NONE, 0, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM,
	  TOEPLITZ, 0, 0, NULL, false, 0, OK, 0 },
	{ "alg none", TOEPLITZ, 5, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM,
	  NONE, 0, 0, NULL, false, 0, OK, 0 },
	{ "alg 2", NONE, 0, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM,
	  2, 0, 0, NULL, false, 0, INVAL, 0 },
	{ "alg ~0", TOEPLITZ, 0, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM,
	  0xffffffffu, 0, 0, NULL, false, 0, INVAL, 0 },
	/* GET_HASH_FLAGS */
	{ "get flags, no alg", NONE, 0, 0, 1, XEN_NETIF_CTRL_TYPE_GET_HASH_FLAGS,
	  0, 0, 0, NULL, false, 0, NOTSUP, 0 },
	{ "get flags", TOEPLITZ, 0, 0, 1, XEN_NETIF_CTRL_TYPE_GET_HASH_FLAGS,
	  0, 0, 0, NULL, false, 0, OK, XNB_HASH_FLAGS_ALL },
	/* SET_HASH_FLAGS */
	{ "set flags all", TOEPLITZ, 0, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS,
	  XNB_HASH_FLAGS_ALL, 0, 0, NULL, false, 0, OK, 0 },
	{ "set flags 0", TOEPLITZ, 3, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS,
	  0, 0, 0, NULL, false, 0, OK, 0 },
	{ "set flags bit 4", TOEPLITZ, 0, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS,
	  0x10, 0, 0, NULL, false, 0, INVAL, 0 },
	{ "set flags bit 31", TOEPLITZ, 0, 0, 1,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS,
	  0x80000000u, 0, 0, NULL, false, 0, INVAL, 0 },
	{ "set flags all ones", TOEPLITZ, 0, 0, 1,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS,
	  0xffffffffu, 0, 0, NULL, false, 0, INVAL, 0 },
	{ "set flags, no alg", NONE, 0, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS,
	  1, 0, 0, NULL, false, 0, INVAL, 0 },
	/* SET_HASH_KEY */
	{ "key 40", NONE, 0, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
	  9, 40, 0, key_buf, true, 40, OK, 0 },
	{ "key 0 clears", NONE, 0, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
	  9, 0, 0, NULL, false, 0, OK, 0 },
	{ "key 41", NONE, 0, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
	  9, 41, 0, NULL, false, 0, INVAL, 0 },
	{ "key 4096", NONE, 0, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
	  9, 4096, 0, NULL, false, 0, INVAL, 0 },
	{ "key ~0", NONE, 0, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
	  9, 0xffffffffu, 0, NULL, false, 0, INVAL, 0 },
	{ "key, copy fails", NONE, 0, 0, 1, XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
	  9, 8, 0, NULL, false, 8, INVAL, 0 },
	/* GET_HASH_MAPPING_SIZE */
	{ "get mapping size", NONE, 0, 0, 1,
	  XEN_NETIF_CTRL_TYPE_GET_HASH_MAPPING_SIZE,
	  0, 0, 0, NULL, false, 0, OK, XNB_HASH_MAPPING_MAX },
	/* SET_HASH_MAPPING_SIZE */
	{ "mapping size 128", NONE, 0, 4, 1,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE,
	  128, 0, 0, NULL, false, 0, OK, 0 },
	{ "mapping size 0", NONE, 0, 4, 1,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE,
	  0, 0, 0, NULL, false, 0, OK, 0 },
	{ "mapping size 129", NONE, 0, 4, 1,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE,
	  129, 0, 0, NULL, false, 0, INVAL, 0 },
	{ "mapping size ~0", NONE, 0, 4, 1,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE,
	  0xffffffffu, 0, 0, NULL, false, 0, INVAL, 0 },
	/* SET_HASH_MAPPING: d0 gref, d1 entries, d2 offset */
	{ "mapping 4 at 0", NONE, 0, 8, 4, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 4, 0, map_ok, true, 16, OK, 0 },
	{ "mapping 4 at 4 (end)", NONE, 0, 8, 4,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 4, 4, map_ok, true, 16, OK, 0 },
	{ "mapping 0 entries", NONE, 0, 8, 4, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 0, 8, NULL, false, 0, OK, 0 },
	{ "mapping past size", NONE, 0, 8, 4, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 4, 5, map_ok, true, 0, INVAL, 0 },
	{ "mapping 0 entries past size", NONE, 0, 8, 4,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 0, 9, NULL, false, 0, INVAL, 0 },
	{ "mapping, no table", NONE, 0, 0, 4, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 1, 0, map_ok, true, 0, INVAL, 0 },
	{ "mapping off+len wraps", NONE, 0, 128, 4,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 2, 0xffffffffu, map_ok, true, 0, INVAL, 0 },
	{ "mapping len wraps off", NONE, 0, 128, 4,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 0xffffffffu, 2, map_ok, true, 0, INVAL, 0 },
	{ "mapping more than a page", NONE, 0, 128, 4,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 1025, 0, big, true, 0, INVAL, 0 },
	{ "mapping entry = queues", NONE, 0, 8, 4,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 4, 0, map_bad, true, 16, INVAL, 0 },
	{ "mapping entry ~0", NONE, 0, 8, 4, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 2, 0, map_huge, true, 8, INVAL, 0 },
	{ "mapping entry 3, 1 queue", NONE, 0, 8, 1,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 4, 0, map_ok, true, 16, INVAL, 0 },
	{ "mapping, copy fails", NONE, 0, 8, 4,
	  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
	  3, 4, 0, NULL, false, 16, INVAL, 0 },
	/* Types stock does not handle */
	{ "type INVALID", TOEPLITZ, 0, 0, 1, XEN_NETIF_CTRL_TYPE_INVALID,
	  1, 2, 3, NULL, false, 0, NOTSUP, 0 },
	{ "type 8 (gref mapping size)", TOEPLITZ, 0, 0, 1, 8,
	  0, 0, 0, NULL, false, 0, NOTSUP, 0 },
	{ "type 9 (add gref mapping)", TOEPLITZ, 0, 0, 1, 9,
	  1, 40, 0, NULL, false, 0, NOTSUP, 0 },
	{ "type 10 (del gref mapping)", TOEPLITZ, 0, 0, 1, 10,
	  1, 40, 0, NULL, false, 0, NOTSUP, 0 },
	{ "type 0xffff", TOEPLITZ, 0, 0, 1, 0xffff,
	  1, 40, 0, NULL, false, 0, NOTSUP, 0 },
};

static void case_start(const struct ctrl_case *c, struct xnb_hash *h)
{
	u32 i;

	xnb_hash_init(h);
	h->alg = c->alg;
	h->flags = c->flags;
	h->size = c->size;
	/* A recognisable table and key, to see what a request touches. */
	for (i = 0; i < XNB_HASH_MAPPING_MAX; i++)
		h->mapping[i] = i < c->size ? i % c->nq : 0;
	memcpy(h->key, xnb_rss_key, sizeof(h->key));
}

static void case_check_applied(const struct ctrl_case *c,
			       const struct xnb_hash *before,
			       const struct xnb_hash *h)
{
	u8 zero[XNB_HASH_KEY_MAX] = { 0 };
	u32 i;

	switch (c->type) {
	case XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM:
		assert_int_equal(h->alg, c->d0);
		break;
	case XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS:
		assert_int_equal(h->flags, c->d0);
		break;
	case XEN_NETIF_CTRL_TYPE_SET_HASH_KEY:
		if (c->d1)
			assert_memory_equal(h->key, c->buf, c->d1);
		assert_memory_equal(h->key + c->d1, zero,
				    XNB_HASH_KEY_MAX - c->d1);
		break;
	case XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE:
		assert_int_equal(h->size, c->d0);
		for (i = 0; i < XNB_HASH_MAPPING_MAX; i++)
			assert_int_equal(h->mapping[i], 0);
		break;
	case XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING:
		for (i = 0; i < XNB_HASH_MAPPING_MAX; i++) {
			u32 want = before->mapping[i];

			if (i >= c->d2 && i - c->d2 < c->d1)
				want = c->buf[i - c->d2];
			assert_int_equal(h->mapping[i], want);
		}
		break;
	default:
		/* GET_*: nothing changes. */
		assert_memory_equal(h, before, sizeof(*h));
	}
}

static void test_ctrl_table(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(ctrl_cases); i++) {
		const struct ctrl_case *c = &ctrl_cases[i];
		struct xen_netif_ctrl_request req = {
			.id = (u16)i, .type = c->type,
			.data = { c->d0, c->d1, c->d2 },
		};
		struct xnb_hash h, before;
		u32 status, data = 0xdeadbeef, len;

		print_message("case: %s\n", c->name);
		case_start(c, &h);
		before = h;
		len = xnb_ctrl_copy_len(&h, &req);
		assert_int_equal(len, c->want_copy);
		status = xnb_ctrl_answer(&h, c->nq, &req, c->buf, c->copied,
					 &data);
		assert_int_equal(status, c->want_status);
		assert_int_equal(data, c->want_data);
		if (status == OK)
			case_check_applied(c, &before, &h);
		else
			assert_memory_equal(&h, &before, sizeof(h));
	}
}

/* Queue choice without a table: the hash modulo the queues. */
static void test_hash_queue_modulo(void **state)
{
	struct xnb_hash h;
	u32 i;

	(void)state;
	xnb_hash_init(&h);
	for (i = 0; i < 100; i++)
		assert_int_equal(xnb_hash_queue(&h, i * 7919, 3), i * 7919 % 3);
}

/* A table of 4 entries for 4 queues, in reverse order. */
static void hash_reverse_table(struct xnb_hash *h)
{
	xnb_hash_init(h);
	h->size = 4;
	h->mapping[0] = 3;
	h->mapping[1] = 2;
	h->mapping[2] = 1;
	h->mapping[3] = 0;
}

static void test_hash_queue_table(void **state)
{
	struct xnb_hash h;
	u32 i;

	(void)state;
	hash_reverse_table(&h);
	for (i = 0; i < 100; i++)
		assert_int_equal(xnb_hash_queue(&h, i, 4), 3 - i % 4);
}

/* The table was set for 4 queues, the connection has 2 now: entries
 * no longer below 2 fall back to the modulo.
 */
static void test_hash_queue_stale_table(void **state)
{
	struct xnb_hash h;

	(void)state;
	hash_reverse_table(&h);
	assert_int_equal(xnb_hash_queue(&h, 0, 2), 0 % 2);
	assert_int_equal(xnb_hash_queue(&h, 2, 2), 1);
	assert_int_equal(xnb_hash_queue(&h, 5, 2), 5 % 2);
}

/* A whole frontend conversation, as Windows PV drivers hold it. */
static void test_ctrl_sequence(void **state)
{
	struct xen_netif_ctrl_request req = { 0 };
	static const u32 table[8] = { 0, 1, 2, 3, 0, 1, 2, 3 };
	struct xnb_hash h;
	u32 data, hash;
	u8 s[4] = { 66, 9, 149, 187 }, d[4] = { 161, 142, 100, 80 };

	(void)state;
	xnb_hash_init(&h);
	req.type = XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM;
	req.data[0] = TOEPLITZ;
	assert_int_equal(xnb_ctrl_answer(&h, 4, &req, NULL, false, &data), OK);
	req.type = XEN_NETIF_CTRL_TYPE_GET_HASH_FLAGS;
	assert_int_equal(xnb_ctrl_answer(&h, 4, &req, NULL, false, &data), OK);
	assert_int_equal(data, XNB_HASH_FLAGS_ALL);
	req.type = XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS;
	req.data[0] = data;
	assert_int_equal(xnb_ctrl_answer(&h, 4, &req, NULL, false, &data), OK);
	req.type = XEN_NETIF_CTRL_TYPE_SET_HASH_KEY;
	req.data[0] = 5;
	req.data[1] = sizeof(xnb_rss_key);
	assert_int_equal(xnb_ctrl_answer(&h, 4, &req, xnb_rss_key, true,
					 &data), OK);
	req.type = XEN_NETIF_CTRL_TYPE_GET_HASH_MAPPING_SIZE;
	assert_int_equal(xnb_ctrl_answer(&h, 4, &req, NULL, false, &data), OK);
	assert_int_equal(data, 128);
	req.type = XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE;
	req.data[0] = 8;
	assert_int_equal(xnb_ctrl_answer(&h, 4, &req, NULL, false, &data), OK);
	req.type = XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING;
	req.data[0] = 6;
	req.data[1] = 8;
	req.data[2] = 0;
	assert_int_equal(xnb_ctrl_copy_len(&h, &req), sizeof(table));
	assert_int_equal(xnb_ctrl_answer(&h, 4, &req, table, true, &data), OK);
	hash = xnb_hash_flow(&h, XEN_NETIF_CTRL_HASH_TYPE_IPV4, s, d, 0, 0);
	assert_int_equal(hash, 0x323e8fc2);
	assert_int_equal(xnb_hash_queue(&h, hash, 4), table[hash % 8]);
	/* A new size drops the table: every entry is queue 0 again. */
	req.type = XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE;
	req.data[0] = 16;
	assert_int_equal(xnb_ctrl_answer(&h, 4, &req, NULL, false, &data), OK);
	assert_int_equal(xnb_hash_queue(&h, hash, 4), 0);
}

/* ---- the request budget ------------------------------------------------ */

#define NS 1000000000ull
#define P (NS / XNB_CTRL_BUDGET_RATE)
#define B XNB_CTRL_BUDGET_BURST

/*
 * One look at a budget: how long until it holds @want tokens, then a
 * take, and where its full time stands after that take (unchanged when
 * the take failed).
 */
struct budget_case {
	const char *name;
	u64 full_at, now;
	u32 want;
	u64 period;
	u32 burst;
	u64 want_wait;
	bool want_take;
	u64 want_full_at;
};

static const struct budget_case budget_cases[] = {
	/* period 1000, 4 tokens */
	{ "fresh, at time 0", 0, 0, 1, 1000, 4, 0, true, 1000 },
	{ "full after a long idle", 5000, 1000000, 1, 1000, 4,
	  0, true, 1001000 },
	{ "one left", 13000, 10000, 1, 1000, 4, 0, true, 14000 },
	{ "none left", 14000, 10000, 1, 1000, 4, 1000, false, 14000 },
	{ "none left, 2 wanted", 14000, 10000, 2, 1000, 4,
	  2000, false, 14000 },
	{ "none left, all wanted", 14000, 10000, 4, 1000, 4,
	  4000, false, 14000 },
	{ "more wanted than it holds: as full", 14000, 10000, 9, 1000, 4,
	  4000, false, 14000 },
	{ "0 wanted: as 1", 14000, 10000, 0, 1000, 4, 1000, false, 14000 },
	{ "half a token back", 14000, 10500, 1, 1000, 4, 500, false, 14000 },
	{ "a token back, to the ns", 14000, 11000, 1, 1000, 4,
	  0, true, 15000 },
	{ "2 back, 3 wanted", 14000, 12000, 3, 1000, 4, 1000, true, 15000 },
	{ "clock went back", 14000, 9000, 1, 1000, 4, 2000, false, 14000 },
	{ "burst 1, full", 0, 500, 1, 1000, 1, 0, true, 1500 },
	{ "burst 1, spent", 1500, 500, 1, 1000, 1, 1000, false, 1500 },
	{ "burst 0: never", 0, 500, 1, 1000, 0, ~0ull, false, 0 },
	/* the driver's */
	{ "driver, full", 0, 7 * NS, XNB_CTRL_BUDGET_BATCH, P, B,
	  0, true, 7 * NS + P },
	{ "driver, spent, one wanted", 7 * NS + B * P, 7 * NS, 1, P, B,
	  P, false, 7 * NS + B * P },
	{ "driver, spent, a batch wanted", 7 * NS + B * P, 7 * NS,
	  XNB_CTRL_BUDGET_BATCH, P, B, XNB_CTRL_BUDGET_BATCH * P, false,
	  7 * NS + B * P },
};

static void test_budget_table(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(budget_cases); i++) {
		const struct budget_case *c = &budget_cases[i];
		struct xnb_ctrl_budget b = { .full_at = c->full_at };

		print_message("case: %s\n", c->name);
		assert_int_equal(xnb_ctrl_budget_wait(&b, c->now, c->want,
						      c->period, c->burst),
				 c->want_wait);
		assert_int_equal(xnb_ctrl_budget_take(&b, c->now, c->period,
						      c->burst), c->want_take);
		assert_int_equal(b.full_at, c->want_full_at);
	}
}

/* A fresh budget gives a ring's worth at once, then one a period. */
static void test_budget_burst_then_rate(void **state)
{
	struct xnb_ctrl_budget b = { 0 };	/* a new vif's, zeroed: full */
	u64 now = 3 * NS;
	unsigned int i;

	(void)state;
	for (i = 0; i < B; i++)
		assert_true(xnb_ctrl_budget_take(&b, now, P, B));
	assert_false(xnb_ctrl_budget_take(&b, now, P, B));
	assert_int_equal(xnb_ctrl_budget_wait(&b, now, 1, P, B), P);
	for (i = 0; i < 100; i++) {
		assert_false(xnb_ctrl_budget_take(&b, now + P - 1, P, B));
		now += P;
		assert_true(xnb_ctrl_budget_take(&b, now, P, B));
		assert_false(xnb_ctrl_budget_take(&b, now, P, B));
	}
}

/*
 * A guest that keeps the ring full for 30 s, served as the driver
 * serves it: every token taken, then a wait for a batch (a jiffy late,
 * at 250 Hz).  It gets the burst and the rate, no more, and wakes the
 * work a few times a second.
 */
static void test_budget_hostile_30s(void **state)
{
	struct xnb_ctrl_budget b = { 0 };	/* a new vif's, zeroed: full */
	u64 start = 1 * NS, now = start, served = 0, runs = 0;
	const u64 want = B + 30ull * XNB_CTRL_BUDGET_RATE;

	(void)state;
	while (now < start + 30 * NS) {
		while (xnb_ctrl_budget_take(&b, now, P, B))
			served++;
		runs++;
		now += xnb_ctrl_budget_wait(&b, now, XNB_CTRL_BUDGET_BATCH,
					    P, B) + NS / 250;
	}
	print_message("served %llu in 30 s over %llu runs\n", served, runs);
	assert_true(served <= want);
	assert_true(served + XNB_CTRL_BUDGET_BATCH >= want);
	assert_true(runs <= 30 * XNB_CTRL_BUDGET_RATE /
			    XNB_CTRL_BUDGET_BATCH + 2);
}

/*
 * An honest frontend: seven requests at connect, then a change of its
 * RSS settings (seven more) every second, and once eighteen changes in
 * a row: no request ever waits.
 */
static void test_budget_honest(void **state)
{
	struct xnb_ctrl_budget b = { 0 };	/* a new vif's, zeroed: full */
	u64 now = 20 * NS;
	unsigned int s, i;

	(void)state;
	for (s = 0; s < 60; s++, now += NS) {
		unsigned int n = s == 30 ? 18 * 7 : 7;

		for (i = 0; i < n; i++) {
			assert_int_equal(xnb_ctrl_budget_wait(&b, now, 1, P, B),
					 0);
			assert_true(xnb_ctrl_budget_take(&b, now, P, B));
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_toeplitz),
		cmocka_unit_test(test_toeplitz_short_key),
		cmocka_unit_test(test_toeplitz_one_bit),
		cmocka_unit_test(test_hash_flow_unknown_type),
		cmocka_unit_test(test_ctrl_table),
		cmocka_unit_test(test_hash_queue_modulo),
		cmocka_unit_test(test_hash_queue_table),
		cmocka_unit_test(test_hash_queue_stale_table),
		cmocka_unit_test(test_ctrl_sequence),
		cmocka_unit_test(test_budget_table),
		cmocka_unit_test(test_budget_burst_then_rate),
		cmocka_unit_test(test_budget_hostile_30s),
		cmocka_unit_test(test_budget_honest),
	};

	return cmocka_run_group_tests_name("ctrl", tests, NULL, NULL);
}
