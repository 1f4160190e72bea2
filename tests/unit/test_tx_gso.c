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
 *
 * xnb_tx_charge(): the slots a packet is charged in its pass, the most
 * of its ring slots, its segments per XNB_GSO_SEGS_PER_SLOT (counted up
 * to the vif's gso_max_segs + 1: more are dropped before they are cut)
 * and XNB_TX_PKT_SLOTS.
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
	static const struct xnb_tx_limits none = {
		20, false, false, XNB_GSO_MAX_SEGS
	};
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

/*
 * The charge of a packet: @len bytes with a GSO extra of @size (0: none),
 * laid out as netfront does (a page in the first slot, full pages after
 * it), on a vif whose gso_max_segs is @max_segs.  An honest packet at
 * IPv4's default MSS (536) or above is charged its slots; one of tiny
 * segments, one slot per 8 of them; one over the limit, as one of the
 * limit + 1 segments (GSO_MAX: the kernel's most, no clamp).
 */
#define GSO_MAX 65535u
static const struct {
	const char *name;
	u16 len;
	u16 size;		/* 0: not GSO */
	u32 max_segs;		/* the vif's gso_max_segs */
	u32 slots;		/* ring slots, the extra included */
	u32 charge;
} charge_cases[] = {
	{ "64 KiB, not GSO", 0xffff, 0, GSO_MAX, 16, 16 },
	{ "64 KiB, size 1448: 46 segments", 0xffff, 1448, GSO_MAX, 17, 17 },
	{ "64 KiB, size 1220: 54 segments", 0xffff, 1220, GSO_MAX, 17, 17 },
	{ "64 KiB, size 536: 123 segments", 0xffff, 536, GSO_MAX, 17, 17 },
	{ "64 KiB, size 200: 328 segments", 0xffff, 200, GSO_MAX, 17, 41 },
	{ "64 KiB, size 48: 1366 segments", 0xffff, 48, GSO_MAX, 17, 171 },
	{ "64 KiB, size 47: 1395 segments", 0xffff, 47, GSO_MAX, 17, 175 },
	{ "64 KiB, size 8: 8192 segments", 0xffff, 8, GSO_MAX, 17, 1024 },
	{ "64 KiB, size 1: raised to 8", 0xffff, 1, GSO_MAX, 17, 1024 },
	{ "64 KiB, size XNB_GSO_MAX_SIZE: 2 segments", 0xffff,
	  XNB_GSO_MAX_SIZE, GSO_MAX, 17, 17 },
	{ "3000 bytes, size 536: 6 segments, the least charge", 3000, 536,
	  GSO_MAX, 2, XNB_TX_PKT_SLOTS },
	{ "3000 bytes, size 8: 375 segments", 3000, 8, GSO_MAX, 2, 47 },
	{ "60 bytes, size 8: 8 segments, the least charge", 60, 8, GSO_MAX,
	  2, XNB_TX_PKT_SLOTS },
	{ "60 bytes, size 1: 8 segments, the least charge", 60, 1, GSO_MAX,
	  2, XNB_TX_PKT_SLOTS },
	{ "60 bytes, not GSO: the least charge", 60, 0, GSO_MAX, 1,
	  XNB_TX_PKT_SLOTS },
	{ "16 KiB, not GSO: its slots", 16384, 0, GSO_MAX, 4, 4 },
	{ "20000 bytes, not GSO: its slots", 20000, 0, GSO_MAX, 5, 5 },
	{ "3000 bytes, size 75: 40 segments, above the least", 3000, 75,
	  GSO_MAX, 2, 5 },
	{ "64 KiB, size 48, default limit: 1366 segments, all charged",
	  0xffff, 48, XNB_GSO_MAX_SEGS, 17, 171 },
	{ "64 KiB, size 47, default limit: charged as 1367 segments",
	  0xffff, 47, XNB_GSO_MAX_SEGS, 17, 171 },
	{ "64 KiB, size 8, default limit: charged as 1367 segments",
	  0xffff, 8, XNB_GSO_MAX_SEGS, 17, 171 },
	{ "64 KiB, size 8, limit 64: charged its slots", 0xffff, 8, 64,
	  17, 17 },
	{ "64 KiB, size 8, limit 0: charged its slots", 0xffff, 8, 0, 17,
	  17 },
	{ "3000 bytes, size 8, limit 64: charged as 65 segments", 3000, 8,
	  64, 2, 9 },
	{ "3000 bytes, size 8, limit 375: all charged", 3000, 8, 375, 2,
	  47 },
	{ "3000 bytes, size 8, limit 374: charged as 375 segments", 3000, 8,
	  374, 2, 47 },
	{ "3000 bytes, size 8, limit 367: charged as 368 segments", 3000, 8,
	  367, 2, 46 },
	{ "64 KiB, not GSO, limit 0", 0xffff, 0, 0, 16, 16 },
};

static void test_gso_charge(void **state)
{
	struct xnb_tx_pkt p;
	size_t i;
	u32 full;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(charge_cases); i++) {
		u16 len = charge_cases[i].len, size = charge_cases[i].size;
		struct xnb_tx_limits lim = LIM;

		lim.gso_max_segs = charge_cases[i].max_segs;

		ring_case(charge_cases[i].name);
		full = len > XNB_PAGE_SIZE ? (len - 1u) / XNB_PAGE_SIZE : 0;
		put(1, 0, (size ? EXTRA | CSUM : 0) | (full ? MORE : 0), 1, len);
		if (size)
			put_gso(TCPV4, size, false);
		if (full)
			put_rest(full + 1, XNB_PAGE_SIZE, 2);
		assert_int_equal(parse(&p), XNB_TX_OK);
		assert_int_equal(p.nr_slots, charge_cases[i].slots);
		assert_int_equal(xnb_tx_charge(&p, &lim),
				 charge_cases[i].charge);
	}
}

/* Every size from IPv4's default MSS up: a 64 KiB packet is charged its
 * slots; below, more; and the charge never falls as the size shrinks.
 */
static void test_gso_charge_honest(void **state)
{
	struct xnb_tx_limits lim = LIM;
	struct xnb_tx_pkt p;
	u32 size, last = 0, c;

	(void)state;
	lim.gso_max_segs = GSO_MAX;
	for (size = XNB_GSO_MAX_SIZE; size >= 1; size--) {
		ring_case("64 KiB packet");
		put_gso_64k(TCPV4, (u16)size);
		assert_int_equal(parse(&p), XNB_TX_OK);
		c = xnb_tx_charge(&p, &lim);
		if (size >= 536)
			assert_int_equal(c, 17);
		else if (size < 400)
			assert_true(c > 17);
		assert_true(c >= last);
		last = c;
	}
}

/* The vif's default gso_max_segs: a 64 KiB packet at TCP's least send
 * MSS makes no more, one segment less makes more.
 */
static void test_gso_max_segs(void **state)
{
	(void)state;
	assert_int_equal(XNB_GSO_MAX_SEGS, 1366);
	assert_true((0xffffu + XNB_TCP_MIN_SND_MSS - 1) / XNB_TCP_MIN_SND_MSS
		    <= XNB_GSO_MAX_SEGS);
	assert_true((XNB_GSO_MAX_SIZE + XNB_TCP_MIN_SND_MSS - 2) /
		    (XNB_TCP_MIN_SND_MSS - 1) > XNB_GSO_MAX_SEGS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		RING_TEST(test_gso_size_bounds),
		RING_TEST(test_gso_size_bad_before_good),
		RING_TEST(test_gso_size_bad_after_good),
		RING_TEST(test_gso_size_before_other_checks),
		RING_TEST(test_gso_charge),
		RING_TEST(test_gso_charge_honest),
		RING_TEST(test_gso_max_segs),
	};

	return cmocka_run_group_tests_name("tx_gso", tests, NULL, NULL);
}
