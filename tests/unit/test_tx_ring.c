// SPDX-License-Identifier: GPL-2.0
/*
 * xnb_tx_parse() on a ring the guest shares: a guest rewriting fields
 * under the parser (catalogue 17), request ids echoed as given
 * (catalogue 18), indices wrapping around 2^32, and the driver's loop of
 * parse-and-consume over a ring of mixed packets; the names of the
 * verdicts' reasons for its log lines.
 */
#include "tx_fixture.h"

/*
 * catalogue 17: the hook plays a guest that rewrites every field the
 * moment the backend has loaded it.  A second fetch of any field would
 * see the rewritten value and change the outcome.
 */
static void test_double_fetch_rewrite(void **state)
{
	size_t bytes = 16 * ENTRY;
	unsigned char reads[16 * ENTRY];
	struct xnb_tx_pkt a, b;
	enum xnb_tx_verdict va, vb;
	int salt;

	(void)state;
	for (salt = 0; salt < 256; salt += 17) {
		ring_init(16, 0xfffffffdu);
		put(1, 100, EXTRA | MORE | XEN_NETTXF_csum_blank, 11, 3000);
		put_gso(XEN_NETIF_GSO_TYPE_TCPV6, 1440, true);
		put_extra(XEN_NETIF_EXTRA_TYPE_HASH, false, NULL, 0);
		put(2, 0, MORE, 12, 1400);
		put(3, 2000, 0, 13, 1000);

		va = parse(&a);
		assert_int_equal(va, XNB_TX_OK);

		memset(&b, 0xa5, sizeof(b));
		xnb_hook_watch(R.e, bytes, reads, 1, (unsigned char)salt);
		vb = xnb_tx_parse(R.e, R.size, R.cons, 5, &LIM, &b);
		assert_int_equal(xnb_hook.outside, 0);
		xnb_hook_off();

		assert_int_equal(vb, va);
		assert_memory_equal(&a, &b, sizeof(a));
		/* and the ring really did change under the parser */
		assert_int_not_equal(R.e[(R.cons + 3) & 15].req.size, 1400);
	}
}

/* catalogue 18: duplicate and random ids, never an index. */
static void test_ids_echoed(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, MORE | EXTRA, 0xffff, 500);
	put_extra(XEN_NETIF_EXTRA_TYPE_HASH, false, NULL, 0);
	put(2, 0, MORE, 0xffff, 100);
	put(3, 0, MORE, 4242, 100);
	put(4, 0, 0, 0xffff, 100);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 5, 4);
	assert_int_equal(p.id[0], 0xffff);
	assert_int_equal(p.id[2], 0xffff);
	assert_int_equal(p.id[3], 4242);
	assert_int_equal(p.id[4], 0xffff);
}

/* catalogue 18: ids of a dropped packet are echoed just the same. */
static void test_ids_echoed_on_drop(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, MORE, 0x8000, 10);
	put(2, 0, 0, 0x8001, 100);
	expect_drop(parse(&p), &p, XNB_R_SLOT_OVERSIZE, 2);
	assert_int_equal(p.id[0], 0x8000);
	assert_int_equal(p.id[1], 0x8001);
}

static void test_chain_across_index_wrap(void **state)
{
	struct xnb_tx_pkt p;
	u32 i;

	(void)state;
	ring_init(4, 0xfffffffeu);
	put_pkt(0, 4, 1000, 100, 10);	/* slots 2, 3, 0, 1 of the ring */
	assert_int_equal(R.prod, 2);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 4, 4);
	for (i = 0; i < 4; i++)
		assert_int_equal(p.id[i], 10 + i);
	assert_int_equal(p.data[3].gref, 1003);
}

/* A ring of one slot at the very top of the index space. */
static void test_one_slot_ring_at_top(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	ring_init(1, 0xffffffffu);
	put_pkt(0, 1, 60, 0, 3);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 1, 1);
}

/* The driver's loop: parse, consume nr_slots, again; across the wrap. */
static void test_driver_loop_wrap(void **state)
{
	static const struct {
		enum xnb_tx_verdict v;
		u16 slots;
	} want[] = {
		{ XNB_TX_OK, 3 }, { XNB_TX_DROP, 1 }, { XNB_TX_OK, 5 },
		{ XNB_TX_DROP, 19 }, { XNB_TX_OK, 1 }, { XNB_TX_FATAL, 0 },
	};
	struct xnb_tx_pkt p;
	u32 i, end;

	(void)state;
	ring_init(32, 0xfffffff0u);
	put_pkt(0, 3, 200, 50, 0);
	put_pkt(0, 1, 10, 0, 0);			/* runt */
	put(1, 0, EXTRA | MORE, 0, 5000);
	put_gso(XEN_NETIF_GSO_TYPE_TCPV4, 1448, false);
	put_rest(4, 1000, 0);
	put_pkt(0, 19, 4000, 8, 0);		/* one slot too many */
	put_pkt(0, 1, 60, 0, 0);
	end = R.prod;
	put_pkt(0, 2, 60, 4, 0);		/* half published */
	R.prod--;

	for (i = 0; i < ARRAY_SIZE(want); i++) {
		enum xnb_tx_verdict v = parse(&p);

		assert_int_equal(v, want[i].v);
		assert_int_equal(p.nr_slots, want[i].slots);
		R.cons += p.nr_slots;
	}
	assert_int_equal(R.cons, end);
	assert_true(R.cons < 0xfffffff0u);		/* it wrapped */
}

/* Every reason has a name for the log; others are "unknown". */
static void test_reason_strings(void **state)
{
	unsigned int r;

	(void)state;
	for (r = 0; r < XNB_R_COUNT; r++) {
		assert_non_null(xnb_tx_reason_str(r));
		assert_string_not_equal(xnb_tx_reason_str(r), "unknown");
	}
	assert_string_equal(xnb_tx_reason_str(XNB_R_COUNT), "unknown");
	assert_string_equal(xnb_tx_reason_str(~0u), "unknown");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		RING_TEST(test_double_fetch_rewrite),
		RING_TEST(test_ids_echoed),
		RING_TEST(test_ids_echoed_on_drop),
		RING_TEST(test_chain_across_index_wrap),
		RING_TEST(test_one_slot_ring_at_top),
		RING_TEST(test_driver_loop_wrap),
		RING_TEST(test_reason_strings),
	};

	return cmocka_run_group_tests_name("tx_ring", tests, NULL, NULL);
}
