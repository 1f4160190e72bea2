// SPDX-License-Identifier: GPL-2.0
/*
 * Guest RX: the slots a packet needs (a page-sized buffer each, plus one
 * for a GSO extra) and whether it may go to the guest at all.  With XDP
 * the guest asks for headroom ("xdp-headroom") before the data in the
 * first buffer, taken as at most XNB_RX_HEADROOM_MAX.
 */
#include "unit.h"

struct slots_needed_case {
	u32 len;
	bool gso;
	u32 headroom;
	u32 want;
};

static void run_slots_needed(const struct slots_needed_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(xnb_rx_slots_needed(c[i].len, c[i].gso,
						     c[i].headroom),
				 c[i].want);
}

static void test_rx_slots_needed(void **state)
{
	static const struct slots_needed_case c[] = {
		{ 0, false, 0, 1 },
		{ 1, false, 0, 1 },
		{ 4095, false, 0, 1 },
		{ 4096, false, 0, 1 },
		{ 4097, false, 0, 2 },
		{ 65535, false, 0, 16 },
		{ 65536, false, 0, 16 },
		{ 65537, false, 0, 17 },
		{ 0, true, 0, 2 },
		{ 4096, true, 0, 2 },
		{ 4097, true, 0, 3 },
		{ 65536, true, 0, 17 },
		/* no wrap near 4 GiB */
		{ 0xfffff000u, false, 0, 0xfffff },
		{ 0xfffff001u, false, 0, 0x100000 },
		{ 0xffffffffu, false, 0, 0x100000 },
		{ 0xffffffffu, true, 0, 0x100001 },
	};

	(void)state;
	run_slots_needed(c, ARRAY_SIZE(c));
}

static void test_rx_slots_needed_headroom(void **state)
{
	static const struct slots_needed_case c[] = {
		/* XDP: the first slot carries 4096 - headroom bytes */
		{ 0, false, 256, 1 },
		{ 1514, false, 256, 1 },
		{ 3840, false, 256, 1 },
		{ 3841, false, 256, 2 },
		{ 3840 + 4096, false, 256, 2 },
		{ 3841 + 4096, true, 256, 4 },
		{ 65536, false, 256, 17 },
		/* above XNB_RX_HEADROOM_MAX: taken as 2048 */
		{ 2048, false, 0x7fff, 1 },
		{ 2049, false, 0xffffffffu, 2 },
		{ 0xffffffffu, false, 2048, 0x100001 },
		{ 0xffffffffu, true, 0xffffffffu, 0x100002 },
	};

	(void)state;
	run_slots_needed(c, ARRAY_SIZE(c));
}

struct fits_case {
	u32 len;
	bool gso, negotiated, sg, ok;
	u32 headroom;
};

static void run_fits(const struct fits_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(xnb_rx_fits(c[i].len, c[i].gso,
					     c[i].negotiated, c[i].sg,
					     c[i].headroom),
				 c[i].ok);
}

static void test_rx_fits(void **state)
{
	static const struct fits_case c[] = {
		{ 0, false, false, false, true, 0 },
		{ 1514, false, false, false, true, 0 },
		{ 4096, false, false, false, true, 0 },	/* one page */
		{ 4097, false, false, false, false, 0 },	/* two, no SG */
		{ 4097, false, false, true, true, 0 },
		{ 18 * 4096, false, false, true, true, 0 },	/* 18 buffers */
		{ 18 * 4096 + 1, false, false, true, false, 0 },
		{ 65536, true, true, true, true, 0 },	/* 16 + extra */
		{ 18 * 4096, true, true, true, true, 0 },	/* 18 + extra */
		{ 18 * 4096 + 1, true, true, true, false, 0 },
		{ 1514, true, false, true, false, 0 },	/* not negotiated */
		{ 1514, true, true, false, false, 0 },	/* GSO without SG */
		{ 0xffffffffu, false, false, true, false, 0 },
		{ 0xffffffffu, true, true, true, false, 0 },
	};

	(void)state;
	run_fits(c, ARRAY_SIZE(c));
}

static void test_rx_fits_headroom(void **state)
{
	static const struct fits_case c[] = {
		{ 1514, false, false, false, true, 256 },
		{ 3840, false, false, false, true, 256 },
		{ 3841, false, false, false, false, 256 },
		{ 3841, false, false, true, true, 256 },
		{ 2048, false, false, false, true, 0x7fff },	/* as 2048 */
		{ 2049, false, false, false, false, 0x7fff },
		{ 18 * 4096 - 256, false, false, true, true, 256 },
		{ 18 * 4096 - 255, false, false, true, false, 256 },
		{ 65535 + 14, true, true, true, true, 256 },
	};

	(void)state;
	run_fits(c, ARRAY_SIZE(c));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rx_slots_needed),
		cmocka_unit_test(test_rx_slots_needed_headroom),
		cmocka_unit_test(test_rx_fits),
		cmocka_unit_test(test_rx_fits_headroom),
	};

	return cmocka_run_group_tests_name("rx_slots", tests, NULL, NULL);
}
