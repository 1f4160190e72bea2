// SPDX-License-Identifier: GPL-2.0
/* The guest TX ring of the xnb_tx_parse() tests: see tx_fixture.h. */
#include "tx_fixture.h"

struct tx_ring R;
const struct xnb_tx_limits LIM = { 20, true, true, XNB_GSO_MAX_SEGS };

void ring_init(u32 size, u32 cons)
{
	free(R.e);
	R.e = calloc(size, ENTRY);
	assert_non_null(R.e);
	R.size = size;
	R.cons = cons;
	R.prod = cons;
}

void ring_case(const char *name)
{
	print_message("case: %s\n", name);
	ring_init(256, 0);
}

int ring_setup(void **state)
{
	(void)state;
	memset(&R, 0, sizeof(R));
	ring_init(256, 0);
	return 0;
}

int ring_teardown(void **state)
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

void put(u32 gref, u16 offset, u16 flags, u16 id, u16 size)
{
	struct xen_netif_tx_request *q = &next_slot()->req;

	q->gref = gref;
	q->offset = offset;
	q->flags = flags;
	q->id = id;
	q->size = size;
}

void put_extra(u8 type, bool more, const void *u, size_t ulen)
{
	struct xen_netif_extra_info x;

	memset(&x, 0, sizeof(x));
	x.type = type;
	x.flags = more ? XEN_NETIF_EXTRA_FLAG_MORE : 0;
	if (u)
		memcpy(&x.u, u, ulen);
	memcpy(next_slot(), &x, sizeof(x));
}

void put_gso(u8 type, u16 size, bool more)
{
	struct xen_netif_extra_info x;

	memset(&x, 0, sizeof(x));
	x.u.gso.type = type;
	x.u.gso.size = size;
	put_extra(XEN_NETIF_EXTRA_TYPE_GSO, more, &x.u, sizeof(x.u.gso));
}

void put_pkt(u16 first_flags, u32 nr, u16 total, u16 each, u16 id)
{
	u32 i;

	put(1000, 0, first_flags | (nr > 1 ? MORE : 0), id, total);
	for (i = 1; i < nr; i++)
		put(1000 + i, 128, i + 1 < nr ? MORE : 0, id + i, each);
}

void put_rest(u32 nr, u16 each, u16 id)
{
	u32 i;

	for (i = 1; i < nr; i++)
		put(2000 + i, 0, i + 1 < nr ? MORE : 0, id + i, each);
}

enum xnb_tx_verdict parse_n(u32 avail, const struct xnb_tx_limits *lim,
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

enum xnb_tx_verdict parse_lim(const struct xnb_tx_limits *lim,
			      struct xnb_tx_pkt *p)
{
	int n = xnb_ring_unconsumed(R.prod, R.cons, R.size);

	assert_true(n >= 0);
	return parse_n((u32)n, lim, p);
}

enum xnb_tx_verdict parse(struct xnb_tx_pkt *p)
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

void expect_ok(struct xnb_tx_pkt *p, u32 nr_slots, u32 nr_data)
{
	assert_int_equal(p->reason, XNB_R_NONE);
	assert_int_equal(p->nr_slots, nr_slots);
	assert_int_equal(p->nr_data, nr_data);
	assert_int_equal(data_sum(p), p->len);
}

void expect_drop(enum xnb_tx_verdict v, struct xnb_tx_pkt *p,
		 enum xnb_tx_reason why, u32 nr_slots)
{
	assert_int_equal(v, XNB_TX_DROP);
	assert_int_equal(p->reason, why);
	assert_int_equal(p->nr_slots, nr_slots);
	assert_int_equal(p->nr_data, 0);
}

void expect_fatal(enum xnb_tx_verdict v, struct xnb_tx_pkt *p,
		  enum xnb_tx_reason why)
{
	assert_int_equal(v, XNB_TX_FATAL);
	assert_int_equal(p->reason, why);
	assert_int_equal(p->nr_slots, 0);
}

void expect_verdict(enum xnb_tx_verdict v, struct xnb_tx_pkt *p,
		    enum xnb_tx_verdict want, enum xnb_tx_reason why,
		    u32 nr_slots)
{
	switch (want) {
	case XNB_TX_OK:
		assert_int_equal(v, XNB_TX_OK);
		expect_ok(p, nr_slots, nr_slots);
		break;
	case XNB_TX_DROP:
		expect_drop(v, p, why, nr_slots);
		break;
	default:
		expect_fatal(v, p, why);
	}
}

void run_chain_cases(const struct chain_case *c, size_t n)
{
	struct xnb_tx_limits lim = LIM;
	struct xnb_tx_pkt p;
	size_t i;

	for (i = 0; i < n; i++) {
		ring_case(c[i].name);
		lim.fatal_slots = c[i].fatal_slots;
		put_pkt(0, c[i].nr, c[i].total, c[i].each, 0);
		expect_verdict(parse_lim(&lim, &p), &p, c[i].want, c[i].why,
			       c[i].nr);
	}
}

void run_slots_cases(const struct slots_case *c, size_t n)
{
	struct xnb_tx_pkt p;
	size_t i;
	u32 k;

	for (i = 0; i < n; i++) {
		ring_case(c[i].name);
		for (k = 0; k < c[i].n; k++)
			put(c[i].s[k].gref, c[i].s[k].offset, c[i].s[k].flags,
			    c[i].s[k].id, c[i].s[k].size);
		expect_verdict(parse(&p), &p, c[i].want, c[i].why, c[i].n);
		if (c[i].want == XNB_TX_OK)
			assert_int_equal(p.data[0].size, c[i].first);
	}
}
