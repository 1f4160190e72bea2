// SPDX-License-Identifier: GPL-2.0
/*
 * xnb_tx_parse(): what a packet's slots hold (catalogue 5-9).  The first
 * slot's size is the packet's; each later slot's data must fit its page
 * and what remains of the packet.  A packet shorter than an Ethernet
 * header, or a slot larger than what remains, is dropped; a slot beyond
 * its page disables the vif.
 */
#include "tx_fixture.h"

static void test_single_slot_ok(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put(77, 100, XEN_NETTXF_csum_blank | XEN_NETTXF_data_validated, 9,
	    1514);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 1, 1);
	assert_int_equal(p.len, 1514);
	assert_int_equal(p.data[0].gref, 77);
	assert_int_equal(p.data[0].offset, 100);
	assert_int_equal(p.data[0].size, 1514);
	assert_int_equal(p.id[0], 9);
	assert_int_equal(p.is_extra[0], 0);
	assert_int_equal(p.flags,
			 XEN_NETTXF_csum_blank | XEN_NETTXF_data_validated);
	assert_int_equal(p.gso_type, XNB_GSO_NONE);
	assert_int_equal(p.gso_size, 0);
}

/* catalogue 5 */
static const struct chain_case runt_cases[] = {
	{ "13 bytes", 20, 1, 13, 0, XNB_TX_DROP, XNB_R_RUNT },
	{ "0 bytes", 20, 1, 0, 0, XNB_TX_DROP, XNB_R_RUNT },
	{ "14 bytes: an Ethernet header", 20, 1, 14, 0, XNB_TX_OK,
	  XNB_R_NONE },
	/* a short total split over slots is still a runt */
	{ "12 bytes over 3 slots", 20, 3, 12, 4, XNB_TX_DROP, XNB_R_RUNT },
};

static void test_runt(void **state)
{
	(void)state;
	run_chain_cases(runt_cases, ARRAY_SIZE(runt_cases));
}

/* catalogue 6: offset + size beyond the page */
static const struct slots_case cross_page_cases[] = {
	{ "a later slot", 2,
	  { { 1, 0, MORE, 1, 200 }, { 2, 4000, 0, 2, 97 } },
	  XNB_TX_FATAL, XNB_R_CROSS_PAGE, 0 },
	{ "exactly to the end of the page", 2,
	  { { 1, 0, MORE, 1, 200 }, { 2, 4000, 0, 2, 96 } },
	  XNB_TX_OK, XNB_R_NONE, 104 },
	{ "the first slot, once its share is known", 2,
	  { { 1, 4000, MORE, 1, 200 }, { 2, 0, 0, 2, 100 } },
	  XNB_TX_FATAL, XNB_R_CROSS_PAGE, 0 },
	{ "the first slot to the end of the page", 2,
	  { { 1, 4000, MORE, 1, 200 }, { 2, 0, 0, 2, 104 } },
	  XNB_TX_OK, XNB_R_NONE, 96 },
	{ "an offset past the page with no data", 2,
	  { { 1, 0, MORE, 1, 200 }, { 2, 0xffff, 0, 2, 0 } },
	  XNB_TX_FATAL, XNB_R_CROSS_PAGE, 0 },
	{ "a lone slot at offset 4097", 1,
	  { { 1, 4097, 0, 1, 60 } },
	  XNB_TX_FATAL, XNB_R_CROSS_PAGE, 0 },
};

static void test_cross_page(void **state)
{
	(void)state;
	run_slots_cases(cross_page_cases, ARRAY_SIZE(cross_page_cases));
}

/* catalogue 6: still fatal in a packet already being dropped. */
static void test_cross_page_in_dropped_packet(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put_pkt(0, 19, 4000, 64, 0);
	R.e[18].req.offset = 4090;
	expect_fatal(parse(&p), &p, XNB_R_CROSS_PAGE);
}

/* catalogue 7, 8: later slots' sizes against the packet's */
static const struct slots_case slot_size_cases[] = {
	{ "a later slot larger than what remains", 3,
	  { { 1, 0, MORE, 1, 100 }, { 2, 0, MORE, 2, 60 },
	    { 3, 0, 0, 3, 41 } },
	  XNB_TX_DROP, XNB_R_SLOT_OVERSIZE, 0 },
	{ "the whole packet in later slots, the first empty", 2,
	  { { 1, 0, MORE, 1, 100 }, { 2, 0, 0, 2, 100 } },
	  XNB_TX_OK, XNB_R_NONE, 0 },
	{ "zero-length slots in the middle", 4,
	  { { 1, 0, MORE, 1, 100 }, { 2, 0, MORE, 2, 0 },
	    { 3, 0, MORE, 3, 40 },
	    { 4, 4096, 0, 4, 0 } },	/* empty at the page's very end */
	  XNB_TX_OK, XNB_R_NONE, 60 },
};

static void test_slot_sizes(void **state)
{
	(void)state;
	run_slots_cases(slot_size_cases, ARRAY_SIZE(slot_size_cases));
}

/* catalogue 7: later slots add up past a 64 KiB total. */
static void test_slots_past_64k_drop(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put_pkt(0, 18, 65535, 4096, 0);
	for (u32 i = 1; i < 18; i++)
		R.e[i].req.offset = 0;
	expect_drop(parse(&p), &p, XNB_R_SLOT_OVERSIZE, 18);
}

/* catalogue 8: every slot after the first zero-length. */
static void test_zero_length_after_first(void **state)
{
	struct xnb_tx_pkt p;
	u32 i, zero = 0;

	(void)state;
	put(1, 0, MORE, 1, 1500);
	for (i = 0; i < 17; i++)
		put(2 + i, 0, i < 16 ? MORE : 0, 2 + i, 0);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 18, 18);
	assert_int_equal(p.data[0].size, 1500);
	/* the core reports empty slots as they are; the driver must not
	 * turn them into frags
	 */
	for (i = 1; i < p.nr_data; i++)
		zero += p.data[i].size == 0;
	assert_int_equal(zero, 17);
}

/* catalogue 9: headers split into 1-byte slots. */
static void test_one_byte_slots(void **state)
{
	struct xnb_tx_pkt p;
	u32 i;

	(void)state;
	put_pkt(0, 18, 60, 1, 0);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 18, 18);
	assert_int_equal(p.data[0].size, 60 - 17);
	for (i = 1; i < 18; i++)
		assert_int_equal(p.data[i].size, 1);
}

/* catalogue 9: the first slot holds a single byte of the header. */
static void test_one_byte_first_slot(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put_pkt(0, 18, 18, 1, 0);
	assert_int_equal(parse(&p), XNB_TX_OK);
	assert_int_equal(p.data[0].size, 1);
}

/* catalogue 9: first slot + 18 slots, <= 128 bytes in all: one too many */
static const struct chain_case tiny_slots_over_cases[] = {
	{ "100 bytes, 1 a slot", 20, 19, 100, 1,
	  XNB_TX_DROP, XNB_R_SLOTS_OVER_MAX },
	{ "128 bytes, 6 a slot", 20, 19, 128, 6,
	  XNB_TX_DROP, XNB_R_SLOTS_OVER_MAX },
};

static void test_tiny_slots_over_max(void **state)
{
	(void)state;
	run_chain_cases(tiny_slots_over_cases,
			ARRAY_SIZE(tiny_slots_over_cases));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		RING_TEST(test_single_slot_ok),
		RING_TEST(test_runt),
		RING_TEST(test_cross_page),
		RING_TEST(test_cross_page_in_dropped_packet),
		RING_TEST(test_slot_sizes),
		RING_TEST(test_slots_past_64k_drop),
		RING_TEST(test_zero_length_after_first),
		RING_TEST(test_one_byte_slots),
		RING_TEST(test_one_byte_first_slot),
		RING_TEST(test_tiny_slots_over_max),
	};

	return cmocka_run_group_tests_name("tx_slots", tests, NULL, NULL);
}
