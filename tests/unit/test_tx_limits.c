// SPDX-License-Identifier: GPL-2.0
/*
 * xnb_tx_parse(): how many slots a packet may take (catalogue 1, 3, 4,
 * 10).  Up to XNB_TX_MAX_DATA data slots go; more are dropped with every
 * slot answered; a chain reaching fatal_skb_slots after its first slot,
 * or running past what the frontend published, disables the vif.
 */
#include "tx_fixture.h"

/* catalogue 1: the producer claims more than a ring. */
static void test_avail_over_ring_fatal(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	ring_init(4, 0);
	put_pkt(0, 1, 60, 0, 1);
	expect_fatal(parse_n(5, &LIM, &p), &p, XNB_R_RING_OVERFLOW);
	expect_fatal(parse_n(0xffffffffu, &LIM, &p), &p,
		     XNB_R_RING_OVERFLOW);
	expect_fatal(parse_n(0, &LIM, &p), &p, XNB_R_CHAIN_PAST_PROD);
	assert_int_equal(parse_n(4, &LIM, &p), XNB_TX_OK);
}

/* catalogue 3: a 5-slot chain of which only 3 are published. */
static void test_chain_past_prod_fatal(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put_pkt(0, 5, 1000, 100, 1);
	expect_fatal(parse_n(3, &LIM, &p), &p, XNB_R_CHAIN_PAST_PROD);
	expect_fatal(parse_n(1, &LIM, &p), &p, XNB_R_CHAIN_PAST_PROD);
	assert_int_equal(parse_n(5, &LIM, &p), XNB_TX_OK);
	expect_ok(&p, 5, 5);
}

/* Chains of @nr slots (first + @nr - 1 further) against fatal_slots. */
static const struct chain_case slot_count_cases[] = {
	/* catalogue 10: the frag-array boundary */
	{ "17 data slots", 20, 17, 4000, 64, XNB_TX_OK, XNB_R_NONE },
	{ "18 data slots", 20, 18, 4000, 64, XNB_TX_OK, XNB_R_NONE },
	/* catalogue 4, 10: one over the frag array, every slot answered */
	{ "19 data slots: drop", 20, 19, 4000, 64,
	  XNB_TX_DROP, XNB_R_SLOTS_OVER_MAX },
	{ "20 data slots, 19 further: still below fatal", 20, 20, 4000, 64,
	  XNB_TX_DROP, XNB_R_SLOTS_OVER_MAX },
	/* catalogue 4: 20 slots after the first reach fatal_skb_slots */
	{ "20 further slots: fatal", 20, 21, 4000, 64,
	  XNB_TX_FATAL, XNB_R_TOO_MANY_SLOTS },
	{ "39 further slots: fatal", 20, 40, 4000, 64,
	  XNB_TX_FATAL, XNB_R_TOO_MANY_SLOTS },
	/* fatal_skb_slots changed */
	{ "fatal_slots 30, 29 further: drop", 30, 30, 8000, 64,
	  XNB_TX_DROP, XNB_R_SLOTS_OVER_MAX },
	{ "fatal_slots 30, 30 further: fatal", 30, 31, 8000, 64,
	  XNB_TX_FATAL, XNB_R_TOO_MANY_SLOTS },
	/* below the frag limit, fatal wins over the drop */
	{ "fatal_slots 5, 4 further: ok", 5, 5, 1000, 64, XNB_TX_OK,
	  XNB_R_NONE },
	{ "fatal_slots 5, 5 further: fatal", 5, 6, 1000, 64,
	  XNB_TX_FATAL, XNB_R_TOO_MANY_SLOTS },
	/* zero: any chain is fatal, a lone slot is fine */
	{ "fatal_slots 0, a chain: fatal", 0, 2, 1000, 64,
	  XNB_TX_FATAL, XNB_R_TOO_MANY_SLOTS },
	{ "fatal_slots 0, a lone slot: ok", 0, 1, 1000, 0, XNB_TX_OK,
	  XNB_R_NONE },
	/* above XNB_TX_FATAL_MAX it acts as 64 */
	{ "fatal_slots 80, 63 further: drop", 80, 64, 8000, 64,
	  XNB_TX_DROP, XNB_R_SLOTS_OVER_MAX },
	{ "fatal_slots 80, 64 further: fatal", 80, 65, 8000, 64,
	  XNB_TX_FATAL, XNB_R_TOO_MANY_SLOTS },
	{ "fatal_slots 0xffff, 64 further: fatal", 0xffff, 65, 8000, 64,
	  XNB_TX_FATAL, XNB_R_TOO_MANY_SLOTS },
};

static void test_slot_count(void **state)
{
	(void)state;
	run_chain_cases(slot_count_cases, ARRAY_SIZE(slot_count_cases));
}

/* 17 data slots: the first slot holds what the others do not. */
static void test_data_slots_17_first_share(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put_pkt(0, 17, 4000, 64, 0);
	assert_int_equal(parse(&p), XNB_TX_OK);
	assert_int_equal(p.data[0].size, 4000 - 16 * 64);
}

/* 18 data slots: the last one is reported whole. */
static void test_data_slots_18_last(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put_pkt(0, 18, 4000, 64, 0);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 18, 18);
	assert_int_equal(p.data[17].gref, 1017);
	assert_int_equal(p.data[17].offset, 128);
	assert_int_equal(p.data[17].size, 64);
	assert_int_equal(p.id[17], 17);
}

/* With the 20th further slot unpublished, past-prod comes first. */
static void test_fatal_slots_unpublished(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put_pkt(0, 21, 4000, 64, 0);
	expect_fatal(parse_n(20, &LIM, &p), &p, XNB_R_CHAIN_PAST_PROD);
}

/* 20 further slots, the last one still claiming more data. */
static void test_fatal_slots_last_claims_more(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put_pkt(0, 21, 4000, 64, 0);
	R.e[20].req.flags = MORE;
	expect_fatal(parse_n(21, &LIM, &p), &p, XNB_R_TOO_MANY_SLOTS);
}

/* The longest walk: 8 extras and 63 further slots, all answered. */
static void test_max_slots_with_extras(void **state)
{
	struct xnb_tx_limits lim = LIM;
	struct xnb_tx_pkt p;
	int i;

	(void)state;
	lim.fatal_slots = XNB_TX_FATAL_MAX;
	put(1, 0, EXTRA | MORE, 0, 8000);
	for (i = 0; i < 8; i++)
		put_extra(XEN_NETIF_EXTRA_TYPE_HASH, i < 7, NULL, 0);
	put_rest(64, 64, 100);
	expect_drop(parse_lim(&lim, &p), &p, XNB_R_SLOTS_OVER_MAX, 72);
	assert_true(p.nr_slots <= XNB_TX_MAX_SLOTS);
	for (i = 0; i < 72; i++)
		assert_int_equal(p.is_extra[i], i >= 1 && i <= 8);
	assert_int_equal(p.id[71], 163);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		RING_TEST(test_avail_over_ring_fatal),
		RING_TEST(test_chain_past_prod_fatal),
		RING_TEST(test_slot_count),
		RING_TEST(test_data_slots_17_first_share),
		RING_TEST(test_data_slots_18_last),
		RING_TEST(test_fatal_slots_unpublished),
		RING_TEST(test_fatal_slots_last_claims_more),
		RING_TEST(test_max_slots_with_extras),
	};

	return cmocka_run_group_tests_name("tx_limits", tests, NULL, NULL);
}
