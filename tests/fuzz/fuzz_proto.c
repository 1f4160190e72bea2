// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target over the netback protocol core (proto.c, built from
 * the tree with tests/common/xnb_read_hook.h forced in).
 *
 * Input layout (little endian, missing bytes read as zero):
 *   [0]      ring order: ring_size = 1 << (b % 9), 1..256
 *   [1..4]   cons (u32, so indices near 2^32 wrap)
 *   [5]      avail = b % (ring_size + 2): may exceed the ring by one
 *   [6]      fatal_slots = b % 81 (the core caps it at 64)
 *   [7]      bit 0 gso_tcpv4, bit 1 gso_tcpv6, bits 2..4 pick
 *            gso_max_segs (gso_max_segs_pick), all: scribble salt
 *   [8..]    ring_size * 12 bytes of ring entries
 *   then     credit part: [start time u64][bytes u64][usec u32]
 *            and 12-byte ops
 *            (time step u32, packet length u32, extra u32).
 *   last 18  also event and in-flight indices (fuzz_events)
 *
 * The walk runs the way the driver will: consume nr_slots on OK and DROP,
 * stop on FATAL or when nothing is left.  Each verdict is checked against
 * the documented semantics (a small independent model below), the same
 * ring parsed twice must give the same answer, and a third parse with a
 * guest rewriting every field right after the backend read it must give
 * that answer too (each slot field is read once).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <xen/xnb_proto.h>
#include "../common/xnb_read_hook.h"
#include "../common/fuzz_check.h"

#define ENTRY_SIZE sizeof(union xen_netif_tx_sring_entry)

struct input {
	const uint8_t *d;
	size_t len, pos;
};

static uint8_t in_u8(struct input *in)
{
	return in->pos < in->len ? in->d[in->pos++] : 0;
}

static uint32_t in_u32(struct input *in)
{
	uint32_t v = 0;
	int i;

	for (i = 0; i < 4; i++)
		v |= (uint32_t)in_u8(in) << (8 * i);
	return v;
}

static uint64_t in_u64(struct input *in)
{
	uint64_t lo = in_u32(in);

	return lo | (uint64_t)in_u32(in) << 32;
}

/* One slot as a plain request, read straight from our pristine copy. */
static struct xen_netif_tx_request slot(const uint8_t *ring, uint32_t size,
					uint32_t idx)
{
	struct xen_netif_tx_request r;

	memcpy(&r, ring + (size_t)(idx & (size - 1)) * ENTRY_SIZE, sizeof(r));
	return r;
}

struct model {
	enum xnb_tx_verdict v;
	unsigned int reason;
	uint32_t nr_slots, nr_extras;
};

static struct model model_fatal(unsigned int why)
{
	struct model m = { XNB_TX_FATAL, why, 0, 0 };

	return m;
}

/*
 * The semantics from the header, written again without looking at
 * proto.c's control flow.
 */
static struct model model_walk(const uint8_t *ring, uint32_t size,
			       uint32_t cons, uint32_t avail,
			       const struct xnb_tx_limits *lim)
{
	struct xen_netif_tx_request r = slot(ring, size, cons);
	struct model m = { XNB_TX_OK, XNB_R_NONE, 0, 0 };
	uint32_t fatal = lim->fatal_slots > 64 ? 64 : lim->fatal_slots;
	uint32_t n = 1, further = 0, remaining, drop = XNB_R_NONE;
	uint16_t flags;
	int mcast = 0, gso = 0;

	if (avail > size)
		return model_fatal(XNB_R_RING_OVERFLOW);
	if (!avail)
		return model_fatal(XNB_R_CHAIN_PAST_PROD);
	flags = r.flags;
	remaining = r.size;
	if (flags & XEN_NETTXF_extra_info) {
		struct xen_netif_extra_info e;

		do {
			struct xen_netif_tx_request x;

			if (n == avail)
				return model_fatal(XNB_R_CHAIN_PAST_PROD);
			if (m.nr_extras == 8)
				return model_fatal(XNB_R_TOO_MANY_EXTRAS);
			x = slot(ring, size, cons + n++);
			memcpy(&e, &x, sizeof(e));
			m.nr_extras++;
			if (e.type < 1 || e.type > 5)
				return model_fatal(XNB_R_BAD_EXTRA_TYPE);
			if (e.type == 1) {
				/* Sizes 1..65481 (65535 - 14 - 20 - 20). */
				if (e.u.gso.size < 1 || e.u.gso.size > 65481 ||
				    (e.u.gso.type != 1 && e.u.gso.type != 2))
					return model_fatal(XNB_R_BAD_GSO);
				gso = e.u.gso.type;
			}
			if (e.type == 2 || e.type == 3)
				mcast = 1;
		} while (e.flags & 1);
	}
	while (flags & XEN_NETTXF_more_data) {
		if (n == avail)
			return model_fatal(XNB_R_CHAIN_PAST_PROD);
		if (further + 1 >= fatal)
			return model_fatal(XNB_R_TOO_MANY_SLOTS);
		r = slot(ring, size, cons + n++);
		further++;
		flags = r.flags;
		if (r.offset + r.size > 4096)
			return model_fatal(XNB_R_CROSS_PAGE);
		if (drop)
			continue;
		if (further + 1 > 18)
			drop = XNB_R_SLOTS_OVER_MAX;
		else if (r.size > remaining)
			drop = XNB_R_SLOT_OVERSIZE;
		else
			remaining -= r.size;
	}
	m.nr_slots = n;
	r = slot(ring, size, cons);
	if (!drop && r.offset + remaining > 4096)
		return model_fatal(XNB_R_CROSS_PAGE);
	if (!drop && mcast)
		drop = XNB_R_MCAST_CTRL;
	if (!drop && r.size < 14)
		drop = XNB_R_RUNT;
	if (!drop && ((gso == 1 && !lim->gso_tcpv4) ||
		      (gso == 2 && !lim->gso_tcpv6)))
		drop = XNB_R_GSO_NOT_NEGOTIATED;
	if (drop) {
		m.v = XNB_TX_DROP;
		m.reason = drop;
	}
	return m;
}

static void check_pkt(const uint8_t *ring, uint32_t size, uint32_t cons,
		      uint32_t avail, const struct xnb_tx_limits *lim,
		      enum xnb_tx_verdict v, const struct xnb_tx_pkt *p)
{
	struct model m = model_walk(ring, size, cons, avail, lim);
	uint32_t i, sum = 0, extras = 0, charge, base;

	CHECK(v == m.v);
	CHECK(p->reason == m.reason);
	CHECK(p->nr_slots == m.nr_slots);
	CHECK(strcmp(xnb_tx_reason_str(p->reason), "unknown") != 0);

	if (v == XNB_TX_FATAL) {
		CHECK(p->nr_slots == 0);
		CHECK(p->reason >= XNB_R_RING_OVERFLOW &&
		      p->reason <= XNB_R_CROSS_PAGE);
		return;
	}
	CHECK(p->nr_slots >= 1 && p->nr_slots <= avail);
	CHECK(p->nr_slots <= XNB_TX_MAX_SLOTS);
	/* Extras sit right after the first slot and nowhere else. */
	CHECK(!p->is_extra[0]);
	for (i = 1; i < p->nr_slots; i++) {
		if (p->is_extra[i]) {
			CHECK(i == extras + 1);
			extras++;
		}
	}
	CHECK(extras == m.nr_extras);
	/* Ids are echoed from the ring, never interpreted. */
	for (i = 0; i < p->nr_slots; i++)
		if (!p->is_extra[i])
			CHECK(p->id[i] == slot(ring, size, cons + i).id);

	if (v == XNB_TX_DROP) {
		CHECK(p->reason >= XNB_R_SLOTS_OVER_MAX &&
		      p->reason < XNB_R_COUNT);
		return;
	}
	CHECK(p->reason == XNB_R_NONE);
	CHECK(p->nr_data >= 1 && p->nr_data <= XNB_TX_MAX_DATA);
	CHECK(p->nr_data + extras == p->nr_slots);
	CHECK(p->len >= XNB_ETH_HLEN);
	CHECK(p->len == slot(ring, size, cons).size);
	for (i = 0; i < p->nr_data; i++) {
		CHECK(p->data[i].offset + (uint32_t)p->data[i].size <=
		      XNB_PAGE_SIZE);
		sum += p->data[i].size;
	}
	CHECK(sum == p->len);
	CHECK(!(p->flags & XNB_TXF_MCAST));
	CHECK(p->gso_type <= XNB_GSO_TCPV6);
	CHECK(p->gso_type != XNB_GSO_TCPV4 || lim->gso_tcpv4);
	CHECK(p->gso_type != XNB_GSO_TCPV6 || lim->gso_tcpv6);
	CHECK((p->gso_type == XNB_GSO_NONE) == (p->gso_size == 0));
	CHECK(p->gso_type == XNB_GSO_NONE ||
	      (p->gso_size >= XNB_GSO_MIN_SIZE &&
	       p->gso_size <= XNB_GSO_MAX_SIZE));
	/* The charge: the slots and XNB_TX_PKT_SLOTS at least, a slot per
	 * 8 segments at most, and no more segments than one over the
	 * vif's limit.
	 */
	charge = xnb_tx_charge(p, lim);
	base = p->nr_slots > XNB_TX_PKT_SLOTS ? p->nr_slots : XNB_TX_PKT_SLOTS;
	CHECK(charge >= base);
	CHECK(p->gso_type != XNB_GSO_NONE || charge == base);
	CHECK(charge == base ||
	      (charge - 1) * XNB_GSO_SEGS_PER_SLOT * p->gso_size < p->len);
	CHECK(charge == base ||
	      (u64)(charge - 1) * XNB_GSO_SEGS_PER_SLOT <= lim->gso_max_segs);
	CHECK(charge <= 0x10000 / XNB_GSO_MIN_SIZE / XNB_GSO_SEGS_PER_SLOT);
}

/* The vif's gso_max_segs: the default, the kernel's most, or an admin's. */
static const uint32_t gso_max_segs_pick[8] = {
	XNB_GSO_MAX_SEGS, XNB_GSO_MAX_SEGS, 65535, 0, 1, 8, 64, 1000,
};

/* One parse with the hook watching: each ring byte read at most once. */
static enum xnb_tx_verdict parse_watched(uint8_t *ring, uint32_t size,
					 uint32_t cons, uint32_t avail,
					 const struct xnb_tx_limits *lim,
					 struct xnb_tx_pkt *p,
					 unsigned int *stamp, int scribble,
					 uint8_t salt)
{
	enum xnb_tx_verdict v;

	memset(p, 0x5a, sizeof(*p));
	xnb_hook_watch_stamped(ring, (size_t)size * ENTRY_SIZE, stamp,
			       scribble, salt);
	v = xnb_tx_parse((const union xen_netif_tx_sring_entry *)ring, size,
			 cons, avail, lim, p);
	CHECK(xnb_hook.outside == 0);
	CHECK(xnb_hook.twice == 0);
	xnb_hook_off();
	return v;
}

static void fuzz_ring(struct input *in)
{
	uint32_t size = 1u << (in_u8(in) % 9);
	uint32_t cons = in_u32(in);
	uint32_t avail = in_u8(in) % (size + 2);
	struct xnb_tx_limits lim;
	uint8_t gso_salt, *ring, *twin;
	unsigned int *stamp;
	size_t bytes = (size_t)size * ENTRY_SIZE, i;
	struct xnb_tx_pkt *p, *q;
	uint32_t left, c, iter = 0;
	int un;

	lim.fatal_slots = in_u8(in) % 81;
	gso_salt = in_u8(in);
	lim.gso_tcpv4 = gso_salt & 1;
	lim.gso_tcpv6 = gso_salt & 2;
	lim.gso_max_segs = gso_max_segs_pick[(gso_salt >> 2) & 7];

	/* Exactly sized, so ASan flags any read past the ring. */
	ring = malloc(bytes);
	twin = malloc(bytes);
	stamp = calloc(bytes, sizeof(*stamp));
	p = malloc(sizeof(*p));
	q = malloc(sizeof(*q));
	CHECK(ring && twin && stamp && p && q);
	for (i = 0; i < bytes; i++)
		ring[i] = in_u8(in);

	un = xnb_ring_unconsumed(cons + avail, cons, size);
	CHECK(avail > size ? un == -1 : un == (int)avail);
	CHECK(xnb_ring_sane(cons + avail, cons, size) == (avail <= size));

	if (avail == 0) {
		CHECK(parse_watched(ring, size, cons, 0, &lim, p, stamp, 0, 0)
		      == XNB_TX_FATAL);
		CHECK(p->nr_slots == 0);
	}

	c = cons;
	left = avail;
	while (left > 0) {
		enum xnb_tx_verdict v, w, s;

		/* Every step consumes a slot, so at most avail steps. */
		CHECK(++iter <= avail);
		v = parse_watched(ring, size, c, left, &lim, p, stamp, 0, 0);
		check_pkt(ring, size, c, left, &lim, v, p);

		w = parse_watched(ring, size, c, left, &lim, q, stamp, 0, 0);
		CHECK(w == v && !memcmp(p, q, sizeof(*p)));

		/* A guest rewriting each field once it was read. */
		memcpy(twin, ring, bytes);
		s = parse_watched(twin, size, c, left, &lim, q, stamp, 1,
				  gso_salt);
		CHECK(s == v && !memcmp(p, q, sizeof(*p)));

		if (v == XNB_TX_FATAL)
			break;
		c += p->nr_slots;
		left -= p->nr_slots;
	}
	free(q);
	free(p);
	free(stamp);
	free(twin);
	free(ring);
}

static void fuzz_credit(struct input *in)
{
	u64 now = in_u64(in), bytes, usec;
	struct xnb_credit cr;
	int ops = 0;

	bytes = in_u64(in);
	usec = in_u32(in);
	if (!usec)
		usec = 1;	/* xenbus.c refuses a zero period */
	xnb_credit_set(&cr, bytes, usec, now);

	while (in->pos < in->len && ops++ < 4096) {
		uint32_t step = in_u32(in), len = in_u32(in);
		u64 wait = 0xdeadbeef, debt;
		s64 before = cr.balance;
		struct xnb_credit again;

		(void)in_u32(in);
		now += step;	/* monotonic, wraps past 2^64 */
		if (xnb_credit_take(&cr, len, now, &wait)) {
			/* Goes only on credit; a debt is at most one packet. */
			CHECK(cr.bytes == 0 ||
			      cr.balance <= (s64)cr.bytes ||
			      cr.balance <= (s64)XNB_CREDIT_BURST);
			CHECK(cr.bytes == 0 || cr.balance >= -(s64)len);
			continue;
		}
		CHECK(cr.bytes != 0);
		CHECK(cr.balance <= 0);
		CHECK(cr.balance >= before || before > 0);
		/* Bounded wait (enough refills to pay the debt), and after
		 * it the packet goes.
		 */
		debt = (u64)-cr.balance;
		CHECK(wait >= 1);
		if (wait == ~0ULL) {
			/* Saturated: only when the true wait passes the cap. */
			CHECK(debt / cr.bytes >=
			      (XNB_CREDIT_WAIT_MAX - usec) / usec);
			continue;
		}
		CHECK(wait <= XNB_CREDIT_WAIT_MAX);
		CHECK(wait <= (debt / cr.bytes + 1) * (u64)usec);
		again = cr;
		CHECK(xnb_credit_take(&again, len, now + wait, &wait));
	}
}

static void fuzz_groups(struct input *in)
{
	uint32_t load[16];
	unsigned int n = in_u8(in) % 17, i, best;

	for (i = 0; i < n; i++)
		load[i] = in_u8(in) % 4;
	best = xnb_pick_group(load, sizeof(*load), n);
	if (!n) {
		CHECK(best == 0);
		return;
	}
	CHECK(best < n);
	for (i = 0; i < n; i++)
		CHECK(load[i] > load[best] || (load[i] == load[best] &&
					       i >= best));
}

static void fuzz_rx(uint32_t len, uint32_t hr)
{
	uint32_t h = hr > 2048 ? 2048 : hr;
	uint64_t pages = ((uint64_t)len + h + 4095) / 4096;

	if (!pages)
		pages = 1;
	CHECK(xnb_rx_slots_needed(len, false, hr) == pages);
	CHECK(xnb_rx_slots_needed(len, true, hr) == pages + 1);
	CHECK(xnb_rx_fits(len, false, false, true, hr) == (pages <= 18));
	CHECK(xnb_rx_fits(len, false, true, false, hr) == (pages == 1));
	CHECK(xnb_rx_fits(len, true, true, true, hr) == (pages <= 18));
	CHECK(!xnb_rx_fits(len, true, false, true, hr));
	CHECK(!xnb_rx_fits(len, true, true, false, hr));
}

/* Event judgement and ring bookkeeping on arbitrary indices, read from
 * the input's last 18 bytes (the credit part runs to the end, so they
 * overlap it, as the RX length overlaps everything).
 */
static void fuzz_events(struct input *in)
{
	uint32_t size = 1u << (in_u8(in) % 9);
	uint32_t prod = in_u32(in), cons = in_u32(in), eoi = in_u32(in);
	uint8_t f = in_u8(in);
	uint32_t want = in_u8(in) % 20;
	bool held = f & 1, dis = f & 2, blocked = f & 4;
	uint32_t gap = prod - cons;
	enum xnb_event tx, rx;

	tx = xnb_tx_event_judge(prod, eoi, cons, held, dis);
	if (dis || (prod == eoi && prod == cons))
		CHECK(tx == XNB_EV_SPURIOUS);
	else
		CHECK(tx == (held ? XNB_EV_OWE : XNB_EV_KICK));

	rx = xnb_rx_event_judge(prod, cons, size, blocked, want, dis);
	if (dis || !blocked)
		CHECK(rx == XNB_EV_SPURIOUS);
	else
		CHECK((rx == XNB_EV_KICK) == (gap > size || gap >= want));
	/* Responses owed: eoi stands in for rsp_prod_pvt, want for nr. */
	CHECK(xnb_ring_room(cons, eoi, want, size) ==
	      ((uint64_t)(uint32_t)(cons - eoi) + want <= size));
	CHECK(xnb_event_merge(tx, rx) ==
	      (tx == XNB_EV_KICK || rx == XNB_EV_KICK ? XNB_EV_KICK :
	       tx == XNB_EV_OWE ? XNB_EV_OWE : XNB_EV_SPURIOUS));
}

/* Rebalancing: whatever the measurements, a move names a movable queue
 * of the busiest group, only when the imbalance lasted, and only once.
 */
static void fuzz_balance(struct input *in)
{
	struct xnb_bal_queue q[16];
	struct xnb_bal_state st = { 0 };
	struct xnb_bal_move mv;
	uint32_t busy[8];
	unsigned int n = in_u8(in) % 9, nq = in_u8(in) % 17, i, r;

	for (i = 0; i < n; i++)
		busy[i] = in_u32(in) % 1200;
	for (i = 0; i < nq; i++) {
		uint8_t f = in_u8(in);

		q[i].load = f & 0x80 ? in_u64(in) : in_u8(in);
		q[i].group = f & 0x40 ? in_u32(in) : (f & 0xf) % 9;
		q[i].fixed = f & 0x20;
	}
	for (r = 0; r < 3; r++) {
		uint32_t b, l;

		if (!xnb_balance_pick(busy, n, q, nq, &st, &mv))
			continue;
		CHECK(r >= XNB_BAL_STREAK - 1);
		CHECK(n >= 2 && mv.queue < nq && mv.from < n && mv.to < n);
		CHECK(mv.from != mv.to && st.streak == 0);
		CHECK(q[mv.queue].group == mv.from && !q[mv.queue].fixed &&
		      q[mv.queue].load);
		b = busy[mv.from] < XNB_BAL_SCALE ? busy[mv.from] : XNB_BAL_SCALE;
		l = busy[mv.to] < XNB_BAL_SCALE ? busy[mv.to] : XNB_BAL_SCALE;
		CHECK(b >= XNB_BAL_HIGH && b - l >= XNB_BAL_GAP);
		for (i = 0; i < n; i++)
			CHECK(busy[i] <= busy[mv.from] && busy[i] >= busy[mv.to]);
		/* The next interval starts the count again. */
		CHECK(!xnb_balance_pick(busy, n, q, nq, &st, &mv));
		break;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size, 0 };
	struct input tail = { data + (size > 18 ? size - 18 : 0),
			      size > 18 ? 18 : size, 0 };
	uint32_t rxlen = 0;
	uint16_t hr = 0;

	if (size >= 4)
		memcpy(&rxlen, data + size - 4, 4);
	if (size >= 6)
		memcpy(&hr, data + size - 6, 2);
	fuzz_rx(rxlen, hr);
	fuzz_ring(&in);
	fuzz_groups(&in);
	fuzz_credit(&in);
	fuzz_balance(&in);
	fuzz_events(&tail);
	return 0;
}
