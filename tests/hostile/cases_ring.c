// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: the ring pages themselves.  One grant offered as two rings
 * and RX buffers that are ring pages (46); the fields of the shared
 * rings that dom0 writes rewritten by us while traffic flows (47); RX
 * buffers withheld and posted again as fast as dom0's stall detection
 * turns (48).  dom0 samples the vif with the phase we publish in
 * data/hostile-phase and, for 47 and 48, sends to us all along
 * (hostile.sh).
 *
 * Where two writers share a ring page (two backends' rings on one
 * grant, or our own rewrites of rsp_prod), its response producer may
 * go back, or hold a value no backend wrote: the loops here take only
 * values between our consumer and our producer (rsp_ok()), never
 * fe.c's collect() or service_rx(), which trust it.
 */
#define _GNU_SOURCE
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"

static void ring_phase(struct fe *f, int cs, const char *ph)
{
	set_phase(f, ph);
	printf("HOSTILE-MARK case=%d phase=%s\n", cs, ph);
	fflush(stdout);
}

/* The events that came in on our ports, taken without waiting. */
static unsigned long drain_events(struct fe *f)
{
	struct pollfd pfd = { .fd = xenevtchn_fd(f->xce), .events = POLLIN };
	unsigned long n = 0;
	int port;

	while (n < 1024 && poll(&pfd, 1, 0) > 0) {
		port = xenevtchn_pending(f->xce);
		if (port < 0)
			break;
		xenevtchn_unmask(f->xce, port);
		n++;
	}
	return n;
}

static RING_IDX rd(const RING_IDX *p)
{
	return *(const volatile RING_IDX *)p;
}

/* Could a backend have written @p as the response producer of a ring
 * we consumed up to @cons and produced up to @prod?
 */
static int rsp_ok(RING_IDX p, RING_IDX cons, RING_IDX prod)
{
	return (RING_IDX)(p - cons) <= (RING_IDX)(prod - cons);
}

/* Wait up to @ms until @want responses past *@cons are shown; takes
 * them (statuses unread: on a shared page they are not one backend's).
 * Returns the responses taken.
 */
static RING_IDX ring_wait(struct fe *f, const RING_IDX *rsp_prod,
			  RING_IDX *cons, RING_IDX prod, RING_IDX want, int ms)
{
	long end = now_ms() + ms;
	RING_IDX got = 0, p;

	for (;;) {
		p = rd(rsp_prod);
		xen_rmb();
		if (rsp_ok(p, *cons, prod)) {
			got += p - *cons;
			*cons = p;
		}
		if (got >= want || now_ms() > end)
			return got;
		drain_events(f);
		usleep(1000);
	}
}

static RING_IDX tx_wait(struct fe *f, RING_IDX want, int ms)
{
	RING_IDX n = ring_wait(f, &f->txs->rsp_prod, &f->tx_cons, f->tx_prod,
			       want, ms);

	f->n_resp += n;
	return n;
}

static RING_IDX rx_wait(struct fe *f, RING_IDX want, int ms)
{
	return ring_wait(f, &f->rxs->rsp_prod, &f->rx_cons, f->rx_prod, want,
			 ms);
}

/* One RX request for the page of @gref, published and notified. */
static void rx_post_gref(struct fe *f, uint32_t gref)
{
	netif_rx_request_t *r = &f->rxs->ring[f->rx_prod % RXR].req;

	r->id = (uint16_t)(f->rx_prod % NRX);
	r->gref = gref;
	f->rx_prod++;
	xen_wmb();
	f->rxs->req_prod = f->rx_prod;
	xen_mb();
	notify_rx(f);
}

/* A 60-byte frame to ourselves from TX page 0, request @id. */
static void tx_frame(struct fe *f, uint16_t id)
{
	frame(f, 0, 0, 60);
	put(f, f->txref[0], 0, 0, id, 60);
	push(f);
}

/* ---- 46: one grant as two rings; RX buffers on ring pages --------------- */

/* The rings of a connection that aliases its own grants. */
struct alias {
	int rx_on_tx;		/* rx-ring-ref = tx-ring-ref */
	int nq;			/* > 1: queue 1 on queue 0's two rings */
	int ctrl_on_tx;		/* ctrl-ring-ref = tx-ring-ref */
};

static int be_until(struct fe *f, int want, unsigned int bad_mask, int ms)
{
	long end = now_ms() + ms;
	int s;

	for (;;) {
		s = be_state(f);
		if (s == want || (s >= 0 && (bad_mask & (1u << s))) ||
		    now_ms() > end)
			return s;
		usleep(20000);
	}
}

static void *share_ring(struct fe *f, uint32_t *ref)
{
	void *p = xengntshr_share_pages(f->gs, f->bedom, 1, ref, 1);

	if (!p)
		die("sharing a ring page");
	memset(p, 0, PAGE);
	return p;
}

static int bind_port(struct fe *f)
{
	int port = xenevtchn_bind_unbound_port(f->xce, f->bedom);

	if (port < 0)
		die("binding an event channel");
	return port;
}

/* Connect as fe_connect() does with split channels, but with the grants
 * @a names aliased.  Only pages we shared ourselves are left in @f, so
 * fe_reset() unshares each once (alias_reset()).  No RX buffers.
 * Returns 0 once the backend is Connected, 1 when it refused.
 */
static int alias_connect(struct fe *f, const struct alias *a)
{
	int q, nq = a->nq > 1 ? a->nq : 1, s;
	char key[64];

	s = be_until(f, XenbusStateInitWait, 0, 60000);
	if (s != XenbusStateInitWait)
		die("backend state %d, not InitWait", s);
	f->txs = share_ring(f, &f->tx_ref);
	SHARED_RING_INIT(f->txs);
	if (a->rx_on_tx) {
		f->rxs = (netif_rx_sring_t *)f->txs;
		f->rx_ref = f->tx_ref;
	} else {
		f->rxs = share_ring(f, &f->rx_ref);
		SHARED_RING_INIT(f->rxs);
	}
	f->txs->rsp_event = 1;
	f->rxs->rsp_event = 1;
	f->tx_prod = f->tx_cons = 0;
	f->rx_prod = f->rx_cons = 0;
	f->ptx = bind_port(f);
	f->prx = bind_port(f);
	for (q = 0; q < nq && q < FE_MAXQ; q++) {
		char pre[16] = "";

		if (nq > 1)
			snprintf(pre, sizeof(pre), "queue-%d/", q);
		snprintf(key, sizeof(key), "%stx-ring-ref", pre);
		xs_put(f, key, "%u", f->tx_ref);
		snprintf(key, sizeof(key), "%srx-ring-ref", pre);
		xs_put(f, key, "%u", f->rx_ref);
		if (q == 0) {
			snprintf(key, sizeof(key), "%sevent-channel-tx", pre);
			xs_put(f, key, "%d", f->ptx);
			snprintf(key, sizeof(key), "%sevent-channel-rx", pre);
			xs_put(f, key, "%d", f->prx);
		} else {
			f->mq[q].port = bind_port(f);
			snprintf(key, sizeof(key), "%sevent-channel", pre);
			xs_put(f, key, "%d", f->mq[q].port);
		}
	}
	if (nq > 1) {
		xs_put(f, "multi-queue-num-queues", "%d", nq);
		f->nq = nq;
	}
	xs_put(f, "request-rx-copy", "1");
	xs_put(f, "feature-rx-notify", "1");
	xs_put(f, "feature-sg", "1");
	xs_put(f, "feature-gso-tcpv4", "1");
	if (a->ctrl_on_tx) {
		f->pctrl = bind_port(f);
		xs_put(f, "ctrl-ring-ref", "%u", f->tx_ref);
		xs_put(f, "event-channel-ctrl", "%d", f->pctrl);
	}
	fe_state(f, XenbusStateConnected);
	s = be_until(f, XenbusStateConnected,
		     (1u << XenbusStateClosing) | (1u << XenbusStateClosed),
		     30000);
	if (s != XenbusStateConnected)
		return 1;
	f->connected = 1;
	return 0;
}

static void alias_reset(struct fe *f)
{
	if ((void *)f->rxs == (void *)f->txs)
		f->rxs = NULL;
	if (fe_reset(f))
		die("reset: backend state %d", be_state(f));
}

/* 46a-b: the TX and the RX ring on one grant.  A TX request's offset
 * and flags are, in the RX view of the same slot, an RX request's
 * grant: the frame sits at the offset of one of our RX buffers' grant
 * numbers, so whatever the RX side takes from the page is ours.
 */
static void alias_tx_rx(struct fe *f)
{
	static const struct alias a = { .rx_on_tx = 1 };
	uint32_t o = PAGE;
	RING_IDX n;
	int i;

	for (i = 0; i < NRX; i++)
		if (f->rxref[i] < o)
			o = f->rxref[i];
	if (alias_connect(f, &a)) {
		report(46, "a", "connected", "refused", "tx-ring-ref = rx-ring-ref = %u, backend state %d",
		       f->tx_ref, be_state(f));
		alias_reset(f);
		return;
	}
	report(46, "a", "connected", "connected", "tx-ring-ref = rx-ring-ref = %u",
	       f->tx_ref);
	if (o > PAGE - 60) {
		report(46, "b", "skipped", "skipped", "no RX buffer grant below %u",
		       PAGE - 60);
		alias_reset(f);
		return;
	}
	frame(f, 0, o, 60);
	put(f, f->txref[0], (uint16_t)o, 0, 0x4601, 60);
	push(f);
	n = tx_wait(f, 1, 3000);
	report(46, "b", "answered", n ? "answered" : "none",
	       "one frame at offset %u (an RX request for gref %u in the RX view), responses %u",
	       o, o, n);
	alias_reset(f);
}

/* 46c-e: two queues on one pair of rings.  Both channels are notified
 * each time, so both backends consume the same requests and answer in
 * the same slots.  Fewer than a ring's worth in all: neither backend's
 * view ever has more outstanding than the ring holds.
 */
static void alias_queues(struct fe *f)
{
	static const struct alias a = { .nq = 2 };
	int maxq = backend_feature(f, "multi-queue-max-queues"), i, k;
	RING_IDX got = 0, rx;

	if (maxq < 2) {
		report(46, "c", "skipped", "skipped", "backend offers %d queue(s)",
		       maxq);
		return;
	}
	if (alias_connect(f, &a)) {
		report(46, "c", "connected", "refused", "queue-1 on queue-0's rings %u/%u, backend state %d",
		       f->tx_ref, f->rx_ref, be_state(f));
		alias_reset(f);
		return;
	}
	report(46, "c", "connected", "connected", "queue-0 and queue-1 on rings %u/%u",
	       f->tx_ref, f->rx_ref);
	frame(f, 0, 0, 60);
	for (i = 0; i < 10; i++) {
		for (k = 0; k < 10; k++)
			put(f, f->txref[0], 0, 0, (uint16_t)(i * 10 + k), 60);
		push(f);
		xenevtchn_notify(f->xce, f->mq[1].port);
		got += tx_wait(f, 10, 3000);
	}
	report(46, "d", "answered", got == 100 ? "answered" : "partial",
	       "100 frames on the shared TX ring, %u shown answered", got);
	/* Buffers once, never reposted; ARP replies land on either queue. */
	for (i = 0; i < 32; i++)
		rx_post_gref(f, f->rxref[i]);
	xenevtchn_notify(f->xce, f->mq[1].port);
	rx = 0;
	for (i = 0; i < 5 && !rx; i++) {
		arp_request(f);
		put(f, f->txref[0], 0, 0, (uint16_t)(0x4600 + i), 60);
		push(f);
		xenevtchn_notify(f->xce, f->mq[1].port);
		tx_wait(f, 1, 2000);
		rx = rx_wait(f, 1, 1000);
	}
	report(46, "e", "rx", rx ? "rx" : "none",
	       "ARP requests %d, RX responses shown on the shared RX ring %u",
	       i, rx);
	alias_reset(f);
}

/* 46f-g: the control ring on the TX ring's grant.  Its requests are the
 * TX slots read 16 bytes at a time: type 0 while our grants are below
 * 65536, so nothing but "not supported" answers.
 */
static void alias_ctrl(struct fe *f)
{
	static const struct alias a = { .ctrl_on_tx = 1 };
	RING_IDX n;

	if (alias_connect(f, &a)) {
		report(46, "f", "connected", "refused", "ctrl-ring-ref = tx-ring-ref = %u, backend state %d",
		       f->tx_ref, be_state(f));
		alias_reset(f);
		return;
	}
	report(46, "f", "connected", "connected", "ctrl-ring-ref = tx-ring-ref = %u",
	       f->tx_ref);
	tx_frame(f, 0x4602);
	n = tx_wait(f, 1, 3000);
	xenevtchn_notify(f->xce, f->pctrl);
	usleep(300000);
	tx_frame(f, 0x4603);
	n += tx_wait(f, 1, 3000);
	report(46, "g", "answered", n == 2 ? "answered" : "none",
	       "two frames around a control event, %u shown answered", n);
	alias_reset(f);
}

/* dom0's reply to our ARP request, bytes 28-31: its own address. */
static int reply_at(const void *page)
{
	return !memcmp((const uint8_t *)page + 28, "\xc0\x00\x02\x01", 4);
}

/* An ARP request sent from a MAC whose first four octets are @prod,
 * little-endian: dom0's reply begins with it, so a reply copied to
 * the start of a ring page writes @prod over that ring's req_prod.
 * @prod must be 2 mod 4 (a unicast, locally administered MAC).
 */
static void arp_writing(struct fe *f, RING_IDX prod, uint16_t id)
{
	uint8_t own[6], mac[6] = { prod & 0xff, (prod >> 8) & 0xff,
				   (prod >> 16) & 0xff, prod >> 24, 0, 0x63 };

	memcpy(own, f->mac, 6);
	memcpy(f->mac, mac, 6);
	arp_request(f);
	memcpy(f->mac, own, 6);
	put(f, f->txref[0], 0, 0, id, 60);
	push(f);
}

/* The status of the RX response just taken. */
static int rx_status(const struct fe *f)
{
	return f->rxs->ring[(f->rx_cons - 1) % RXR].rsp.status;
}

/* 46h-j: RX buffers that are our own ring pages, the reply written over
 * the ring's header with the producer index it had: dom0's copy is one
 * more write of ours to the page, and the rings go on.
 */
static int rx_on_rings(struct fe *f)
{
	RING_IDX n;
	int st, ok;

	/* Anything dom0 queued for us as the carrier came on is dropped
	 * (rx_drain_timeout_msecs, 2 s in the lab) before a buffer of ours
	 * on a ring page may take it.
	 */
	sleep(3);
	tx_frame(f, 0x4604);
	tx_wait(f, 1, 3000);
	/* Our ARP request makes the TX producer 2 mod 4. */
	while (((f->tx_prod + 1) & 3) != 2) {
		tx_frame(f, (uint16_t)f->tx_prod);
		tx_wait(f, 1, 3000);
	}
	rx_post_gref(f, f->tx_ref);
	arp_writing(f, f->tx_prod + 1, 0x4605);
	n = rx_wait(f, 1, 3000);
	st = n ? rx_status(f) : 0;
	ok = n && st > 0 && reply_at(f->txs);
	report(46, "h", "landed", ok ? "landed" : !n ? "none" : st < 0 ?
	       "error" : "elsewhere",
	       "RX buffer = TX ring page: status %d, dom0's address at bytes 28-31 %s, TX req_prod %u (ours %u)",
	       st, reply_at(f->txs) ? "yes" : "no", rd(&f->txs->req_prod),
	       f->tx_prod);
	f->rxs->rsp_event = f->rx_cons + 1;

	/* The second buffer makes the RX producer 2 (our first was 1). */
	if (((f->rx_prod + 1) & 3) != 2) {
		report(46, "i", "2 mod 4", "other", "RX producer would be %u",
		       f->rx_prod + 1);
		return 0;
	}
	rx_post_gref(f, f->rx_ref);
	arp_writing(f, f->rx_prod, 0x4606);
	n = rx_wait(f, 1, 3000);
	st = n ? rx_status(f) : 0;
	ok = n && st > 0 && reply_at(f->rxs);
	report(46, "i", "landed", ok ? "landed" : !n ? "none" : st < 0 ?
	       "error" : "elsewhere",
	       "RX buffer = RX ring page: status %d, dom0's address at bytes 28-31 %s, RX req_prod %u (ours %u)",
	       st, reply_at(f->rxs) ? "yes" : "no", rd(&f->rxs->req_prod),
	       f->rx_prod);
	f->rxs->rsp_event = f->rx_cons + 1;

	/* An ordinary buffer and the TX ring still work. */
	rx_post_gref(f, f->rxref[2]);
	arp_request(f);
	put(f, f->txref[0], 0, 0, 0x4607, 60);
	push(f);
	n = rx_wait(f, 1, 3000);
	st = n ? rx_status(f) : 0;
	tx_frame(f, 0x4608);
	ok = n && st > 0 && tx_wait(f, f->tx_prod - f->tx_cons, 3000) &&
	     f->tx_cons == f->tx_prod;
	report(46, "j", "ok", ok ? "ok" : "broken",
	       "ordinary RX buffer status %d, TX responses %u of %u",
	       st, f->tx_cons, f->tx_prod);
	return 1;
}

/* 46k: an RX buffer on the TX ring page, and the reply to our own MAC:
 * dom0's copy writes an impossible TX producer (00:16:3e:... is far
 * beyond the ring), which dom0 must find as it would one of ours.  We
 * leave it there a second (any push of ours would mend it), then mend
 * the response producer the copy overwrote, for collect(): a disabled
 * vif writes it no more.
 */
static void rx_clobbers_tx(struct fe *f)
{
	RING_IDX v = f->mac[0] | f->mac[1] << 8 | f->mac[2] << 16 |
		     (RING_IDX)f->mac[3] << 24, n;

	if (rsp_ok(v, f->tx_prod + 1, f->tx_prod + 1 + TXR)) {
		report(46, "k", "skipped", "skipped",
		       "our MAC as a producer (%u) would be possible", v);
		return;
	}
	rx_post_gref(f, f->tx_ref);
	arp_request(f);
	put(f, f->txref[0], 0, 0, 0x4609, 60);
	push(f);
	n = rx_wait(f, 1, 3000);
	report(46, "k", "clobbered", n && rd(&f->txs->req_prod) == v ?
	       "clobbered" : n ? "other" : "none",
	       "TX req_prod %u (ours %u) after the reply to our MAC landed on the TX ring page",
	       rd(&f->txs->req_prod), f->tx_prod);
	sleep(1);
	/* Our ARP request was answered before its reply came. */
	f->tx_cons = f->tx_prod;
	f->txs->rsp_prod = f->tx_prod;
	check(f, 46, "l", "fatal", chain_even(f, 1, 60));
}

/* 46: grant aliasing */
enum hostile_end case_grant_alias(struct fe *f)
{
	enum hostile_end end = END_FATAL;

	f->rx_post = 0;
	f->rx_manual = 1;
	alias_tx_rx(f);
	alias_queues(f);
	alias_ctrl(f);
	if (connect_or_die(f, &honest, 46))
		end = END_REFUSED;
	else if (rx_on_rings(f))
		rx_clobbers_tx(f);
	/* The RX ring is in step again: the lingering child may serve it. */
	f->rx_post = 1;
	f->rx_manual = 0;
	return end;
}

/* ---- 47: the fields dom0 writes, rewritten by us ----------------------- */

#define RW_BATCH	8	/* frames a push */
#define RW_PACE_MS	20	/* between pushes */

struct rw {
	unsigned long k;	/* rewrites */
	unsigned long tx_ok, tx_err, rx_ok, rx_err, events;
	int extra;		/* the next RX response is an extra */
};

/* A response producer no backend wrote, by turns behind our consumer or
 * far ahead of it, and the rsp_event beside it: one past it (a
 * notification for every push) or far ahead (none wanted).
 */
static RING_IDX rw_garbage(unsigned long k, RING_IDX cons, RING_IDX *event)
{
	RING_IDX g;

	switch (k % 3) {
	case 0:
		g = cons - 1 - (RING_IDX)(k & 63);
		*event = g + 1;
		break;
	case 1:
		g = cons + 0x40000000u + (RING_IDX)k;
		*event = g + 1;
		break;
	default:
		g = cons - 1;
		*event = cons + 0x7fff0000u;
		break;
	}
	return g;
}

/* Put @g in place of @seen only if the backend has not written since we
 * read it: none of its values is lost, so none of its responses.
 */
static void rw_swap(RING_IDX *rsp_prod, RING_IDX seen, RING_IDX g)
{
	__sync_bool_compare_and_swap(rsp_prod, seen, g);
}

/* Take the TX responses shown; with @hostile, then rewrite rsp_prod,
 * rsp_event and req_event.
 */
static void rw_tx(struct fe *f, struct rw *s, int hostile)
{
	RING_IDX p = rd(&f->txs->rsp_prod), ev, g;

	xen_rmb();
	if (rsp_ok(p, f->tx_cons, f->tx_prod)) {
		while (f->tx_cons != p) {
			const netif_tx_response_t *r =
				&f->txs->ring[f->tx_cons % TXR].rsp;

			if (r->status == NETIF_RSP_OKAY) {
				s->tx_ok++;
				f->n_ok++;
			} else {
				s->tx_err++;
				f->n_err++;
			}
			f->n_resp++;
			f->tx_cons++;
		}
	}
	if (!hostile) {
		f->txs->rsp_event = f->tx_cons + 1;
		return;
	}
	g = rw_garbage(s->k++, f->tx_cons, &ev);
	rw_swap(&f->txs->rsp_prod, p, g);
	f->txs->rsp_event = ev;
	f->txs->req_event = (RING_IDX)(s->k * 2654435761u);
}

/* The same for RX, reposting what was taken. */
static void rw_rx(struct fe *f, struct rw *s, int hostile)
{
	RING_IDX p = rd(&f->rxs->rsp_prod), ev, g;

	xen_rmb();
	if (rsp_ok(p, f->rx_cons, f->rx_prod) && p != f->rx_cons) {
		while (f->rx_cons != p) {
			const netif_rx_response_t *r =
				&f->rxs->ring[f->rx_cons % RXR].rsp;

			if (s->extra) {
				s->extra = ((const netif_extra_info_t *)r)->flags &
					   XEN_NETIF_EXTRA_FLAG_MORE;
			} else {
				if (r->status < 0) {
					s->rx_err++;
					f->rx_err++;
				} else {
					s->rx_ok++;
					f->rx_ok++;
				}
				s->extra = !!(r->flags & NETRXF_extra_info);
			}
			f->rx_cons++;
		}
		post_rx(f);
	}
	if (!hostile) {
		f->rxs->rsp_event = f->rx_cons + 1;
		return;
	}
	g = rw_garbage(s->k++, f->rx_cons, &ev);
	rw_swap(&f->rxs->rsp_prod, p, g);
	f->rxs->rsp_event = ev;
	f->rxs->req_event = (RING_IDX)(s->k * 2246822519u);
}

/* @ms of traffic: frames to ourselves, RW_BATCH each RW_PACE_MS, while
 * dom0 sends to us; with @hostile every turn rewrites the fields.
 */
static void rw_phase(struct fe *f, struct rw *s, int hostile, int ms)
{
	long end = now_ms() + ms, next = 0, t;
	int i;

	frame(f, 0, 0, 60);
	while ((t = now_ms()) < end) {
		s->events += drain_events(f);
		rw_tx(f, s, hostile);
		rw_rx(f, s, hostile);
		if (t >= next && f->tx_prod - f->tx_cons <= TXR - RW_BATCH) {
			for (i = 0; i < RW_BATCH; i++)
				put(f, f->txref[0], 0, 0, (uint16_t)f->tx_prod,
				    60);
			push(f);
			next = t + RW_PACE_MS;
		}
	}
}

/* Leave a response producer a backend could have written: ours, where
 * it still stands, replaced by our consumer.
 */
static void rw_mend(RING_IDX *rsp_prod, RING_IDX cons, RING_IDX prod)
{
	RING_IDX p;

	for (;;) {
		p = rd(rsp_prod);
		if (rsp_ok(p, cons, prod) ||
		    __sync_bool_compare_and_swap(rsp_prod, p, cons))
			return;
	}
}

static void rw_report(const char *sub, const char *what,
		      const struct rw *s, const struct rw *s0, long ms)
{
	unsigned long tx = s->tx_ok - s0->tx_ok, rx = s->rx_ok - s0->rx_ok;
	unsigned long te = s->tx_err - s0->tx_err, ev = s->events - s0->events;

	report(47, sub, "flow", tx && rx && !te ? "flow" : "stuck",
	       "%s: %ld ms, tx ok %lu err %lu, rx ok %lu err %lu, events taken %lu (%.2f a response), rewrites %lu",
	       what, ms, tx, te, rx, s->rx_err - s0->rx_err, ev,
	       tx + rx ? (double)ev / (double)(tx + rx) : 0.0, s->k - s0->k);
}

/* 47: rsp_prod, rsp_event and req_event of both rings rewritten while
 * traffic flows.  dom0 reads only rsp_prod (the push's old value) and
 * rsp_event, for whether to notify: at most a notification a push.
 */
enum hostile_end case_ring_rewrite(struct fe *f)
{
	struct rw s = { 0 }, s0;
	unsigned long before;
	long t0;

	f->rx_manual = 1;
	ring_phase(f, 47, "rw-honest");
	t0 = now_ms();
	rw_phase(f, &s, 0, 8000);
	rw_report("a", "fields left to dom0", &s, &(struct rw){ 0 },
		  now_ms() - t0);
	s0 = s;
	ring_phase(f, 47, "rw-hostile");
	t0 = now_ms();
	rw_phase(f, &s, 1, 15000);
	rw_report("b", "fields rewritten", &s, &s0, now_ms() - t0);
	ring_phase(f, 47, "rw-after");
	rw_mend(&f->txs->rsp_prod, f->tx_cons, f->tx_prod);
	rw_mend(&f->rxs->rsp_prod, f->rx_cons, f->rx_prod);
	f->txs->rsp_event = f->tx_cons + 1;
	f->rxs->rsp_event = f->rx_cons + 1;
	f->rx_manual = 0;
	collect(f, f->tx_prod - f->tx_cons, 3000);
	check(f, 47, "c", "ok", chain_even(f, 1, 60));
	before = f->rx_ok;
	t0 = now_ms();
	while (f->rx_ok == before && now_ms() - t0 < 3000) {
		service_rx(f);
		usleep(20000);
	}
	report(47, "d", "rx", f->rx_ok > before ? "rx" : "none",
	       "rx packets after the rewrites %lu", f->rx_ok - before);
	ring_phase(f, 47, "-");
	return END_UP;
}

/* ---- 48: RX buffers withheld and posted, back and forth ---------------- */

/* Post one buffer and wait up to @ms for dom0 to fill it (service_rx
 * takes it and, with rx_post off, posts none).  1 when it was filled.
 */
static int flap_one(struct fe *f, int ms)
{
	unsigned long before = f->rx_ok + f->rx_err;
	long t0 = now_ms();

	if (f->rx_prod - f->rx_cons < NRX)
		rx_post_gref(f, f->rxref[f->rx_prod % NRX]);
	while (f->rx_ok + f->rx_err == before && now_ms() - t0 < ms) {
		service_rx(f);
		usleep(500);
	}
	return f->rx_ok + f->rx_err != before;
}

/* 48: while dom0 sends to us, (a) a buffer at a time, each as soon as
 * the last is filled: the queue blocks and unblocks as fast as both
 * sides go and must never stall; (b) none for a little longer than
 * rx_stall_timeout_msecs (dom0 writes it to data/hostile-rx-stall-ms),
 * then a few: the carrier goes off and on again each round.  dom0
 * counts its log lines and the bytes it queues meanwhile.
 */
enum hostile_end case_rx_flap(struct fe *f)
{
	unsigned long fill = 0, miss = 0, before;
	int stall_ms, rounds = 0, i;
	long t0, t;

	stall_ms = xs_int(f, "data/hostile-rx-stall-ms", 4000);
	if (stall_ms < 10 || stall_ms > 20000)
		stall_ms = 4000;
	/* From InitWait: connect without buffers. */
	f->rx_post = 0;
	if (connect_or_die(f, &honest, 48)) {
		f->rx_post = 1;
		return END_REFUSED;
	}
	/* dom0's traffic is ICMP to us: our own TX stays quiet. */
	ring_phase(f, 48, "flap-fast");
	t0 = now_ms();
	while (now_ms() - t0 < 8000) {
		if (flap_one(f, 200))
			fill++;
		else
			miss++;
	}
	report(48, "a", "flapped", fill >= 20 ? "flapped" : "few",
	       "one buffer at a time for %ld ms: %lu filled, %lu waits of 200 ms in vain",
	       now_ms() - t0, fill, miss);
	ring_phase(f, 48, "flap-stall");
	t0 = now_ms();
	while (rounds < 3) {
		t = now_ms();
		while (now_ms() - t < stall_ms + 1200) {
			service_rx(f);
			usleep(50000);
		}
		for (i = 0; i < 4; i++)
			flap_one(f, 100);
		rounds++;
	}
	report(48, "b", "done", "done",
	       "%d rounds of %d ms without buffers in %ld ms (rx_stall_timeout_msecs %d)",
	       rounds, stall_ms + 1200, now_ms() - t0, stall_ms);
	ring_phase(f, 48, "-");
	f->rx_post = 1;
	post_rx(f);
	before = f->rx_ok;
	t0 = now_ms();
	while (f->rx_ok == before && now_ms() - t0 < 3000) {
		service_rx(f);
		usleep(20000);
	}
	report(48, "c", "rx", f->rx_ok > before ? "rx" : "none",
	       "rx packets with buffers posted again %lu", f->rx_ok - before);
	check(f, 48, "d", "ok", chain_even(f, 1, 60));
	return END_UP;
}
