// SPDX-License-Identifier: GPL-2.0
/*
 * Pure protocol logic, shared with the userspace tests: see xnb_proto.h.
 * No kernel state, no allocation, every loop bounded by a constant.
 */
#include <linux/compiler.h>
#include <linux/math64.h>
#include <linux/string.h>

#include <xen/xnb_proto.h>

int xnb_ring_unconsumed(u32 prod, u32 cons, u32 ring_size)
{
	u32 n = prod - cons;	/* unsigned: wraps like the ring indices */

	return n > ring_size ? -1 : (int)n;
}

bool xnb_ring_sane(u32 req_prod, u32 rsp_prod, u32 ring_size)
{
	return req_prod - rsp_prod <= ring_size;
}

bool xnb_ring_room(u32 req_cons, u32 rsp_prod_pvt, u32 nr, u32 ring_size)
{
	u32 owed = req_cons - rsp_prod_pvt;	/* wraps like the indices */

	return owed <= ring_size && nr <= ring_size - owed;
}

bool xnb_push_notify(u32 pushed, u32 rsp_prod, u32 rsp_event)
{
	/* Unsigned: rsp_event in (pushed, rsp_prod], wrapping. */
	return rsp_prod - rsp_event < rsp_prod - pushed;
}

enum xnb_event xnb_tx_event_judge(u32 req_prod, u32 prod_eoi, u32 req_cons,
				  bool held, bool disabled)
{
	if (disabled)
		return XNB_EV_SPURIOUS;
	if (req_prod != prod_eoi || req_prod != req_cons)
		return held ? XNB_EV_OWE : XNB_EV_KICK;
	return XNB_EV_SPURIOUS;
}

enum xnb_event xnb_rx_event_judge(u32 req_prod, u32 req_cons, u32 ring_size,
				  bool blocked, u32 want, bool disabled)
{
	int avail;

	if (disabled || !blocked)
		return XNB_EV_SPURIOUS;
	avail = xnb_ring_unconsumed(req_prod, req_cons, ring_size);
	if (avail < 0 || (u32)avail >= want)
		return XNB_EV_KICK;
	return XNB_EV_SPURIOUS;
}

enum xnb_event xnb_event_merge(enum xnb_event tx, enum xnb_event rx)
{
	return tx > rx ? tx : rx;
}

/* EOI hold for @run no-work events: 0 up to @grace, then 1, 2, 4.. @max. */
static unsigned int xnb_spurious_hold(unsigned int run, unsigned int grace,
				      unsigned int max)
{
	unsigned int shift;

	if (run <= grace)
		return 0;
	shift = run - grace - 1;
	if (shift >= 31 || (1U << shift) > max)
		return max;
	return 1U << shift;
}

u32 xnb_connect_wait(u32 fails, u64 last, u64 now)
{
	u32 hold = xnb_spurious_hold(fails, XNB_CONNECT_FREE,
				     XNB_CONNECT_HOLD_MAX_MS /
				     XNB_CONNECT_HOLD_MIN_MS) *
		   XNB_CONNECT_HOLD_MIN_MS;
	u64 gone = now > last ? now - last : 0;

	return gone >= hold ? 0 : (u32)(hold - gone);
}

/* A connect at @now within the window of the last; *@gone: time since. */
static bool xnb_reconnect_quick(const struct xnb_reconnect *r, u64 now,
				u64 *gone)
{
	*gone = now > r->last ? now - r->last : 0;
	return r->seen && *gone < XNB_RECONNECT_WINDOW_MS;
}

u32 xnb_reconnect_wait(const struct xnb_reconnect *r, u64 now)
{
	u32 hold;
	u64 gone;

	if (!xnb_reconnect_quick(r, now, &gone))
		return 0;
	/* The hold of the quick reconnect this one would be. */
	hold = xnb_spurious_hold(r->run < ~0U ? r->run + 1 : r->run,
				 XNB_RECONNECT_FREE,
				 XNB_RECONNECT_HOLD_MAX_MS /
				 XNB_RECONNECT_HOLD_MIN_MS) *
	       XNB_RECONNECT_HOLD_MIN_MS;
	return gone >= hold ? 0 : (u32)(hold - gone);
}

void xnb_reconnect_done(struct xnb_reconnect *r, u64 now)
{
	u64 gone;

	if (!xnb_reconnect_quick(r, now, &gone)) {
		r->run = 0;
		r->logged = false;
	} else if (r->run < ~0U) {
		r->run++;
	}
	r->last = now;
	r->seen = true;
}

bool xnb_reconnect_log(struct xnb_reconnect *r, u32 wait)
{
	if (!wait || r->logged)
		return false;
	r->logged = true;
	return true;
}

unsigned int xnb_spurious_next(struct xnb_spurious *s, bool spurious,
			       u32 progress, unsigned int grace,
			       unsigned int max)
{
	if (!spurious) {
		s->run = 0;
		return 0;
	}
	if (progress != s->progress) {
		s->progress = progress;
		s->run = 0;
	}
	if (s->run < 0xff)	/* saturates: the hold is long capped by then */
		s->run++;
	return xnb_spurious_hold(s->run, grace, max);
}

/* Copy a slot field by field: the guest may rewrite it as we read. */
static void xnb_read_slot(const union xen_netif_tx_sring_entry *ring,
			  u32 ring_size, u32 idx,
			  struct xen_netif_tx_request *req)
{
	const struct xen_netif_tx_request *s = &ring[idx & (ring_size - 1)].req;

	req->gref = READ_ONCE(s->gref);
	req->offset = READ_ONCE(s->offset);
	req->flags = READ_ONCE(s->flags);
	req->id = READ_ONCE(s->id);
	req->size = READ_ONCE(s->size);
}

static enum xnb_tx_verdict xnb_tx_fatal(struct xnb_tx_pkt *p,
					enum xnb_tx_reason why)
{
	p->reason = why;
	p->nr_slots = 0;
	return XNB_TX_FATAL;
}

/* Apply one extra-info segment; the last of a repeated type wins. */
static enum xnb_tx_reason xnb_tx_extra(struct xnb_tx_pkt *p,
				       const struct xen_netif_extra_info *e)
{
	if (e->type == 0 || e->type > XNB_EXTRA_TYPES)
		return XNB_R_BAD_EXTRA_TYPE;

	switch (e->type) {
	case XEN_NETIF_EXTRA_TYPE_GSO:
		/* Any GSO extra, not only the one that wins. */
		if (!e->u.gso.size || e->u.gso.size > XNB_GSO_MAX_SIZE)
			return XNB_R_BAD_GSO;
		if (e->u.gso.type == XEN_NETIF_GSO_TYPE_TCPV4)
			p->gso_type = XNB_GSO_TCPV4;
		else if (e->u.gso.type == XEN_NETIF_GSO_TYPE_TCPV6)
			p->gso_type = XNB_GSO_TCPV6;
		else
			return XNB_R_BAD_GSO;
		/* Honest but tiny (see XNB_GSO_MIN_SIZE): raised to it. */
		p->gso_size = e->u.gso.size < XNB_GSO_MIN_SIZE ?
			      XNB_GSO_MIN_SIZE : e->u.gso.size;
		break;
	case XEN_NETIF_EXTRA_TYPE_MCAST_ADD:
	case XEN_NETIF_EXTRA_TYPE_MCAST_DEL:
		/* A filter request: the caller applies the last one. */
		p->flags |= XNB_TXF_MCAST;
		p->mcast_op = e->type;
		memcpy(p->mcast_addr, e->u.mcast.addr, sizeof(p->mcast_addr));
		break;
	default:
		/* Hash and XDP extras carry nothing a backend must act on. */
		break;
	}
	return XNB_R_NONE;
}

enum xnb_tx_verdict
xnb_tx_parse(const union xen_netif_tx_sring_entry *ring, u32 ring_size,
	     u32 cons, u32 avail, const struct xnb_tx_limits *lim,
	     struct xnb_tx_pkt *p)
{
	struct xen_netif_tx_request req;
	enum xnb_tx_reason drop = XNB_R_NONE;
	u32 fatal = lim->fatal_slots;
	u32 remaining, first_size, n = 0, more_slots = 0;
	u16 flags;

	if (fatal > XNB_TX_FATAL_MAX)
		fatal = XNB_TX_FATAL_MAX;

	p->flags = 0;
	p->nr_data = 0;
	p->gso_type = XNB_GSO_NONE;
	p->gso_size = 0;
	p->reason = XNB_R_NONE;
	p->mcast_op = 0;

	if (avail > ring_size)
		return xnb_tx_fatal(p, XNB_R_RING_OVERFLOW);
	if (avail == 0)
		return xnb_tx_fatal(p, XNB_R_CHAIN_PAST_PROD);

	xnb_read_slot(ring, ring_size, cons + n, &req);
	p->id[n] = req.id;
	p->is_extra[n] = 0;
	n++;
	flags = req.flags;
	p->flags = flags & (XEN_NETTXF_csum_blank | XEN_NETTXF_data_validated);
	p->len = req.size;
	p->data[0].gref = req.gref;
	p->data[0].offset = req.offset;
	p->nr_data = 1;
	first_size = req.size;

	if (flags & XEN_NETTXF_extra_info) {
		struct xen_netif_extra_info e;
		u32 extras = 0;
		u8 more;

		do {
			enum xnb_tx_reason r;

			if (n >= avail)
				return xnb_tx_fatal(p, XNB_R_CHAIN_PAST_PROD);
			if (extras >= XNB_TX_MAX_EXTRAS)
				return xnb_tx_fatal(p, XNB_R_TOO_MANY_EXTRAS);
			xnb_read_slot(ring, ring_size, cons + n, &req);
			/* The extra overlays the request: reread our copy. */
			memcpy(&e, &req, sizeof(e));
			p->id[n] = 0;
			p->is_extra[n] = 1;
			n++;
			extras++;
			more = e.flags & XEN_NETIF_EXTRA_FLAG_MORE;
			r = xnb_tx_extra(p, &e);
			if (r != XNB_R_NONE)
				return xnb_tx_fatal(p, r);
		} while (more);
	}

	/* The data chain: each further slot takes its size from the total. */
	remaining = first_size;
	while (flags & XEN_NETTXF_more_data) {
		if (n >= avail)
			return xnb_tx_fatal(p, XNB_R_CHAIN_PAST_PROD);
		/* This slot would be further slot number more_slots + 1. */
		if (more_slots + 1 >= fatal)
			return xnb_tx_fatal(p, XNB_R_TOO_MANY_SLOTS);
		xnb_read_slot(ring, ring_size, cons + n, &req);
		p->id[n] = req.id;
		p->is_extra[n] = 0;
		n++;
		more_slots++;
		flags = req.flags;

		if (req.offset + (u32)req.size > XNB_PAGE_SIZE)
			return xnb_tx_fatal(p, XNB_R_CROSS_PAGE);
		if (drop != XNB_R_NONE)
			continue;	/* walk on: answer the whole chain */
		if (p->nr_data >= XNB_TX_MAX_DATA) {
			drop = XNB_R_SLOTS_OVER_MAX;
			continue;
		}
		if (req.size > remaining) {
			drop = XNB_R_SLOT_OVERSIZE;
			continue;
		}
		remaining -= req.size;
		p->data[p->nr_data].gref = req.gref;
		p->data[p->nr_data].offset = req.offset;
		p->data[p->nr_data].size = req.size;
		p->nr_data++;
	}
	p->nr_slots = n;

	/* What is left of the total is the first slot's own data. */
	if (drop == XNB_R_NONE) {
		p->data[0].size = remaining;
		if (p->data[0].offset + remaining > XNB_PAGE_SIZE)
			return xnb_tx_fatal(p, XNB_R_CROSS_PAGE);
	} else {
		p->data[0].size = 0;
	}

	/* As in stock, a multicast request's dummy slot is never a runt. */
	if (drop == XNB_R_NONE && (p->flags & XNB_TXF_MCAST))
		drop = XNB_R_MCAST_CTRL;
	if (drop == XNB_R_NONE && p->len < XNB_ETH_HLEN)
		drop = XNB_R_RUNT;
	if (drop == XNB_R_NONE &&
	    ((p->gso_type == XNB_GSO_TCPV4 && !lim->gso_tcpv4) ||
	     (p->gso_type == XNB_GSO_TCPV6 && !lim->gso_tcpv6)))
		drop = XNB_R_GSO_NOT_NEGOTIATED;

	if (drop != XNB_R_NONE) {
		p->reason = drop;
		p->nr_data = 0;
		return XNB_TX_DROP;
	}
	return XNB_TX_OK;
}

static const char *const xnb_tx_reasons[XNB_R_COUNT] = {
	[XNB_R_NONE] = "none",
	[XNB_R_RING_OVERFLOW] = "producer index beyond ring size",
	[XNB_R_CHAIN_PAST_PROD] = "slot chain runs past the producer index",
	[XNB_R_TOO_MANY_SLOTS] = "slot chain reaches fatal_skb_slots",
	[XNB_R_TOO_MANY_EXTRAS] = "too many extra-info segments",
	[XNB_R_BAD_EXTRA_TYPE] = "invalid extra-info type",
	[XNB_R_BAD_GSO] = "invalid GSO size or type",
	[XNB_R_CROSS_PAGE] = "slot crosses a page boundary",
	[XNB_R_SLOTS_OVER_MAX] = "more data slots than a frontend may use",
	[XNB_R_RUNT] = "packet shorter than an Ethernet header",
	[XNB_R_SLOT_OVERSIZE] = "slot larger than the rest of the packet",
	[XNB_R_GSO_NOT_NEGOTIATED] = "GSO type not negotiated",
	[XNB_R_MCAST_CTRL] = "multicast filter request",
};

const char *xnb_tx_reason_str(unsigned int reason)
{
	return reason < XNB_R_COUNT ? xnb_tx_reasons[reason] : "unknown";
}

u32 xnb_tx_charge(const struct xnb_tx_pkt *p,
		  const struct xnb_tx_limits *lim)
{
	u32 segs, charge = 0;

	if (p->gso_type != XNB_GSO_NONE && p->gso_size) {
		segs = p->len / p->gso_size + (p->len % p->gso_size ? 1 : 0);
		/* Over the limit it is dropped whole (tx.c), never cut. */
		if (segs > lim->gso_max_segs)
			segs = lim->gso_max_segs + 1;
		charge = segs / XNB_GSO_SEGS_PER_SLOT +
			 (segs % XNB_GSO_SEGS_PER_SLOT ? 1 : 0);
	}
	if (charge < p->nr_slots)
		charge = p->nr_slots;
	return charge > XNB_TX_PKT_SLOTS ? charge : XNB_TX_PKT_SLOTS;
}

u32 xnb_rx_slots_needed(u32 len, bool gso, u32 headroom)
{
	u32 first, slots = 1;

	if (headroom > XNB_RX_HEADROOM_MAX)
		headroom = XNB_RX_HEADROOM_MAX;
	/* Not len + headroom: that sum wraps for len near 4 GiB. */
	first = XNB_PAGE_SIZE - headroom;
	if (len > first) {
		len -= first;
		slots += len / XNB_PAGE_SIZE + (len % XNB_PAGE_SIZE ? 1 : 0);
	}
	return slots + (gso ? 1 : 0);
}

bool xnb_rx_fits(u32 len, bool gso, bool gso_negotiated, bool can_sg,
		 u32 headroom)
{
	u32 data = xnb_rx_slots_needed(len, false, headroom);

	if (gso && (!gso_negotiated || !can_sg))
		return false;
	return data <= (can_sg ? XNB_TX_MAX_DATA : 1u);
}

static u32 xnb_sat_add(u32 a, u32 b)
{
	return a > ~0u - b ? ~0u : a + b;
}

enum xnb_rxmod_verdict xnb_rxmod_decide(struct xnb_rxmod *m, bool asked,
					u32 pkts, u32 slots, bool starved,
					u64 now,
					const struct xnb_rxmod_limits *lim)
{
	u64 hold = (u64)lim->usecs * 1000u;

	if (asked && !m->owed) {
		m->owed = true;
		m->deferred = false;
		m->pkts = 0;
		m->slots = 0;
		m->due_ns = m->last_ns + hold;
	}
	if (!m->owed)
		return XNB_RXMOD_NONE;
	m->pkts = xnb_sat_add(m->pkts, pkts);
	m->slots = xnb_sat_add(m->slots, slots);
	/* A shorter hold since it became owed brings it forward. */
	if (m->last_ns + hold < m->due_ns)
		m->due_ns = m->last_ns + hold;

	/* A clock that went back wraps the difference large: notify. */
	if (hold < XNB_RXMOD_USECS_MIN * 1000ull || lim->frames == 1 ||
	    starved ||
	    (lim->frames && m->pkts >= lim->frames) ||
	    m->slots >= lim->slots_max || now - m->last_ns >= hold ||
	    now >= m->due_ns) {
		m->owed = false;
		return XNB_RXMOD_NOW;
	}
	m->deferred = true;
	return XNB_RXMOD_DEFER;
}

void xnb_rxmod_sent(struct xnb_rxmod *m, u64 now)
{
	m->last_ns = now;
}

bool xnb_rxmod_wanted(u32 rsp_prod, u32 rsp_event, u32 ring_size)
{
	/* Unsigned: wraps like the ring indices. */
	return rsp_event - rsp_prod - 1u >= ring_size;
}

void xnb_credit_set(struct xnb_credit *c, u64 bytes, u64 usec, u64 now)
{
	/* tx.c peeks at bytes lockless to skip the lock when it is 0. */
	WRITE_ONCE(c->bytes, bytes > XNB_CREDIT_MAX ? XNB_CREDIT_MAX : bytes);
	c->usec = usec;
	c->balance = (s64)c->bytes;
	c->next_refill = now + usec;
}

/* A period's credit, XNB_CREDIT_BURST at least: with periods below a GSO
 * packet, a queue served a little late would lose credit, under the limit.
 */
static u64 xnb_credit_cap(const struct xnb_credit *c)
{
	return c->bytes > XNB_CREDIT_BURST ? c->bytes : XNB_CREDIT_BURST;
}

bool xnb_credit_take(struct xnb_credit *c, u32 len, u64 now, u64 *wait_us)
{
	u64 debt, periods, cap;

	if (c->bytes == 0 || c->usec == 0)
		return true;

	/* Signed difference: correct across a wrap of the clock. */
	if ((s64)(now - c->next_refill) >= 0) {
		cap = xnb_credit_cap(c);
		periods = div64_u64(now - c->next_refill, c->usec) + 1;
		debt = c->balance < 0 ? (u64)-c->balance : 0;
		/* Enough periods to pay the debt and fill the bucket?  The
		 * test keeps periods * bytes below debt + cap: no overflow.
		 */
		if (periods > div64_u64(debt + cap, c->bytes))
			c->balance = (s64)cap;
		else if (c->balance + (s64)(periods * c->bytes) > (s64)cap)
			c->balance = (s64)cap;
		else
			c->balance += (s64)(periods * c->bytes);
		c->next_refill += periods * c->usec;
	}
	if (c->balance > 0) {
		c->balance -= len;
		return true;
	}
	/* Wait for the first refill that leaves credit, saturating; the
	 * next refill is at most a period away, far below the cap.
	 */
	periods = div64_u64((u64)-c->balance, c->bytes);
	*wait_us = c->next_refill - now;
	if (*wait_us > XNB_CREDIT_WAIT_MAX ||
	    periods > div64_u64(XNB_CREDIT_WAIT_MAX - *wait_us, c->usec))
		*wait_us = ~0ULL;
	else
		*wait_us += periods * c->usec;
	return false;
}

unsigned int xnb_pick_group(const u32 *load, size_t stride,
			    unsigned int nr_groups)
{
	const u8 *p = (const u8 *)load;
	unsigned int i, best = 0;

	for (i = 1; i < nr_groups; i++)
		if (*(const u32 *)(p + i * stride) <
		    *(const u32 *)(p + best * stride))
			best = i;
	return best;
}

static bool xnb_cpu_takes(const u32 *load, u32 nr_cpus, u32 cpu)
{
	return cpu < nr_cpus && load[cpu] != XNB_CPU_OFF;
}

/* One more group on @cpu; a count never reaches XNB_CPU_OFF. */
static void xnb_cpu_count(u32 *load, u32 cpu)
{
	if (load[cpu] < XNB_CPU_OFF - 1)
		load[cpu]++;
}

u32 xnb_cpu_place(struct xnb_cpu_slot *g, u32 nr_groups, u32 *load,
		  u32 nr_cpus)
{
	u32 i, c, best, moved = 0;

	/* Home first, then count what stays: the displaced see it all. */
	for (i = 0; i < nr_groups; i++) {
		if (xnb_cpu_takes(load, nr_cpus, g[i].home) &&
		    g[i].cur != g[i].home) {
			g[i].cur = g[i].home;
			moved++;
		}
		if (xnb_cpu_takes(load, nr_cpus, g[i].cur))
			xnb_cpu_count(load, g[i].cur);
	}
	for (i = 0; i < nr_groups; i++) {
		if (xnb_cpu_takes(load, nr_cpus, g[i].cur))
			continue;
		best = nr_cpus;
		for (c = 0; c < nr_cpus; c++)
			if (load[c] != XNB_CPU_OFF &&
			    (best == nr_cpus || load[c] < load[best]))
				best = c;
		if (best == nr_cpus)
			break;	/* no CPU takes groups: all stay */
		g[i].cur = best;
		xnb_cpu_count(load, best);
		moved++;
	}
	return moved;
}

u32 xnb_queue_share(u32 budget, u32 active, u32 used)
{
	u32 even, floor;

	if (used >= budget)
		return 0;
	even = budget / (active ? active : 1);
	floor = budget < XNB_SHARE_FLOOR ? budget : XNB_SHARE_FLOOR;
	if (even < floor)
		even = floor;
	return even < budget - used ? even : budget - used;
}

void xnb_pass_begin(struct xnb_pass_acct *a, u32 napi_budget, u32 cap)
{
	a->napi_budget = napi_budget;
	a->cap = cap;
	a->tx_packets = 0;
	a->slots = 0;
	a->stopped = XNB_PASS_GO;
	a->requeued = false;
}

bool xnb_pass_may_serve(struct xnb_pass_acct *a)
{
	if (a->tx_packets >= a->napi_budget)
		a->stopped = XNB_PASS_STOP_NAPI;
	else if (a->slots >= a->cap)
		a->stopped = XNB_PASS_STOP_CAP;
	else
		return true;
	return false;
}

u32 xnb_pass_turn_slots(const struct xnb_pass_acct *a, u32 share)
{
	u32 left = a->slots < a->cap ? a->cap - a->slots : 0;

	if (share > left)
		share = left;
	return share ? share : 1;
}

u32 xnb_pass_tx_slots(const struct xnb_pass_acct *a, u32 share)
{
	/* Every packet is charged XNB_TX_PKT_SLOTS at least. */
	u32 left = a->tx_packets < a->napi_budget ?
		   (a->napi_budget - a->tx_packets) * XNB_TX_PKT_SLOTS : 0;
	u32 turn = xnb_pass_turn_slots(a, share);

	if (left > turn)
		left = turn;
	return share < left ? share : left;
}

/* One way of a new turn: @share less what is owed, paid from *@debt. */
static u32 xnb_pass_pay(u32 share, u32 *debt)
{
	u32 paid = *debt < share ? *debt : share;

	*debt -= paid;
	return share - paid;
}

u32 xnb_pass_turn_share(const struct xnb_pass_ways *left, u32 share,
			bool alone, struct xnb_pass_ways *debt,
			struct xnb_pass_ways *way)
{
	if (alone) {
		*debt = (struct xnb_pass_ways){};
		way->rx = share;
		way->tx = share;
	} else if (left->rx || left->tx) {
		way->rx = left->rx < share ? left->rx : share;
		way->tx = left->tx < share ? left->tx : share;
	} else {
		way->rx = xnb_pass_pay(share, &debt->rx);
		way->tx = xnb_pass_pay(share, &debt->tx);
	}
	return way->rx > way->tx ? way->rx : way->tx;
}

u32 xnb_pass_debt(u32 debt, u32 share, u32 used)
{
	if (debt > XNB_PASS_DEBT_MAX)
		debt = XNB_PASS_DEBT_MAX;
	if (used > share)
		debt += used - share < XNB_PASS_DEBT_MAX - debt ?
			used - share : XNB_PASS_DEBT_MAX - debt;
	return debt;
}

u32 xnb_pass_turn_left(u32 share, u32 limit, u32 used)
{
	/* A limit of 0 (TX once NAPI's budget is spent) cut nothing: the
	 * rest would be the whole share, and never shrink.
	 */
	if (!limit || used < limit || limit >= share || used >= share)
		return 0;
	return share - used;
}

u32 xnb_pass_rx_slots(const struct xnb_pass_acct *a, u32 turn, u32 tx_turn)
{
	u32 left = a->slots < a->cap ? a->cap - a->slots : 0;
	u32 tx = xnb_pass_tx_slots(a, tx_turn);

	if (!turn)
		return 0;
	if (tx > left / 2)
		tx = left / 2;
	left -= tx;
	if (turn > left)
		turn = left;
	return turn ? turn : 1;
}

bool xnb_pass_rx_split(const struct xnb_pass_acct *a, u32 turn)
{
	u32 left = a->slots < a->cap ? a->cap - a->slots : 0;

	return turn > left - left / 2;
}

void xnb_pass_charge(struct xnb_pass_acct *a, u32 tx_packets, u32 slots)
{
	a->tx_packets += tx_packets;
	a->slots += slots;
}

static u32 xnb_min(u32 a, u32 b)
{
	return a < b ? a : b;
}

bool xnb_turn_peek(const struct xnb_pass_acct *a, const struct xnb_turn *t)
{
	return xnb_min(t->slots, t->way.tx) &&
	       xnb_pass_rx_split(a, xnb_min(t->slots, t->way.rx));
}

u32 xnb_turn_rx(const struct xnb_pass_acct *a, struct xnb_turn *t,
		bool tx_waits)
{
	u32 rx_turn = xnb_min(t->slots, t->way.rx);
	u32 tx_turn = tx_waits ? xnb_min(t->slots, t->way.tx) : 0;

	t->rx_limit = xnb_pass_rx_slots(a, rx_turn, tx_turn);
	return t->rx_limit;
}

u32 xnb_turn_tx(struct xnb_pass_acct *a, struct xnb_turn *t, u32 rx_used)
{
	xnb_pass_charge(a, 0, rx_used);
	t->tx_limit = xnb_pass_tx_slots(a, xnb_min(t->slots, t->way.tx));
	return t->tx_limit;
}

void xnb_turn_end(struct xnb_pass_acct *a, const struct xnb_turn *t,
		  u32 rx_used, u32 tx_packets, u32 tx_used,
		  struct xnb_pass_ways *left, struct xnb_pass_ways *debt)
{
	xnb_pass_charge(a, tx_packets, tx_used);
	left->rx = xnb_pass_turn_left(t->way.rx, t->rx_limit, rx_used);
	left->tx = xnb_pass_turn_left(t->way.tx, t->tx_limit, tx_used);
	debt->rx = xnb_pass_debt(debt->rx, t->way.rx, rx_used);
	debt->tx = xnb_pass_debt(debt->tx, t->way.tx, tx_used);
}

void xnb_pass_turn_end(struct xnb_pass_acct *a, u32 start)
{
	if (a->slots == start)
		a->slots++;
}

void xnb_pass_decide(const struct xnb_pass_acct *a, bool light, bool active,
		     u32 passes, struct xnb_pass_verdict *v)
{
	bool full = a->tx_packets >= a->napi_budget;
	bool capped = a->stopped == XNB_PASS_STOP_CAP;
	/* A completed context must report less than its budget. */
	u32 done = full ? a->napi_budget - 1 : a->tx_packets;

	v->reason = XNB_HANDOFF_IDLE;
	if (!a->napi_budget) {
		v->next = XNB_NEXT_COMPLETE;	/* netpoll's: no pass ran */
		v->ret = 0;
		return;
	}
	if (light && (full || capped || a->requeued ||
		      (active && passes >= XNB_POLL_PASSES))) {
		v->next = XNB_NEXT_HANDOFF;
		v->reason = full ? XNB_HANDOFF_BUDGET :
			    capped ? XNB_HANDOFF_CAP :
			    a->requeued ? XNB_HANDOFF_REQUEUED :
			    XNB_HANDOFF_PASSES;
		v->ret = done;
	} else if (full || capped || active) {
		v->next = XNB_NEXT_AGAIN;
		v->ret = a->napi_budget;
	} else {
		v->next = XNB_NEXT_COMPLETE;
		v->ret = done;
	}
}

u32 xnb_busy_share(u64 busy_then, u64 busy_now, u64 dt)
{
	u64 b;

	if (!dt || busy_now < busy_then)
		return 0;
	b = busy_now - busy_then;
	if (b >= dt)
		return XNB_BAL_SCALE;
	/* b < dt, so b * XNB_BAL_SCALE fits in 64 bits whenever
	 * dt * XNB_BAL_SCALE does; a longer window is scaled down instead,
	 * off by at most 1 in dt / XNB_BAL_SCALE.
	 */
	if (dt <= ~0ULL / XNB_BAL_SCALE)
		return (u32)div64_u64(b * XNB_BAL_SCALE, dt);
	return (u32)div64_u64(b, div_u64(dt, XNB_BAL_SCALE));
}

/* Both loads scaled alike until the total fits 22 bits: busy (10 bits, at
 * most XNB_BAL_SCALE) times a load fits a u32, with no 64-bit division.
 */
static u32 xnb_bal_share(u32 busy, u64 load, u64 total)
{
	while (total >> 22) {
		total >>= 1;
		load >>= 1;
	}
	return total ? (u32)(busy * (u32)load / (u32)total) : 0;
}

bool xnb_balance_pick(const u32 *busy, u32 nr_groups,
		      const struct xnb_bal_queue *q, u32 nr_queues,
		      struct xnb_bal_state *st, struct xnb_bal_move *mv)
{
	u32 i, hi = 0, lo = 0, b, l, gap, best_gap, best = nr_queues;
	u64 total = 0;

	if (nr_groups < 2) {
		st->streak = 0;
		return false;
	}
	for (i = 1; i < nr_groups; i++) {
		if (busy[i] > busy[hi])
			hi = i;
		if (busy[i] < busy[lo])
			lo = i;
	}
	b = busy[hi] < XNB_BAL_SCALE ? busy[hi] : XNB_BAL_SCALE;
	l = busy[lo] < XNB_BAL_SCALE ? busy[lo] : XNB_BAL_SCALE;
	if (b < XNB_BAL_HIGH || b - l < XNB_BAL_GAP) {
		st->streak = 0;
		return false;
	}
	/* The same busiest group as last time, or a new one that starts
	 * over.  The idlest may differ: idle groups trade places by noise.
	 */
	if (st->streak && st->from == hi) {
		if (st->streak < XNB_BAL_STREAK)
			st->streak++;
	} else {
		st->streak = 1;
		st->from = hi;
	}
	st->to = lo;
	if (st->streak < XNB_BAL_STREAK)
		return false;

	for (i = 0; i < nr_queues; i++)
		if (q[i].group == hi)	/* saturating: load <= total */
			total += q[i].load < ~total ? q[i].load : ~total;
	gap = b - l;
	best_gap = gap;
	for (i = 0; i < nr_queues; i++) {
		u32 m, nb, nl, g;

		if (q[i].group != hi || q[i].fixed || !q[i].load)
			continue;
		m = xnb_bal_share(b, q[i].load, total);
		nb = b - m;
		nl = l + m;
		if (nl > nb && nl - nb >= XNB_BAL_GAP / 2)
			continue;	/* overshoots: would invite the way back */
		g = nl > nb ? nl - nb : nb - nl;
		if (g < best_gap) {
			best_gap = g;
			best = i;
		}
	}
	if (best == nr_queues)
		return false;	/* keep the streak: a queue may qualify later */
	mv->queue = best;
	mv->from = hi;
	mv->to = lo;
	st->streak = 0;
	return true;
}
