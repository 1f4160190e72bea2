// SPDX-License-Identifier: GPL-2.0
/*
 * cmocka unit tests of the netback protocol core, proto.c built from the
 * tree with tests/common/xnb_read_hook.h forced in.  Case numbers refer
 * to the hostile-frontend catalogue (docs/hostile-catalogue.md).
 *
 * Every parse goes through parse_n(), which watches the ring: each byte
 * is read at most once, nothing outside the ring is touched, and only
 * the slots a verdict consumes are read.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <xen/xnb_proto.h>
#include "../common/xnb_read_hook.h"

#define ENTRY sizeof(union xen_netif_tx_sring_entry)
#define MORE XEN_NETTXF_more_data
#define EXTRA XEN_NETTXF_extra_info

/* The ring under test: exactly sized on the heap, so ASan sees overruns. */
static struct {
	union xen_netif_tx_sring_entry *e;
	u32 size, cons, prod;
} R;

static const struct xnb_tx_limits LIM = { 20, true, true };

static void ring_init(u32 size, u32 cons)
{
	free(R.e);
	R.e = calloc(size, ENTRY);
	assert_non_null(R.e);
	R.size = size;
	R.cons = cons;
	R.prod = cons;
}

static int setup(void **state)
{
	(void)state;
	memset(&R, 0, sizeof(R));
	ring_init(256, 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(R.e);
	R.e = NULL;
	xnb_hook_off();
	return 0;
}

static union xen_netif_tx_sring_entry *next_slot(void)
{
	return &R.e[R.prod++ & (R.size - 1)];
}

static void put(u32 gref, u16 offset, u16 flags, u16 id, u16 size)
{
	struct xen_netif_tx_request *q = &next_slot()->req;

	q->gref = gref;
	q->offset = offset;
	q->flags = flags;
	q->id = id;
	q->size = size;
}

static void put_extra(u8 type, bool more, const void *u, size_t ulen)
{
	struct xen_netif_extra_info x;

	memset(&x, 0, sizeof(x));
	x.type = type;
	x.flags = more ? XEN_NETIF_EXTRA_FLAG_MORE : 0;
	if (u)
		memcpy(&x.u, u, ulen);
	memcpy(next_slot(), &x, sizeof(x));
}

static void put_gso(u8 type, u16 size, bool more)
{
	struct xen_netif_extra_info x;

	memset(&x, 0, sizeof(x));
	x.u.gso.type = type;
	x.u.gso.size = size;
	put_extra(XEN_NETIF_EXTRA_TYPE_GSO, more, &x.u, sizeof(x.u.gso));
}

/*
 * A packet of @nr data slots and @total bytes: later slots hold @each
 * bytes at offset 128, the first slot whatever remains; ids count up
 * from @id.  @first_flags adds to the first slot (e.g. EXTRA).
 */
static void put_pkt(u16 first_flags, u32 nr, u16 total, u16 each, u16 id)
{
	u32 i;

	put(1000, 0, first_flags | (nr > 1 ? MORE : 0), id, total);
	for (i = 1; i < nr; i++)
		put(1000 + i, 128, i + 1 < nr ? MORE : 0, id + i, each);
}

/* Later slots of a packet whose first slot (with extras) is already in. */
static void put_rest(u32 nr, u16 each, u16 id)
{
	u32 i;

	for (i = 1; i < nr; i++)
		put(2000 + i, 0, i + 1 < nr ? MORE : 0, id + i, each);
}

static enum xnb_tx_verdict parse_n(u32 avail, const struct xnb_tx_limits *lim,
				   struct xnb_tx_pkt *p)
{
	size_t bytes = (size_t)R.size * ENTRY, i;
	unsigned char *reads = malloc(bytes);
	enum xnb_tx_verdict v;
	unsigned long outside;

	assert_non_null(reads);
	memset(p, 0xa5, sizeof(*p));
	xnb_hook_watch(R.e, bytes, reads, 0, 0);
	v = xnb_tx_parse(R.e, R.size, R.cons, avail, lim, p);
	outside = xnb_hook.outside;
	xnb_hook_off();

	assert_int_equal(outside, 0);
	for (i = 0; i < bytes; i++) {
		u32 slot = (u32)(i / ENTRY);
		u32 rel = (slot - R.cons) & (R.size - 1);

		/* catalogue 17: no byte fetched twice */
		assert_in_range(reads[i], 0, 1);
		if (v != XNB_TX_FATAL && reads[i] && R.size > 1)
			assert_true(rel < p->nr_slots);
	}
	free(reads);
	if (v == XNB_TX_FATAL)
		assert_int_equal(p->nr_slots, 0);
	return v;
}

static enum xnb_tx_verdict parse_lim(const struct xnb_tx_limits *lim,
				     struct xnb_tx_pkt *p)
{
	int n = xnb_ring_unconsumed(R.prod, R.cons, R.size);

	assert_true(n >= 0);
	return parse_n((u32)n, lim, p);
}

static enum xnb_tx_verdict parse(struct xnb_tx_pkt *p)
{
	return parse_lim(&LIM, p);
}

static u32 data_sum(const struct xnb_tx_pkt *p)
{
	u32 i, sum = 0;

	for (i = 0; i < p->nr_data; i++) {
		assert_true(p->data[i].offset + (u32)p->data[i].size <=
			    XNB_PAGE_SIZE);
		sum += p->data[i].size;
	}
	return sum;
}

static void expect_ok(struct xnb_tx_pkt *p, u32 nr_slots, u32 nr_data)
{
	assert_int_equal(p->reason, XNB_R_NONE);
	assert_int_equal(p->nr_slots, nr_slots);
	assert_int_equal(p->nr_data, nr_data);
	assert_int_equal(data_sum(p), p->len);
}

static void expect_drop(enum xnb_tx_verdict v, struct xnb_tx_pkt *p,
			enum xnb_tx_reason why, u32 nr_slots)
{
	assert_int_equal(v, XNB_TX_DROP);
	assert_int_equal(p->reason, why);
	assert_int_equal(p->nr_slots, nr_slots);
	assert_int_equal(p->nr_data, 0);
}

static void expect_fatal(enum xnb_tx_verdict v, struct xnb_tx_pkt *p,
			 enum xnb_tx_reason why)
{
	assert_int_equal(v, XNB_TX_FATAL);
	assert_int_equal(p->reason, why);
	assert_int_equal(p->nr_slots, 0);
}

/* ---- ring indices (catalogue 1, 2) ---- */

static void test_ring_unconsumed(void **state)
{
	(void)state;
	assert_int_equal(xnb_ring_unconsumed(0, 0, 256), 0);
	assert_int_equal(xnb_ring_unconsumed(5, 3, 256), 2);
	assert_int_equal(xnb_ring_unconsumed(256, 0, 256), 256);
	assert_int_equal(xnb_ring_unconsumed(257, 0, 256), -1);
	/* consumer ahead of producer: a huge unsigned gap */
	assert_int_equal(xnb_ring_unconsumed(3, 5, 256), -1);
	assert_int_equal(xnb_ring_unconsumed(1, 0, 1), 1);
	assert_int_equal(xnb_ring_unconsumed(2, 0, 1), -1);
}

static void test_ring_unconsumed_wrap(void **state)
{
	(void)state;
	assert_int_equal(xnb_ring_unconsumed(2, 0xfffffffeu, 256), 4);
	assert_int_equal(xnb_ring_unconsumed(0, 0xffffff00u, 256), 256);
	assert_int_equal(xnb_ring_unconsumed(1, 0xffffff00u, 256), -1);
	assert_int_equal(xnb_ring_unconsumed(0xffffffffu, 0xffffffffu, 256),
			 0);
	assert_int_equal(xnb_ring_unconsumed(0x7fffffffu, 0, 256), -1);
	assert_int_equal(xnb_ring_unconsumed(0x80000000u, 0, 256), -1);
}

static void test_ring_sane(void **state)
{
	(void)state;
	assert_true(xnb_ring_sane(0, 0, 256));
	assert_true(xnb_ring_sane(256, 0, 256));
	assert_false(xnb_ring_sane(257, 0, 256));
	assert_true(xnb_ring_sane(100, 0xffffff9cu, 256));	/* wrapped */
	assert_false(xnb_ring_sane(0x80000000u, 0, 256));
	/* responses ahead of requests */
	assert_false(xnb_ring_sane(0, 1, 256));
}

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

/* ---- slot chains (catalogue 3-10) ---- */

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

static void test_chain_past_prod_fatal(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	/* catalogue 3: a 5-slot chain of which only 3 are published */
	put_pkt(0, 5, 1000, 100, 1);
	expect_fatal(parse_n(3, &LIM, &p), &p, XNB_R_CHAIN_PAST_PROD);
	expect_fatal(parse_n(1, &LIM, &p), &p, XNB_R_CHAIN_PAST_PROD);
	assert_int_equal(parse_n(5, &LIM, &p), XNB_TX_OK);
	expect_ok(&p, 5, 5);
}

static void test_data_slots_17_18_ok(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	/* catalogue 10 */
	put_pkt(0, 17, 4000, 64, 0);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 17, 17);
	assert_int_equal(p.data[0].size, 4000 - 16 * 64);

	ring_init(256, 0);
	put_pkt(0, 18, 4000, 64, 0);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 18, 18);
	assert_int_equal(p.data[17].gref, 1017);
	assert_int_equal(p.data[17].offset, 128);
	assert_int_equal(p.data[17].size, 64);
	assert_int_equal(p.id[17], 17);
}

static void test_data_slots_19_20_drop(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	/* catalogue 4, 10: one over the frag array, every slot answered */
	put_pkt(0, 19, 4000, 64, 0);
	expect_drop(parse(&p), &p, XNB_R_SLOTS_OVER_MAX, 19);

	ring_init(256, 0);
	put_pkt(0, 20, 4000, 64, 0);	/* 19 further: still below fatal */
	expect_drop(parse(&p), &p, XNB_R_SLOTS_OVER_MAX, 20);
}

static void test_fatal_at_20_further(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	/* catalogue 4: 20 slots after the first reach fatal_skb_slots */
	put_pkt(0, 21, 4000, 64, 0);
	expect_fatal(parse(&p), &p, XNB_R_TOO_MANY_SLOTS);

	/* with the 20th further slot unpublished, past-prod comes first */
	expect_fatal(parse_n(20, &LIM, &p), &p, XNB_R_CHAIN_PAST_PROD);
	/* 20 further slots, the last one still claiming more data */
	R.e[20].req.flags = MORE;
	expect_fatal(parse_n(21, &LIM, &p), &p, XNB_R_TOO_MANY_SLOTS);

	ring_init(256, 0);
	put_pkt(0, 40, 4000, 64, 0);
	expect_fatal(parse(&p), &p, XNB_R_TOO_MANY_SLOTS);
}

static void test_fatal_slots_changed(void **state)
{
	struct xnb_tx_limits lim = LIM;
	struct xnb_tx_pkt p;

	(void)state;
	lim.fatal_slots = 30;
	put_pkt(0, 30, 8000, 64, 0);		/* 29 further */
	expect_drop(parse_lim(&lim, &p), &p, XNB_R_SLOTS_OVER_MAX, 30);
	ring_init(256, 0);
	put_pkt(0, 31, 8000, 64, 0);		/* 30 further */
	expect_fatal(parse_lim(&lim, &p), &p, XNB_R_TOO_MANY_SLOTS);

	/* below the frag limit, fatal wins over the drop */
	lim.fatal_slots = 5;
	ring_init(256, 0);
	put_pkt(0, 5, 1000, 64, 0);
	assert_int_equal(parse_lim(&lim, &p), XNB_TX_OK);
	ring_init(256, 0);
	put_pkt(0, 6, 1000, 64, 0);
	expect_fatal(parse_lim(&lim, &p), &p, XNB_R_TOO_MANY_SLOTS);

	/* zero: any chain is fatal, a lone slot is fine */
	lim.fatal_slots = 0;
	ring_init(256, 0);
	put_pkt(0, 2, 1000, 64, 0);
	expect_fatal(parse_lim(&lim, &p), &p, XNB_R_TOO_MANY_SLOTS);
	ring_init(256, 0);
	put_pkt(0, 1, 1000, 0, 0);
	assert_int_equal(parse_lim(&lim, &p), XNB_TX_OK);
}

static void test_fatal_slots_capped(void **state)
{
	struct xnb_tx_limits lim = LIM;
	struct xnb_tx_pkt p;

	(void)state;
	/* above XNB_TX_FATAL_MAX it acts as 64 */
	lim.fatal_slots = 80;
	put_pkt(0, 64, 8000, 64, 0);		/* 63 further */
	expect_drop(parse_lim(&lim, &p), &p, XNB_R_SLOTS_OVER_MAX, 64);
	ring_init(256, 0);
	put_pkt(0, 65, 8000, 64, 0);		/* 64 further */
	expect_fatal(parse_lim(&lim, &p), &p, XNB_R_TOO_MANY_SLOTS);

	lim.fatal_slots = 0xffff;
	assert_int_equal(parse_lim(&lim, &p), XNB_TX_FATAL);
	assert_int_equal(p.reason, XNB_R_TOO_MANY_SLOTS);
}

static void test_max_slots_with_extras(void **state)
{
	struct xnb_tx_limits lim = LIM;
	struct xnb_tx_pkt p;
	int i;

	(void)state;
	/* the longest walk: 8 extras and 63 further slots, all answered */
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

static void test_runt_drop(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	/* catalogue 5 */
	put_pkt(0, 1, 13, 0, 0);
	expect_drop(parse(&p), &p, XNB_R_RUNT, 1);
	ring_init(256, 0);
	put_pkt(0, 1, 0, 0, 0);
	expect_drop(parse(&p), &p, XNB_R_RUNT, 1);
	ring_init(256, 0);
	put_pkt(0, 1, 14, 0, 0);
	assert_int_equal(parse(&p), XNB_TX_OK);
	/* short total split over slots is still a runt */
	ring_init(256, 0);
	put_pkt(0, 3, 12, 4, 0);
	expect_drop(parse(&p), &p, XNB_R_RUNT, 3);
}

static void test_cross_page_fatal(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	/* catalogue 6: a later slot */
	put(1, 0, MORE, 1, 200);
	put(2, 4000, 0, 2, 97);
	expect_fatal(parse(&p), &p, XNB_R_CROSS_PAGE);

	/* exactly to the end of the page is fine */
	ring_init(256, 0);
	put(1, 0, MORE, 1, 200);
	put(2, 4000, 0, 2, 96);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 2, 2);

	/* the first slot, once its share is known */
	ring_init(256, 0);
	put(1, 4000, MORE, 1, 200);
	put(2, 0, 0, 2, 100);
	expect_fatal(parse(&p), &p, XNB_R_CROSS_PAGE);
	ring_init(256, 0);
	put(1, 4000, MORE, 1, 200);
	put(2, 0, 0, 2, 104);
	assert_int_equal(parse(&p), XNB_TX_OK);

	/* an offset past the page with no data */
	ring_init(256, 0);
	put(1, 0, MORE, 1, 200);
	put(2, 0xffff, 0, 2, 0);
	expect_fatal(parse(&p), &p, XNB_R_CROSS_PAGE);
	ring_init(256, 0);
	put(1, 4097, 0, 1, 60);
	expect_fatal(parse(&p), &p, XNB_R_CROSS_PAGE);

	/* still fatal in a packet already being dropped */
	ring_init(256, 0);
	put_pkt(0, 19, 4000, 64, 0);
	R.e[18].req.offset = 4090;
	expect_fatal(parse(&p), &p, XNB_R_CROSS_PAGE);
}

static void test_slot_oversize_drop(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	/* catalogue 7 */
	put(1, 0, MORE, 1, 100);
	put(2, 0, MORE, 2, 60);
	put(3, 0, 0, 3, 41);
	expect_drop(parse(&p), &p, XNB_R_SLOT_OVERSIZE, 3);

	/* later slots add up past a 64 KiB total */
	ring_init(256, 0);
	put_pkt(0, 18, 65535, 4096, 0);
	for (u32 i = 1; i < 18; i++)
		R.e[i].req.offset = 0;
	expect_drop(parse(&p), &p, XNB_R_SLOT_OVERSIZE, 18);

	/* the whole packet in later slots, first slot empty: fine */
	ring_init(256, 0);
	put(1, 0, MORE, 1, 100);
	put(2, 0, 0, 2, 100);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 2, 2);
	assert_int_equal(p.data[0].size, 0);
}

static void test_zero_length_slots(void **state)
{
	struct xnb_tx_pkt p;
	u32 i, zero = 0;

	(void)state;
	/* catalogue 8: zero-length slots in the middle */
	put(1, 0, MORE, 1, 100);
	put(2, 0, MORE, 2, 0);
	put(3, 0, MORE, 3, 40);
	put(4, 4096, 0, 4, 0);		/* empty at the page's very end */
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 4, 4);
	assert_int_equal(p.data[0].size, 60);

	/* and every slot after the first zero-length */
	ring_init(256, 0);
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

static void test_one_byte_slots(void **state)
{
	struct xnb_tx_pkt p;
	u32 i;

	(void)state;
	/* catalogue 9: headers split into 1-byte slots */
	put_pkt(0, 18, 60, 1, 0);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 18, 18);
	assert_int_equal(p.data[0].size, 60 - 17);
	for (i = 1; i < 18; i++)
		assert_int_equal(p.data[i].size, 1);

	/* first slot holds a single byte of the header */
	ring_init(256, 0);
	put_pkt(0, 18, 18, 1, 0);
	assert_int_equal(parse(&p), XNB_TX_OK);
	assert_int_equal(p.data[0].size, 1);

	/* first slot + 18 slots, <= 128 bytes in all: one too many */
	ring_init(256, 0);
	put_pkt(0, 19, 100, 1, 0);
	expect_drop(parse(&p), &p, XNB_R_SLOTS_OVER_MAX, 19);
	ring_init(256, 0);
	put_pkt(0, 19, 128, 6, 0);
	expect_drop(parse(&p), &p, XNB_R_SLOTS_OVER_MAX, 19);
}

/* ---- extras and offloads (catalogue 11-13) ---- */

static void test_extra_no_slot_left(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	/* catalogue 11 */
	put(1, 0, EXTRA, 1, 100);
	expect_fatal(parse(&p), &p, XNB_R_CHAIN_PAST_PROD);

	/* the last extra says more follow, and nothing does */
	ring_init(256, 0);
	put(1, 0, EXTRA, 1, 100);
	put_gso(XEN_NETIF_GSO_TYPE_TCPV4, 1448, true);
	expect_fatal(parse(&p), &p, XNB_R_CHAIN_PAST_PROD);

	/* extras present, the data chain is not */
	ring_init(256, 0);
	put(1, 0, EXTRA | MORE, 1, 100);
	put_gso(XEN_NETIF_GSO_TYPE_TCPV4, 1448, false);
	expect_fatal(parse(&p), &p, XNB_R_CHAIN_PAST_PROD);
}

static void test_extra_bad_type(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	/* catalogue 12 */
	put(1, 0, EXTRA, 1, 100);
	put_extra(0, false, NULL, 0);
	expect_fatal(parse(&p), &p, XNB_R_BAD_EXTRA_TYPE);

	ring_init(256, 0);
	put(1, 0, EXTRA, 1, 100);
	put_extra(XNB_EXTRA_TYPES + 1, false, NULL, 0);
	expect_fatal(parse(&p), &p, XNB_R_BAD_EXTRA_TYPE);

	ring_init(256, 0);
	put(1, 0, EXTRA, 1, 100);
	put_extra(0xff, false, NULL, 0);
	expect_fatal(parse(&p), &p, XNB_R_BAD_EXTRA_TYPE);

	/* a bad one behind a good one */
	ring_init(256, 0);
	put(1, 0, EXTRA, 1, 100);
	put_gso(XEN_NETIF_GSO_TYPE_TCPV4, 1448, true);
	put_extra(0, false, NULL, 0);
	expect_fatal(parse(&p), &p, XNB_R_BAD_EXTRA_TYPE);
}

static void test_extra_known_types(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	/* hash (4) and XDP (5) carry nothing to act on */
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

static void test_extras_eight_ok_nine_fatal(void **state)
{
	struct xnb_tx_pkt p;
	int i;

	(void)state;
	/* catalogue 12: bounded loop */
	put(1, 0, EXTRA, 1, 100);
	for (i = 0; i < 8; i++)
		put_extra(XEN_NETIF_EXTRA_TYPE_HASH, i < 7, NULL, 0);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 9, 1);

	ring_init(256, 0);
	put(1, 0, EXTRA, 1, 100);
	for (i = 0; i < 9; i++)
		put_extra(XEN_NETIF_EXTRA_TYPE_HASH, i < 8, NULL, 0);
	expect_fatal(parse(&p), &p, XNB_R_TOO_MANY_EXTRAS);

	/* an endless chain of "more" extras over a whole ring */
	ring_init(16, 0);
	put(1, 0, EXTRA, 1, 100);
	for (i = 0; i < 15; i++)
		put_extra(XEN_NETIF_EXTRA_TYPE_HASH, true, NULL, 0);
	expect_fatal(parse(&p), &p, XNB_R_TOO_MANY_EXTRAS);
}

static void test_extras_repeated_last_wins(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, EXTRA | MORE, 1, 3000);
	put_gso(XEN_NETIF_GSO_TYPE_TCPV4, 1000, true);
	put_gso(XEN_NETIF_GSO_TYPE_TCPV6, 1440, true);
	put_gso(XEN_NETIF_GSO_TYPE_TCPV4, 1448, false);
	put(2, 0, 0, 2, 1500);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 5, 2);
	assert_int_equal(p.gso_type, XNB_GSO_TCPV4);
	assert_int_equal(p.gso_size, 1448);
}

static void test_gso_bad_fatal(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	/* catalogue 13 */
	put(1, 0, EXTRA, 1, 3000);
	put_gso(XEN_NETIF_GSO_TYPE_TCPV4, 0, false);
	expect_fatal(parse(&p), &p, XNB_R_BAD_GSO);

	ring_init(256, 0);
	put(1, 0, EXTRA, 1, 3000);
	put_gso(XEN_NETIF_GSO_TYPE_NONE, 1448, false);
	expect_fatal(parse(&p), &p, XNB_R_BAD_GSO);

	ring_init(256, 0);
	put(1, 0, EXTRA, 1, 3000);
	put_gso(3, 1448, false);
	expect_fatal(parse(&p), &p, XNB_R_BAD_GSO);

	/* even when the backend offered no GSO at all */
	ring_init(256, 0);
	put(1, 0, EXTRA, 1, 3000);
	put_gso(0xff, 1448, false);
	{
		struct xnb_tx_limits none = { 20, false, false };

		expect_fatal(parse_lim(&none, &p), &p, XNB_R_BAD_GSO);
	}
}

static void gso_case(u8 type, bool v4, bool v6, enum xnb_tx_verdict want)
{
	struct xnb_tx_limits lim = { 20, v4, v6 };
	struct xnb_tx_pkt p;
	enum xnb_tx_verdict v;

	ring_init(256, 0);
	put(1, 0, EXTRA | MORE | XEN_NETTXF_csum_blank, 1, 9000);
	put_gso(type, 1448, false);
	put(2, 0, MORE, 2, 4096);
	put(3, 0, 0, 3, 4000);
	v = parse_lim(&lim, &p);
	assert_int_equal(v, want);
	if (want == XNB_TX_OK) {
		expect_ok(&p, 4, 3);
		assert_int_equal(p.gso_type, type == XEN_NETIF_GSO_TYPE_TCPV4 ?
				 XNB_GSO_TCPV4 : XNB_GSO_TCPV6);
		assert_int_equal(p.gso_size, 1448);
		assert_int_equal(p.flags, XEN_NETTXF_csum_blank);
		assert_int_equal(p.data[0].size, 9000 - 4096 - 4000);
	} else {
		expect_drop(v, &p, XNB_R_GSO_NOT_NEGOTIATED, 4);
	}
}

static void test_gso_negotiation(void **state)
{
	(void)state;
	gso_case(XEN_NETIF_GSO_TYPE_TCPV4, true, true, XNB_TX_OK);
	gso_case(XEN_NETIF_GSO_TYPE_TCPV4, true, false, XNB_TX_OK);
	gso_case(XEN_NETIF_GSO_TYPE_TCPV4, false, true, XNB_TX_DROP);
	gso_case(XEN_NETIF_GSO_TYPE_TCPV4, false, false, XNB_TX_DROP);
	gso_case(XEN_NETIF_GSO_TYPE_TCPV6, true, true, XNB_TX_OK);
	gso_case(XEN_NETIF_GSO_TYPE_TCPV6, false, true, XNB_TX_OK);
	gso_case(XEN_NETIF_GSO_TYPE_TCPV6, true, false, XNB_TX_DROP);
	gso_case(XEN_NETIF_GSO_TYPE_TCPV6, false, false, XNB_TX_DROP);
}

static void test_mcast_extras(void **state)
{
	static const u8 mac[6] = { 1, 0, 0x5e, 0, 0, 1 };
	static const u8 mac2[6] = { 1, 0, 0x5e, 0, 0, 2 };
	struct xnb_tx_pkt p;

	(void)state;
	put(1, 0, EXTRA, 1, 100);
	put_extra(XEN_NETIF_EXTRA_TYPE_MCAST_ADD, false, mac, sizeof(mac));
	expect_drop(parse(&p), &p, XNB_R_MCAST_CTRL, 2);
	assert_int_equal(p.is_extra[1], 1);
	assert_int_equal(p.mcast_op, XEN_NETIF_EXTRA_TYPE_MCAST_ADD);
	assert_memory_equal(p.mcast_addr, mac, 6);

	ring_init(256, 0);
	put(1, 0, EXTRA | MORE, 1, 100);
	put_gso(XEN_NETIF_GSO_TYPE_TCPV4, 1448, true);
	put_extra(XEN_NETIF_EXTRA_TYPE_MCAST_DEL, false, mac, sizeof(mac));
	put(2, 0, 0, 2, 50);
	expect_drop(parse(&p), &p, XNB_R_MCAST_CTRL, 4);
	assert_int_equal(p.mcast_op, XEN_NETIF_EXTRA_TYPE_MCAST_DEL);

	/* A dummy request of size 0 is a request, not a runt; the last
	 * multicast extra of the chain is the one applied.
	 */
	ring_init(256, 0);
	put(1, 0, EXTRA, 1, 0);
	put_extra(XEN_NETIF_EXTRA_TYPE_MCAST_ADD, true, mac, sizeof(mac));
	put_extra(XEN_NETIF_EXTRA_TYPE_MCAST_DEL, false, mac2, sizeof(mac2));
	expect_drop(parse(&p), &p, XNB_R_MCAST_CTRL, 3);
	assert_int_equal(p.mcast_op, XEN_NETIF_EXTRA_TYPE_MCAST_DEL);
	assert_memory_equal(p.mcast_addr, mac2, 6);

	/* No multicast extra: no request. */
	ring_init(256, 0);
	put(1, 0, 0, 1, 100);
	assert_int_equal(parse(&p), XNB_TX_OK);
	assert_int_equal(p.mcast_op, 0);
}

/* ---- double fetch and ids (catalogue 17, 18) ---- */

static void test_double_fetch_rewrite(void **state)
{
	size_t bytes = 16 * ENTRY;
	unsigned char reads[16 * ENTRY];
	struct xnb_tx_pkt a, b;
	enum xnb_tx_verdict va, vb;
	int salt;

	(void)state;
	/*
	 * catalogue 17: the hook plays a guest that rewrites every field
	 * the moment the backend has loaded it.  A second fetch of any
	 * field would see the rewritten value and change the outcome.
	 */
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

static void test_ids_echoed(void **state)
{
	struct xnb_tx_pkt p;

	(void)state;
	/* catalogue 18: duplicate and random ids, never an index */
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

	/* ids of a dropped packet are echoed just the same */
	ring_init(256, 0);
	put(1, 0, MORE, 0x8000, 10);
	put(2, 0, 0, 0x8001, 100);
	expect_drop(parse(&p), &p, XNB_R_SLOT_OVERSIZE, 2);
	assert_int_equal(p.id[0], 0x8000);
	assert_int_equal(p.id[1], 0x8001);
}

/* ---- wrap-around and the driver's loop ---- */

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

	/* a ring of one slot at the very top of the index space */
	ring_init(1, 0xffffffffu);
	put_pkt(0, 1, 60, 0, 3);
	assert_int_equal(parse(&p), XNB_TX_OK);
	expect_ok(&p, 1, 1);
}

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

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		enum xnb_tx_verdict v = parse(&p);

		assert_int_equal(v, want[i].v);
		assert_int_equal(p.nr_slots, want[i].slots);
		R.cons += p.nr_slots;
	}
	assert_int_equal(R.cons, end);
	assert_true(R.cons < 0xfffffff0u);		/* it wrapped */
}

/* ---- requests in flight: responses owed must fit the ring ---- */

static void test_ring_room(void **state)
{
	static const struct {
		u32 cons, rsp, nr, size;
		bool ok;
	} c[] = {
		{ 0, 0, 0, 256, true },
		{ 0, 0, 256, 256, true },		/* a whole ring */
		{ 0, 0, 257, 256, false },
		{ 200, 0, 56, 256, true },		/* exactly full */
		{ 200, 0, 57, 256, false },
		{ 256, 0, 0, 256, true },
		{ 256, 0, 1, 256, false },
		{ 300, 100, 56, 256, true },
		{ 300, 100, 57, 256, false },
		/* indices across the 2^32 wrap */
		{ 10, 0xfffffff0u, 230, 256, true },	/* 26 owed */
		{ 10, 0xfffffff0u, 231, 256, false },
		/* impossible states: more owed than a ring, or negative */
		{ 257, 0, 0, 256, false },
		{ 0, 1, 0, 256, false },
		{ 0x80000000u, 0, 1, 256, false },
		{ 5, 5, 0xffffffffu, 256, false },	/* no wrap in nr */
		{ 1, 0, 1, 1, false },
		{ 0, 0, 1, 1, true },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_int_equal(xnb_ring_room(c[i].cons, c[i].rsp, c[i].nr,
					       c[i].size), c[i].ok);
}

/* ---- event judgement (lateeoi: spurious or work) ---- */

static void test_tx_event_judge(void **state)
{
	static const struct {
		u32 prod, prod_eoi, cons;
		bool held, disabled;
		enum xnb_event want;
	} c[] = {
		{ 5, 5, 5, false, false, XNB_EV_SPURIOUS },	/* nothing new */
		{ 6, 5, 5, false, false, XNB_EV_KICK },	/* new request */
		{ 6, 5, 6, false, false, XNB_EV_KICK },	/* polled already */
		{ 6, 6, 5, false, false, XNB_EV_KICK },	/* unconsumed */
		{ 6, 5, 5, true, false, XNB_EV_OWE },		/* credit timer's */
		{ 6, 5, 6, true, false, XNB_EV_OWE },		/* held, polled */
		{ 5, 5, 5, true, false, XNB_EV_SPURIOUS },	/* held, nothing */
		{ 6, 5, 5, true, true, XNB_EV_SPURIOUS },
		{ 6, 5, 5, false, true, XNB_EV_SPURIOUS },	/* disabled */
		{ 900, 5, 5, false, true, XNB_EV_SPURIOUS },	/* storm after fatal */
		{ 900, 5, 5, false, false, XNB_EV_KICK },	/* overflow: fatal */
		{ 0, 0xffffffffu, 0xffffffffu, false, false, XNB_EV_KICK },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_int_equal(xnb_tx_event_judge(c[i].prod, c[i].prod_eoi,
						    c[i].cons, c[i].held,
						    c[i].disabled), c[i].want);
}

static void test_rx_event_judge(void **state)
{
	static const struct {
		u32 prod, cons;
		bool blocked;
		u32 want;
		bool disabled;
		enum xnb_event ev;
	} c[] = {
		{ 10, 0, false, 1, false, XNB_EV_SPURIOUS },	/* not waiting */
		{ 0, 0, true, 1, false, XNB_EV_SPURIOUS },	/* no buffer */
		{ 1, 0, true, 1, false, XNB_EV_KICK },
		{ 2, 0, true, 3, false, XNB_EV_SPURIOUS },	/* too few */
		{ 3, 0, true, 3, false, XNB_EV_KICK },
		{ 256, 0, true, 19, false, XNB_EV_KICK },	/* full ring */
		/* more than a ring ahead: work, the group disables the vif */
		{ 257, 0, true, 1, false, XNB_EV_KICK },
		{ 0x80000000u, 0, true, 1, false, XNB_EV_KICK },
		/* ... and then every later event is spurious */
		{ 257, 0, true, 1, true, XNB_EV_SPURIOUS },
		{ 5, 0, true, 1, true, XNB_EV_SPURIOUS },
		{ 2, 0xffffffffu, true, 3, false, XNB_EV_KICK },	/* wrap */
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_int_equal(xnb_rx_event_judge(c[i].prod, c[i].cons, 256,
						    c[i].blocked, c[i].want,
						    c[i].disabled), c[i].ev);
}

static void test_event_merge(void **state)
{
	(void)state;
	assert_int_equal(xnb_event_merge(XNB_EV_SPURIOUS, XNB_EV_SPURIOUS),
			 XNB_EV_SPURIOUS);
	assert_int_equal(xnb_event_merge(XNB_EV_KICK, XNB_EV_SPURIOUS),
			 XNB_EV_KICK);
	assert_int_equal(xnb_event_merge(XNB_EV_SPURIOUS, XNB_EV_KICK),
			 XNB_EV_KICK);
	assert_int_equal(xnb_event_merge(XNB_EV_KICK, XNB_EV_KICK),
			 XNB_EV_KICK);
	assert_int_equal(xnb_event_merge(XNB_EV_OWE, XNB_EV_SPURIOUS),
			 XNB_EV_OWE);
	assert_int_equal(xnb_event_merge(XNB_EV_OWE, XNB_EV_KICK),
			 XNB_EV_KICK);
}

/* The EOI hold: none within the grace, then doubling, capped. */
static void test_spurious_hold(void **state)
{
	static const struct {
		unsigned int run, grace, max, hold;
	} c[] = {
		{ 0, 8, 250, 0 },	/* work: no hold */
		{ 8, 8, 250, 0 },	/* last event of the grace */
		{ 9, 8, 250, 1 },	/* first held */
		{ 10, 8, 250, 2 },
		{ 16, 8, 250, 128 },
		{ 17, 8, 250, 250 },	/* 256 capped */
		{ 40, 8, 250, 250 },	/* shift past 31 */
		{ 255, 8, 250, 250 },	/* the saturated counter */
		{ 1, 0, 1000, 1 },
		{ ~0U, 0, 7, 7 },	/* no overflow */
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_int_equal(xnb_spurious_hold(c[i].run, c[i].grace,
						   c[i].max), c[i].hold);
}

/* ---- RX slots and groups ---- */

static void test_rx_slots_needed(void **state)
{
	(void)state;
	assert_int_equal(xnb_rx_slots_needed(0, false, 0), 1);
	assert_int_equal(xnb_rx_slots_needed(1, false, 0), 1);
	assert_int_equal(xnb_rx_slots_needed(4095, false, 0), 1);
	assert_int_equal(xnb_rx_slots_needed(4096, false, 0), 1);
	assert_int_equal(xnb_rx_slots_needed(4097, false, 0), 2);
	assert_int_equal(xnb_rx_slots_needed(65535, false, 0), 16);
	assert_int_equal(xnb_rx_slots_needed(65536, false, 0), 16);
	assert_int_equal(xnb_rx_slots_needed(65537, false, 0), 17);
	assert_int_equal(xnb_rx_slots_needed(0, true, 0), 2);
	assert_int_equal(xnb_rx_slots_needed(4096, true, 0), 2);
	assert_int_equal(xnb_rx_slots_needed(4097, true, 0), 3);
	assert_int_equal(xnb_rx_slots_needed(65536, true, 0), 17);
	/* no wrap near 4 GiB */
	assert_int_equal(xnb_rx_slots_needed(0xfffff000u, false, 0), 0xfffff);
	assert_int_equal(xnb_rx_slots_needed(0xfffff001u, false, 0), 0x100000);
	assert_int_equal(xnb_rx_slots_needed(0xffffffffu, false, 0), 0x100000);
	assert_int_equal(xnb_rx_slots_needed(0xffffffffu, true, 0), 0x100001);
	/* XDP headroom: the first slot carries 4096 - headroom bytes */
	assert_int_equal(xnb_rx_slots_needed(0, false, 256), 1);
	assert_int_equal(xnb_rx_slots_needed(1514, false, 256), 1);
	assert_int_equal(xnb_rx_slots_needed(3840, false, 256), 1);
	assert_int_equal(xnb_rx_slots_needed(3841, false, 256), 2);
	assert_int_equal(xnb_rx_slots_needed(3840 + 4096, false, 256), 2);
	assert_int_equal(xnb_rx_slots_needed(3841 + 4096, true, 256), 4);
	assert_int_equal(xnb_rx_slots_needed(65536, false, 256), 17);
	/* above XNB_RX_HEADROOM_MAX: taken as 2048 */
	assert_int_equal(xnb_rx_slots_needed(2048, false, 0x7fff), 1);
	assert_int_equal(xnb_rx_slots_needed(2049, false, 0xffffffffu), 2);
	assert_int_equal(xnb_rx_slots_needed(0xffffffffu, false, 2048),
			 0x100001);
	assert_int_equal(xnb_rx_slots_needed(0xffffffffu, true, 0xffffffffu),
			 0x100002);
}

static void test_rx_fits(void **state)
{
	static const struct {
		u32 len;
		bool gso, negotiated, sg, ok;
		u32 headroom;
	} c[] = {
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
	unsigned int i;

	(void)state;
	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++)
		assert_int_equal(xnb_rx_fits(c[i].len, c[i].gso,
					     c[i].negotiated, c[i].sg,
					     c[i].headroom),
				 c[i].ok);
}

static void test_pick_group(void **state)
{
	static const u32 ties[] = { 3, 1, 1, 2, 1 };
	static const u32 last[] = { 5, 5, 5, 0 };
	static const u32 equal[] = { 7, 7, 7 };
	static const u32 big[] = { 0xffffffffu, 0xfffffffeu, 0xfffffffeu };
	static const u32 one[] = { 42 };

	(void)state;
	assert_int_equal(xnb_pick_group(ties, 5), 1);
	assert_int_equal(xnb_pick_group(last, 4), 3);
	assert_int_equal(xnb_pick_group(last, 3), 0);
	assert_int_equal(xnb_pick_group(equal, 3), 0);
	assert_int_equal(xnb_pick_group(big, 3), 1);
	assert_int_equal(xnb_pick_group(one, 1), 0);
	assert_int_equal(xnb_pick_group(NULL, 0), 0);
}

/* ---- live rebalancing ---- */

#define BQ(load, group, fixed) { load, group, fixed }

struct bal_case {
	const char *name;
	u32 nr_groups;
	u32 busy[4];
	u32 nr_queues;
	struct xnb_bal_queue q[6];
	bool move;		/* at the second interval alike */
	u32 queue, from, to;
};

static const struct bal_case bal_cases[] = {
	{ "balanced", 2, { 500, 480 }, 2,
	  { BQ(100, 0, false), BQ(100, 1, false) }, false, 0, 0, 0 },
	{ "busy but not saturated", 2, { 390, 0 }, 2,
	  { BQ(100, 0, false), BQ(100, 0, false) }, false, 0, 0, 0 },
	{ "both saturated", 2, { 1000, 760 }, 2,
	  { BQ(100, 0, false), BQ(100, 1, false) }, false, 0, 0, 0 },
	{ "saturated and idle: first of equals", 2, { 1000, 0 }, 4,
	  { BQ(100, 0, false), BQ(100, 0, false), BQ(100, 0, false),
	    BQ(100, 0, false) }, true, 0, 0, 1 },
	{ "over-full busy is clamped", 2, { 5000, 0 }, 2,
	  { BQ(7, 0, false), BQ(7, 0, false) }, true, 0, 0, 1 },
	{ "at the thresholds", 2, { 400, 150 }, 3,
	  { BQ(10, 0, false), BQ(10, 0, false), BQ(10, 0, false) },
	  true, 0, 0, 1 },
	{ "two equal queues: a move only swaps", 2, { 400, 150 }, 2,
	  { BQ(10, 0, false), BQ(10, 0, false) }, false, 0, 0, 0 },
	{ "lone heavy queue stays", 2, { 1000, 0 }, 1,
	  { BQ(500, 0, false) }, false, 0, 0, 0 },
	{ "heavy stays, light goes", 2, { 1000, 100 }, 2,
	  { BQ(800, 0, false), BQ(200, 0, false) }, true, 1, 0, 1 },
	{ "best narrowing, no overshoot", 2, { 1000, 200 }, 3,
	  { BQ(100, 0, false), BQ(300, 0, false), BQ(600, 0, false) },
	  true, 1, 0, 1 },
	{ "small overshoot taken", 2, { 1000, 0 }, 2,
	  { BQ(600, 0, false), BQ(400, 0, false) }, true, 1, 0, 1 },
	{ "pinned excluded", 2, { 1000, 0 }, 3,
	  { BQ(300, 0, true), BQ(300, 0, false), BQ(300, 0, true) },
	  true, 1, 0, 1 },
	{ "all fixed", 2, { 1000, 0 }, 2,
	  { BQ(300, 0, true), BQ(300, 0, true) }, false, 0, 0, 0 },
	{ "unmeasured queue stays", 2, { 1000, 0 }, 2,
	  { BQ(0, 0, false), BQ(0, 0, false) }, false, 0, 0, 0 },
	{ "other groups' queues ignored", 3, { 300, 1000, 0 }, 4,
	  { BQ(900, 0, false), BQ(50, 1, false), BQ(50, 1, false),
	    BQ(50, 2, false) }, true, 1, 1, 2 },
	{ "one group", 1, { 1000 }, 2,
	  { BQ(100, 0, false), BQ(100, 0, false) }, false, 0, 0, 0 },
	{ "huge loads scaled", 2, { 1000, 0 }, 3,
	  { BQ(1ULL << 62, 0, false), BQ(1ULL << 62, 0, false),
	    BQ(1ULL << 62, 0, false) }, true, 0, 0, 1 },
	{ "loads past 2^64 saturate", 2, { 1000, 0 }, 3,
	  { BQ(~0ULL, 0, false), BQ(~0ULL, 0, false), BQ(1, 0, false) },
	  false, 0, 0, 0 },
};

static void test_balance_cases(void **state)
{
	unsigned int c;

	(void)state;
	for (c = 0; c < sizeof(bal_cases) / sizeof(bal_cases[0]); c++) {
		const struct bal_case *t = &bal_cases[c];
		struct xnb_bal_state st = { 0 };
		struct xnb_bal_move mv = { 99, 99, 99 };

		print_message("%s\n", t->name);
		/* Hysteresis: never on the first interval. */
		assert_false(xnb_balance_pick(t->busy, t->nr_groups, t->q,
					      t->nr_queues, &st, &mv));
		assert_int_equal(xnb_balance_pick(t->busy, t->nr_groups, t->q,
						  t->nr_queues, &st, &mv),
				 t->move);
		if (!t->move)
			continue;
		assert_int_equal(mv.queue, t->queue);
		assert_int_equal(mv.from, t->from);
		assert_int_equal(mv.to, t->to);
		/* A move starts the count again. */
		assert_int_equal(st.streak, 0);
		assert_false(xnb_balance_pick(t->busy, t->nr_groups, t->q,
					      t->nr_queues, &st, &mv));
	}
}

static void test_balance_streak(void **state)
{
	static const u32 hot0[] = { 1000, 0, 500 }, hot1[] = { 0, 1000, 500 };
	static const u32 calm[] = { 400, 400, 400 };
	static const struct xnb_bal_queue q[] = {
		BQ(10, 0, false), BQ(10, 0, false), BQ(10, 1, false),
		BQ(10, 1, false),
	};
	struct xnb_bal_state st = { 0 };
	struct xnb_bal_move mv;

	(void)state;
	/* Imbalance, a calm interval, imbalance: never two in a row. */
	assert_false(xnb_balance_pick(hot0, 3, q, 4, &st, &mv));
	assert_false(xnb_balance_pick(calm, 3, q, 4, &st, &mv));
	assert_false(xnb_balance_pick(hot0, 3, q, 4, &st, &mv));
	/* The imbalance turns round: it starts over. */
	assert_false(xnb_balance_pick(hot1, 3, q, 4, &st, &mv));
	assert_true(xnb_balance_pick(hot1, 3, q, 4, &st, &mv));
	assert_int_equal(mv.queue, 2);
	assert_int_equal(mv.from, 1);
	assert_int_equal(mv.to, 0);
	/* Idle groups trading places by noise keep the streak: the move
	 * goes to the idlest of the second interval.
	 */
	st.streak = 0;
	{
		static const u32 j1[] = { 700, 5, 12, 9 }, j2[] = { 700, 11, 4, 9 };
		static const struct xnb_bal_queue eq[] = {
			BQ(10, 0, false), BQ(10, 0, false), BQ(10, 0, false),
			BQ(10, 0, false),
		};

		assert_false(xnb_balance_pick(j1, 4, eq, 4, &st, &mv));
		assert_true(xnb_balance_pick(j2, 4, eq, 4, &st, &mv));
		assert_int_equal(mv.from, 0);
		assert_int_equal(mv.to, 2);
	}
	/* No candidate keeps the streak: a queue measured later goes at once. */
	st.streak = 0;
	{
		struct xnb_bal_queue f[] = { BQ(10, 0, true), BQ(10, 0, false) };

		assert_false(xnb_balance_pick(hot0, 3, f, 2, &st, &mv));
		f[1].load = 0;
		assert_false(xnb_balance_pick(hot0, 3, f, 2, &st, &mv));
		f[1].load = 10;
		assert_true(xnb_balance_pick(hot0, 3, f, 2, &st, &mv));
		assert_int_equal(mv.queue, 1);
	}
	assert_false(xnb_balance_pick(NULL, 0, NULL, 0, &st, &mv));
}

/* ---- credit (catalogue 27) ---- */

static void parse_ok(const char *s, u64 bytes, u64 usec)
{
	u64 b = 1, u = 1;

	assert_true(xnb_credit_parse(s, &b, &u));
	assert_int_equal(b, bytes);
	assert_int_equal(u, usec);
}

static void parse_bad(const char *s)
{
	u64 b = 12345, u = 678;

	assert_false(xnb_credit_parse(s, &b, &u));
	assert_int_equal(b, 12345);	/* untouched */
	assert_int_equal(u, 678);
}

static void test_credit_parse(void **state)
{
	(void)state;
	parse_ok("10000000,50000", 10000000, 50000);
	parse_ok("0,1", 0, 1);
	parse_ok("007,008", 7, 8);
	parse_ok("1,2\n", 1, 2);
	parse_ok("18446744073709551615,4294967295", 0xffffffffffffffffULL,
		 0xffffffffULL);
	parse_ok("1844674407370955161,1", 1844674407370955161ULL, 1);
}

static void test_credit_parse_errors(void **state)
{
	static const char *const bad[] = {
		"", "\n", ",", "1", "1,", ",1", "1,,2", "1,2,3", "a,1",
		"1,b", "1,2x", " 1,2", "1 ,2", "1, 2", "-1,2", "+1,2", "1,-2",
		"0x10,2", "1,2\n\n", "1,2\nx", "1\n,2",
		"18446744073709551616,1",	/* 2^64 */
		"99999999999999999999,1",
		"1,18446744073709551616",
		"1,4294967296",			/* usec past 32 bits */
		"1,0", "0,0", "5,000",		/* zero period */
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		parse_bad(bad[i]);
}

static void test_credit_basic(void **state)
{
	struct xnb_credit c;
	u64 wait = 0;

	(void)state;
	xnb_credit_set(&c, 10000, 1000, 5000);
	assert_int_equal(c.next_refill, 6000);
	assert_true(xnb_credit_take(&c, 6000, 5000, &wait));
	assert_true(xnb_credit_take(&c, 4000, 5100, &wait));
	assert_int_equal(c.balance, 0);
	/* no credit left: wait for the period's end */
	assert_false(xnb_credit_take(&c, 1, 5100, &wait));
	assert_int_equal(wait, 900);
	assert_false(xnb_credit_take(&c, 1, 5999, &wait));
	assert_int_equal(wait, 1);
	/* the refill comes exactly on time */
	assert_true(xnb_credit_take(&c, 1, 6000, &wait));
	assert_int_equal(c.balance, 9999);
	assert_int_equal(c.next_refill, 7000);
	/* some credit left: a bigger packet goes and leaves a debt ... */
	assert_true(xnb_credit_take(&c, 10000, 6001, &wait));
	assert_int_equal(c.balance, -1);
	/* ... that the next refill pays back */
	assert_false(xnb_credit_take(&c, 1, 6500, &wait));
	assert_int_equal(wait, 500);
	assert_true(xnb_credit_take(&c, 1, 7000, &wait));
	assert_int_equal(c.balance, 9998);
	/* idle periods pile up credit to the burst allowance, no more */
	assert_true(xnb_credit_take(&c, 1, 50000, &wait));
	assert_int_equal(c.balance, XNB_CREDIT_BURST - 1);
	assert_int_equal(c.next_refill, 51000);
}

static void test_credit_unlimited(void **state)
{
	struct xnb_credit c;
	u64 wait = 77;

	(void)state;
	xnb_credit_set(&c, 0, 1000, 0);
	assert_true(xnb_credit_take(&c, 0xffffffffu, 0, &wait));
	assert_true(xnb_credit_take(&c, 0xffffffffu, 0, &wait));
	assert_int_equal(wait, 77);
}

static void test_credit_larger_than_period(void **state)
{
	struct xnb_credit c;
	u64 wait = 0;
	u64 t;

	(void)state;
	xnb_credit_set(&c, 1000, 100, 0);
	/* a giant goes on any credit, and costs its size in time */
	assert_true(xnb_credit_take(&c, 65535, 0, &wait));
	assert_int_equal(c.balance, 1000 - 65535);
	assert_false(xnb_credit_take(&c, 1, 10, &wait));
	/* debt 64535: 65 refills (the first at 100) make it positive */
	assert_int_equal(wait, 90 + 64 * 100);
	assert_false(xnb_credit_take(&c, 1, 6499, &wait));
	assert_int_equal(wait, 1);
	assert_true(xnb_credit_take(&c, 1, 6500, &wait));
	assert_int_equal(c.balance, 464);
	/* long run: 100 giants cost 100 * 65535 bytes of credit in time */
	xnb_credit_set(&c, 1000, 100, 0);
	t = 0;
	for (int i = 0; i < 100; i++) {
		while (!xnb_credit_take(&c, 65535, t, &wait))
			t += wait;
	}
	/* the 100th goes once 99 * 65535 - 1000 bytes have been refilled */
	assert_in_range(t, 648700, 648700);
}

/* 1 byte per 71 minutes and a 4 GB debt: a wait of about 2^63.9 us
 * would read as the past to the wrap-safe clock; it saturates instead.
 */
static void test_credit_absurd_wait(void **state)
{
	struct xnb_credit c;
	u64 wait = 0;

	(void)state;
	xnb_credit_set(&c, 1, 0xffffffffULL, 0);
	assert_true(xnb_credit_take(&c, 0xffffffffu, 0, &wait));
	assert_false(xnb_credit_take(&c, 1, 1, &wait));
	assert_int_equal(wait, ~0ULL);
	/* a debt the cap allows: an exact wait, after which it goes */
	xnb_credit_set(&c, 1000, 1000, 0);
	assert_true(xnb_credit_take(&c, 0xffffffffu, 0, &wait));
	assert_false(xnb_credit_take(&c, 1, 0, &wait));
	assert_true(wait <= XNB_CREDIT_WAIT_MAX);
	assert_true(xnb_credit_take(&c, 1, wait, &wait));
}

static void test_credit_clock_wrap(void **state)
{
	const u64 top = 0xffffffffffffffffULL;
	struct xnb_credit c;
	u64 wait = 0;

	(void)state;
	xnb_credit_set(&c, 1000, 100, top - 9);		/* refill at 90 */
	assert_int_equal(c.next_refill, 90);
	assert_true(xnb_credit_take(&c, 1000, top - 9, &wait));
	/* the clock has not reached the wrapped refill time yet */
	assert_false(xnb_credit_take(&c, 1, top - 4, &wait));
	assert_int_equal(wait, 95);
	assert_false(xnb_credit_take(&c, 1, top, &wait));
	assert_int_equal(wait, 91);
	assert_false(xnb_credit_take(&c, 1, 89, &wait));
	assert_int_equal(wait, 1);
	/* the clock wrapped past it */
	assert_true(xnb_credit_take(&c, 1, 90, &wait));
	assert_int_equal(c.balance, 999);
	assert_int_equal(c.next_refill, 190);

	/* huge periods, time far apart */
	xnb_credit_set(&c, 0xffffffffffffffffULL, 0xffffffffULL, top);
	assert_true(xnb_credit_take(&c, 0xffffffffu, top, &wait));
	/* clamped to XNB_CREDIT_MAX, a limit nobody reaches */
	assert_int_equal(c.bytes, XNB_CREDIT_MAX);
	assert_int_equal(c.balance, XNB_CREDIT_MAX - 0xffffffffULL);
}

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

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_ring_unconsumed),
		T(test_ring_unconsumed_wrap),
		T(test_ring_sane),
		T(test_avail_over_ring_fatal),
		T(test_single_slot_ok),
		T(test_chain_past_prod_fatal),
		T(test_data_slots_17_18_ok),
		T(test_data_slots_19_20_drop),
		T(test_fatal_at_20_further),
		T(test_fatal_slots_changed),
		T(test_fatal_slots_capped),
		T(test_max_slots_with_extras),
		T(test_runt_drop),
		T(test_cross_page_fatal),
		T(test_slot_oversize_drop),
		T(test_zero_length_slots),
		T(test_one_byte_slots),
		T(test_extra_no_slot_left),
		T(test_extra_bad_type),
		T(test_extra_known_types),
		T(test_extras_eight_ok_nine_fatal),
		T(test_extras_repeated_last_wins),
		T(test_gso_bad_fatal),
		T(test_gso_negotiation),
		T(test_mcast_extras),
		T(test_double_fetch_rewrite),
		T(test_ids_echoed),
		T(test_chain_across_index_wrap),
		T(test_driver_loop_wrap),
		T(test_ring_room),
		T(test_tx_event_judge),
		T(test_rx_event_judge),
		T(test_event_merge),
		T(test_spurious_hold),
		T(test_rx_slots_needed),
		T(test_rx_fits),
		T(test_pick_group),
		T(test_balance_cases),
		T(test_balance_streak),
		T(test_credit_parse),
		T(test_credit_parse_errors),
		T(test_credit_basic),
		T(test_credit_unlimited),
		T(test_credit_larger_than_period),
		T(test_credit_clock_wrap),
		T(test_credit_absurd_wait),
		T(test_reason_strings),
	};

	return cmocka_run_group_tests_name("xnb_proto", tests, NULL, NULL);
}
