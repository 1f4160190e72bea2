// SPDX-License-Identifier: GPL-2.0
/*
 * xnb_tx_parse(): extra-info segments and offloads (catalogue 11-13).
 * Extras follow the first slot while it (then each extra) says more
 * follow; at most XNB_TX_MAX_EXTRAS, of a known type.  GSO must be
 * well-formed and negotiated; multicast extras make the chain a filter
 * request instead of a packet.
 */
#include "tx_fixture.h"

#define GSO XEN_NETIF_EXTRA_TYPE_GSO
#define TCPV4 XEN_NETIF_GSO_TYPE_TCPV4
#define TCPV6 XEN_NETIF_GSO_TYPE_TCPV6

/* A first slot of @len bytes with @flags, then extras; fatal for @why. */
struct extras_case {
	const char *name;
	u16 flags, len;
	u32 nr;
	struct {
		u8 type;
		bool more;
		u8 gso_type;	/* for GSO */
		u16 gso_size;
	} x[2];
	enum xnb_tx_reason why;
};

static void run_extras_cases(const struct extras_case *c, size_t n)
{
	struct xnb_tx_pkt p;
	size_t i;
	u32 k;

	for (i = 0; i < n; i++) {
		ring_case(c[i].name);
		put(1, 0, c[i].flags, 1, c[i].len);
		for (k = 0; k < c[i].nr; k++) {
			if (c[i].x[k].type == GSO)
				put_gso(c[i].x[k].gso_type, c[i].x[k].gso_size,
					c[i].x[k].more);
			else
				put_extra(c[i].x[k].type, c[i].x[k].more,
					  NULL, 0);
		}
		expect_fatal(parse(&p), &p, c[i].why);
	}
}

/* catalogue 11: the extra-info flag with no slot left */
static const struct extras_case no_slot_cases[] = {
	{ "no extra at all", EXTRA, 100, 0, { { 0 } },
	  XNB_R_CHAIN_PAST_PROD },
	{ "the last extra says more follow, and nothing does", EXTRA, 100, 1,
	  { { GSO, true, TCPV4, 1448 } }, XNB_R_CHAIN_PAST_PROD },
	{ "extras present, the data chain is not", EXTRA | MORE, 100, 1,
	  { { GSO, false, TCPV4, 1448 } }, XNB_R_CHAIN_PAST_PROD },
};

static void test_extra_no_slot_left(void **state)
{
	(void)state;
	run_extras_cases(no_slot_cases, ARRAY_SIZE(no_slot_cases));
}

/* catalogue 12: types 1..XNB_EXTRA_TYPES only */
static const struct extras_case bad_type_cases[] = {
	{ "type 0", EXTRA, 100, 1, { { 0, false, 0, 0 } },
	  XNB_R_BAD_EXTRA_TYPE },
	{ "type XNB_EXTRA_TYPES + 1", EXTRA, 100, 1,
	  { { XNB_EXTRA_TYPES + 1, false, 0, 0 } }, XNB_R_BAD_EXTRA_TYPE },
	{ "type 0xff", EXTRA, 100, 1, { { 0xff, false, 0, 0 } },
	  XNB_R_BAD_EXTRA_TYPE },
	{ "a bad one behind a good one", EXTRA, 100, 2,
	  { { GSO, true, TCPV4, 1448 }, { 0, false, 0, 0 } },
	  XNB_R_BAD_EXTRA_TYPE },
};

static void test_extra_bad_type(void **state)
{
	(void)state;
	run_extras_cases(bad_type_cases, ARRAY_SIZE(bad_type_cases));
}

/* Hash (4) and XDP (5) carry nothing to act on. */
static void test_extra_known_types(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, EXTRA | MORE, 7, 1000);
	put_extra(XEN_NETIF_EXTRA_TYPE_HASH, true, NULL, 0);
	put_extra(5, false, NULL, 0);
	put(2, 0, 0, 8, 400);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 4, 2);
	assert_int_equal(p.is_extra[0], 0);
	assert_int_equal(p.is_extra[1], 1);
	assert_int_equal(p.is_extra[2], 1);
	assert_int_equal(p.is_extra[3], 0);
	assert_int_equal(p.id[0], 7);
	assert_int_equal(p.id[3], 8);
	assert_int_equal(p.data[1].gref, 2);
	assert_int_equal(p.data[0].size, 600);
	/* the extra-info flag itself is not passed on */
	assert_int_equal(p.flags & (EXTRA | MORE), 0);
}

/* A first slot and @nr hash extras, the last one saying more if @more. */
static void put_hash_extras(int nr, bool more)
{
	int i;

	put(1, 0, EXTRA, 1, 100);
	for (i = 0; i < nr; i++)
		put_extra(XEN_NETIF_EXTRA_TYPE_HASH, i < nr - 1 || more,
			  NULL, 0);
}

/* catalogue 12: a bounded loop; eight extras are fine. */
static void test_extras_eight_ok(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put_hash_extras(8, false);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 9, 1);
}

static void test_extras_nine_fatal(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put_hash_extras(9, false);
	expect_fatal(parse(&p), &p, XNB_R_TOO_MANY_EXTRAS);
}

/* An endless chain of "more" extras over a whole ring. */
static void test_extras_endless(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	ring_init(16, 0);
	put_hash_extras(15, true);
	expect_fatal(parse(&p), &p, XNB_R_TOO_MANY_EXTRAS);
}

static void test_extras_repeated_last_wins(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, EXTRA | MORE, 1, 3000);
	put_gso(TCPV4, 1000, true);
	put_gso(TCPV6, 1440, true);
	put_gso(TCPV4, 1448, false);
	put(2, 0, 0, 2, 1500);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 5, 2);
	assert_int_equal(p.gso_type, XNB_GSO_TCPV4);
	assert_int_equal(p.gso_size, 1448);
}

/* catalogue 13: a GSO extra with size 0 or an unknown type */
static const struct extras_case bad_gso_cases[] = {
	{ "size 0", EXTRA, 3000, 1, { { GSO, false, TCPV4, 0 } },
	  XNB_R_BAD_GSO },
	{ "type none", EXTRA, 3000, 1,
	  { { GSO, false, XEN_NETIF_GSO_TYPE_NONE, 1448 } }, XNB_R_BAD_GSO },
	{ "type 3", EXTRA, 3000, 1, { { GSO, false, 3, 1448 } },
	  XNB_R_BAD_GSO },
};

static void test_gso_bad_fatal(void **state)
{
	(void)state;
	run_extras_cases(bad_gso_cases, ARRAY_SIZE(bad_gso_cases));
}

/* catalogue 13: fatal even when the backend offered no GSO at all. */
static void test_gso_bad_none_offered(void **state)
{
	static const struct xnb_tx_limits none = {
		20, false, false, XNB_GSO_MAX_SEGS
	};
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, EXTRA, 1, 3000);
	put_gso(0xff, 1448, false);
	expect_fatal(parse_lim(&none, &p), &p, XNB_R_BAD_GSO);
}

/* A GSO packet of @type on a vif that offered TCPv4 (@v4), TCPv6 (@v6). */
static const struct {
	u8 type;
	bool v4, v6;
	enum xnb_tx_verdict want;
} gso_cases[] = {
	{ TCPV4, true, true, XNB_TX_OK },
	{ TCPV4, true, false, XNB_TX_OK },
	{ TCPV4, false, true, XNB_TX_DROP },
	{ TCPV4, false, false, XNB_TX_DROP },
	{ TCPV6, true, true, XNB_TX_OK },
	{ TCPV6, false, true, XNB_TX_OK },
	{ TCPV6, true, false, XNB_TX_DROP },
	{ TCPV6, false, false, XNB_TX_DROP },
};

static void test_gso_negotiation(void **state)
{
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(gso_cases); i++) {
		struct xnb_tx_limits lim = { 20, gso_cases[i].v4,
					     gso_cases[i].v6, XNB_GSO_MAX_SEGS };
		u8 type = gso_cases[i].type;
		struct xnb_tx_pkt p;
		enum xnb_tx_verdict v;

		ring_init(256, 0);
		put(1, 0, EXTRA | MORE | XEN_NETTXF_csum_blank, 1, 9000);
		put_gso(type, 1448, false);
		put(2, 0, MORE, 2, 4096);
		put(3, 0, 0, 3, 4000);
		v = parse_lim(&lim, &p);
		assert_int_equal(v, gso_cases[i].want);
		if (v != XNB_TX_OK) {
			expect_drop(v, &p, XNB_R_GSO_NOT_NEGOTIATED, 4);
			continue;
		}
		expect_ok(&p, 4, 3);
		assert_int_equal(p.gso_type, type == TCPV4 ?
				 XNB_GSO_TCPV4 : XNB_GSO_TCPV6);
		assert_int_equal(p.gso_size, 1448);
		assert_int_equal(p.flags, XEN_NETTXF_csum_blank);
		assert_int_equal(p.data[0].size, 9000 - 4096 - 4000);
	}
}

static const u8 mac[6] = { 1, 0, 0x5e, 0, 0, 1 };
static const u8 mac2[6] = { 1, 0, 0x5e, 0, 0, 2 };

/* A multicast extra: a filter request, answered, not sent. */
static void test_mcast_add(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, EXTRA, 1, 100);
	put_extra(XEN_NETIF_EXTRA_TYPE_MCAST_ADD, false, mac, sizeof(mac));
	expect_drop(parse(&p), &p, XNB_R_MCAST_CTRL, 2);
	assert_int_equal(p.is_extra[1], 1);
	assert_int_equal(p.mcast_op, XEN_NETIF_EXTRA_TYPE_MCAST_ADD);
	assert_memory_equal(p.mcast_addr, mac, 6);
}

/* Behind a GSO extra, with data slots: still a filter request. */
static void test_mcast_del_with_gso(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, EXTRA | MORE, 1, 100);
	put_gso(TCPV4, 1448, true);
	put_extra(XEN_NETIF_EXTRA_TYPE_MCAST_DEL, false, mac, sizeof(mac));
	put(2, 0, 0, 2, 50);
	expect_drop(parse(&p), &p, XNB_R_MCAST_CTRL, 4);
	assert_int_equal(p.mcast_op, XEN_NETIF_EXTRA_TYPE_MCAST_DEL);
}

/* A dummy request of size 0 is a request, not a runt; the last
 * multicast extra of the chain is the one applied.
 */
static void test_mcast_last_wins(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, EXTRA, 1, 0);
	put_extra(XEN_NETIF_EXTRA_TYPE_MCAST_ADD, true, mac, sizeof(mac));
	put_extra(XEN_NETIF_EXTRA_TYPE_MCAST_DEL, false, mac2, sizeof(mac2));
	expect_drop(parse(&p), &p, XNB_R_MCAST_CTRL, 3);
	assert_int_equal(p.mcast_op, XEN_NETIF_EXTRA_TYPE_MCAST_DEL);
	assert_memory_equal(p.mcast_addr, mac2, 6);
}

/* No multicast extra: no request. */
static void test_mcast_none(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, 0, 1, 100);
	assert_int_equal(parse(&p), XNB_TX_OK);
	assert_int_equal(p.mcast_op, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		RING_TEST(test_extra_no_slot_left),
		RING_TEST(test_extra_bad_type),
		RING_TEST(test_extra_known_types),
		RING_TEST(test_extras_eight_ok),
		RING_TEST(test_extras_nine_fatal),
		RING_TEST(test_extras_endless),
		RING_TEST(test_extras_repeated_last_wins),
		RING_TEST(test_gso_bad_fatal),
		RING_TEST(test_gso_bad_none_offered),
		RING_TEST(test_gso_negotiation),
		RING_TEST(test_mcast_add),
		RING_TEST(test_mcast_del_with_gso),
		RING_TEST(test_mcast_last_wins),
		RING_TEST(test_mcast_none),
	};

	return cmocka_run_group_tests_name("tx_extras", tests, NULL, NULL);
}
