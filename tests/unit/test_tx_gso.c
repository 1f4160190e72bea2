// SPDX-License-Identifier: GPL-2.0
/*
 * xnb_tx_parse(): the segment size of a GSO extra (catalogue 13, 40,
 * 42).  It must lie within 1..XNB_GSO_MAX_SIZE, in every GSO extra of
 * the chain and not only in the one that wins: no segment of a packet
 * the ring can describe is larger, and 0xffff is the kernel's
 * GSO_BY_FRAGS.  Outside, the vif is disabled.  A size below
 * XNB_GSO_MIN_SIZE is honest (a forwarding guest's GRO makes them) and
 * raised to it.
 * Whether the headers fit the GSO type is checked after the copy
 * (tx.c), not here.
 */
#include "tx_fixture.h"

#define TCPV4 XEN_NETIF_GSO_TYPE_TCPV4
#define TCPV6 XEN_NETIF_GSO_TYPE_TCPV6
#define CSUM XEN_NETTXF_csum_blank

/*
 * A 65,535-byte GSO packet as netfront sends one: 4095 bytes in the
 * first slot, its GSO extra, 15 full pages.  Returns its slots.
 */
static u32 put_gso_64k(u8 type, u16 size)
{
	put(1, 0, EXTRA | MORE | CSUM, 1, 0xffff);
	put_gso(type, size, false);
	put_rest(16, XNB_PAGE_SIZE, 2);
	return 17;
}

static const struct {
	const char *name;
	u8 type;
	u16 size;
	enum xnb_tx_verdict want;
	u16 gso_size;		/* what the packet carries when OK */
} size_cases[] = {
	{ "size 0 (catalogue 13)", TCPV4, 0, XNB_TX_FATAL, 0 },
	{ "size 1 (catalogue 40): raised", TCPV4, 1, XNB_TX_OK,
	  XNB_GSO_MIN_SIZE },
	{ "size 2: raised", TCPV4, 2, XNB_TX_OK, XNB_GSO_MIN_SIZE },
	{ "size XNB_GSO_MIN_SIZE - 1: raised", TCPV4, XNB_GSO_MIN_SIZE - 1,
	  XNB_TX_OK, XNB_GSO_MIN_SIZE },
	{ "size XNB_GSO_MIN_SIZE", TCPV4, XNB_GSO_MIN_SIZE, XNB_TX_OK,
	  XNB_GSO_MIN_SIZE },
	{ "TCPv6, size 1: raised", TCPV6, 1, XNB_TX_OK, XNB_GSO_MIN_SIZE },
	{ "TCPv6, size XNB_GSO_MIN_SIZE", TCPV6, XNB_GSO_MIN_SIZE,
	  XNB_TX_OK, XNB_GSO_MIN_SIZE },
	{ "size 536", TCPV4, 536, XNB_TX_OK, 536 },
	{ "size 1448", TCPV4, 1448, XNB_TX_OK, 1448 },
	{ "size XNB_GSO_MAX_SIZE", TCPV4, XNB_GSO_MAX_SIZE, XNB_TX_OK,
	  XNB_GSO_MAX_SIZE },
	{ "size XNB_GSO_MAX_SIZE + 1", TCPV4, XNB_GSO_MAX_SIZE + 1,
	  XNB_TX_FATAL, 0 },
	{ "size 0xfffe", TCPV6, 0xfffe, XNB_TX_FATAL, 0 },
	{ "size 0xffff, GSO_BY_FRAGS (catalogue 42)", TCPV4, 0xffff,
	  XNB_TX_FATAL, 0 },
};

static void test_gso_size_bounds(void **state)
{
	struct xnb_tx_pkt p;
	enum xnb_tx_verdict v;
	size_t i;
	u32 n;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(size_cases); i++) {
		ring_case(size_cases[i].name);
		n = put_gso_64k(size_cases[i].type, size_cases[i].size);
		v = parse(&p);
		if (size_cases[i].want != XNB_TX_OK) {
			expect_fatal(v, &p, XNB_R_BAD_GSO);
			continue;
		}
		assert_int_equal(v, XNB_TX_OK);
		expect_ok(&p, n, n - 1);
		assert_int_equal(p.len, 0xffff);
		assert_int_equal(p.gso_size, size_cases[i].gso_size);
		assert_int_equal(p.gso_type,
				 size_cases[i].type == TCPV4 ?
				 XNB_GSO_TCPV4 : XNB_GSO_TCPV6);
	}
}

/* Any GSO extra out of bounds is fatal, not only the last one: the
 * first of two, then the second of two.
 */
static void test_gso_size_bad_before_good(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, EXTRA | MORE | CSUM, 1, 3000);
	put_gso(TCPV4, 0, true);
	put_gso(TCPV4, 1448, false);
	put(2, 0, 0, 2, 1500);
	expect_fatal(parse(&p), &p, XNB_R_BAD_GSO);
}

static void test_gso_size_bad_after_good(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, EXTRA | MORE | CSUM, 1, 3000);
	put_gso(TCPV4, 1448, true);
	put_gso(TCPV4, 0xffff, false);
	put(2, 0, 0, 2, 1500);
	expect_fatal(parse(&p), &p, XNB_R_BAD_GSO);
}

/* Fatal whatever would become of the packet: a GSO type the vif did not
 * offer (a drop with a valid size), a runt.
 */
static void test_gso_size_before_other_checks(void **state)
{
	static const struct xnb_tx_limits none = { 20, false, false };
	struct xnb_tx_pkt p;

	(void)state;
	put_gso_64k(TCPV4, 0xffff);
	expect_fatal(parse_lim(&none, &p), &p, XNB_R_BAD_GSO);

	ring_case("a runt with GSO size 0");
	put(1, 0, EXTRA, 1, 10);
	put_gso(TCPV4, 0, false);
	expect_fatal(parse(&p), &p, XNB_R_BAD_GSO);

	ring_case("a runt with GSO size 8: dropped as a runt");
	put(1, 0, EXTRA, 1, 10);
	put_gso(TCPV4, XNB_GSO_MIN_SIZE, false);
	expect_drop(parse(&p), &p, XNB_R_RUNT, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		RING_TEST(test_gso_size_bounds),
		RING_TEST(test_gso_size_bad_before_good),
		RING_TEST(test_gso_size_bad_after_good),
		RING_TEST(test_gso_size_before_other_checks),
	};

	return cmocka_run_group_tests_name("tx_gso", tests, NULL, NULL);
}
