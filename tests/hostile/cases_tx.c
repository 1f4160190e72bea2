// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: the guest TX request cases.  Each queues its crafted requests
 * on a connected ring and judges the responses (check(): the requests,
 * then a probe; report(): its own verdict).
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"

/* 1: producer more than a ring ahead */
enum hostile_end case_tx_overflow(struct fe *f)
{
	put(f, f->txref[0], 0, 0, 1, 60);
	f->tx_prod += TXR + 40;
	check(f, 1, "", "fatal", 1);
	return END_FATAL;
}

/* Case @cs: one slot of a @len-byte frame whose @flag promises a slot
 * after it (more data, extra info) that is never published: fatal.
 */
static enum hostile_end promise_past_prod(struct fe *f, int cs,
					  uint16_t flag, uint16_t len)
{
	frame(f, 0, 0, len);
	put(f, f->txref[0], 0, flag, 1, len);
	check(f, cs, "", "fatal", 1);
	return END_FATAL;
}

/* 3: more-data chain running past req_prod */
enum hostile_end case_chain_past_prod(struct fe *f)
{
	return promise_past_prod(f, 3, NETTXF_more_data, 200);
}

/* 4: 19 data slots: drop; first + 20 further: fatal */
enum hostile_end case_too_many_slots(struct fe *f)
{
	check(f, 4, "a", "drop", chain_even(f, 19, 100));
	check(f, 4, "b", "fatal", chain_even(f, 21, 100));
	return END_FATAL;
}

/* 5: runts */
enum hostile_end case_runts(struct fe *f)
{
	uint16_t sz[2];

	check(f, 5, "a", "drop", chain_even(f, 1, 13));
	sz[1] = 4;
	check(f, 5, "b", "drop", chain(f, 2, 10, sz, 0));
	check(f, 5, "c", "drop", chain_even(f, 1, 0));
	return END_UP;
}

/* 6: offset + size beyond the page in a later slot */
enum hostile_end case_slot_crosses_page(struct fe *f)
{
	put(f, f->txref[0], 0, NETTXF_more_data, 1, 160);
	frame(f, 0, 0, 60);
	put(f, f->txref[1], 4050, 0, 2, 100);
	check(f, 6, "", "fatal", 2);
	return END_FATAL;
}

/* @n slots after the first, each of @size bytes. */
static void sizes(uint16_t *sz, int n, uint16_t size)
{
	int i;

	for (i = 1; i <= n; i++)
		sz[i] = size;
}

/* 7: later slot larger than what remains */
enum hostile_end case_slot_too_large(struct fe *f)
{
	uint16_t sz[18];

	/* 100 bytes in all, 120 in the second slot (80 would be a
	 * valid packet: 20 bytes in the first slot, 80 after).
	 */
	sz[1] = 120;
	check(f, 7, "a", "drop", chain(f, 2, 100, sz, 0));
	/* 65535 total, 17 x 4096 after the first: beyond 64 KiB */
	sizes(sz, 17, 4096);
	check(f, 7, "b", "drop", chain(f, 18, 65535, sz, 0));
	/* 64 KiB - 1: 4095 bytes in the first slot, 15 full pages */
	check(f, 7, "c", "ok", chain(f, 16, 65535, sz, 0));
	return END_UP;
}

/* 8: zero-length slots */
enum hostile_end case_zero_slots(struct fe *f)
{
	uint16_t sz[18];

	sz[1] = 0; sz[2] = 100;
	check(f, 8, "a", "ok|drop", chain(f, 3, 200, sz, 0));
	sizes(sz, 5, 0);
	check(f, 8, "b", "ok|drop", chain(f, 6, 100, sz, 0));
	sizes(sz, 17, 0);
	check(f, 8, "c", "ok|drop", chain(f, 18, 60, sz, 0));
	return END_UP;
}

/* 9: headers in 1-byte slots */
enum hostile_end case_tiny_slots(struct fe *f)
{
	uint16_t sz[19];

	sizes(sz, 17, 1);
	check(f, 9, "a", "ok", chain(f, 18, 60, sz, 0));
	check(f, 9, "b", "ok", chain(f, 18, 18, sz, 0));
	sizes(sz, 18, 1);
	check(f, 9, "c", "drop", chain(f, 19, 128, sz, 0));
	return END_UP;
}

/* 10: the frag-array boundary */
enum hostile_end case_frag_boundary(struct fe *f)
{
	check(f, 10, "a", "ok", chain_even(f, 17, 1000));
	check(f, 10, "b", "ok", chain_even(f, 18, 1000));
	check(f, 10, "c", "drop", chain_even(f, 19, 1000));
	return END_UP;
}

/* 11: extra-info flag with no slot left */
enum hostile_end case_extra_no_slot(struct fe *f)
{
	return promise_past_prod(f, 11, NETTXF_extra_info, 60);
}

/* 12: repeated types (last wins), then type 0 */
enum hostile_end case_extra_types(struct fe *f)
{
	int n = tcp_frame(f, 1000, 0);

	put(f, f->txref[0], 0, NETTXF_extra_info | NETTXF_csum_blank, 1, n);
	put_extra(f, XEN_NETIF_EXTRA_TYPE_GSO, XEN_NETIF_EXTRA_FLAG_MORE,
		  1000, XEN_NETIF_GSO_TYPE_TCPV4);
	put_extra(f, XEN_NETIF_EXTRA_TYPE_GSO, 0, 536,
		  XEN_NETIF_GSO_TYPE_TCPV4);
	check(f, 12, "a", "ok|drop", 3);
	put(f, f->txref[0], 0, NETTXF_extra_info, 1, 60);
	put_extra(f, XEN_NETIF_EXTRA_TYPE_HASH, XEN_NETIF_EXTRA_FLAG_MORE, 0, 0);
	put_extra(f, XEN_NETIF_EXTRA_TYPE_HASH, 0, 0, 0);
	frame(f, 0, 0, 60);
	check(f, 12, "b", "ok", 3);
	put(f, f->txref[0], 0, NETTXF_extra_info, 1, 60);
	put_extra(f, 0, 0, 0, 0);
	check(f, 12, "c", "fatal", 2);
	return END_FATAL;
}

/* 13: GSO without L4 header: drop; GSO size 0: fatal */
enum hostile_end case_gso(struct fe *f)
{
	frame(f, 0, 0, 60);
	put(f, f->txref[0], 0, NETTXF_extra_info, 1, 60);
	put_extra(f, XEN_NETIF_EXTRA_TYPE_GSO, 0, 1400,
		  XEN_NETIF_GSO_TYPE_TCPV4);
	check(f, 13, "a", "drop", 2);
	put(f, f->txref[0], 0, NETTXF_extra_info, 1, 60);
	put_extra(f, XEN_NETIF_EXTRA_TYPE_GSO, 0, 0,
		  XEN_NETIF_GSO_TYPE_TCPV4);
	check(f, 13, "b", "fatal", 2);
	return END_FATAL;
}

/* 14: checksum-blank on a malformed IP packet */
enum hostile_end case_csum(struct fe *f)
{
	int n = tcp_frame(f, 40, 1);

	put(f, f->txref[0], 0, NETTXF_csum_blank, 1, n);
	check(f, 14, "a", "drop", 1);
	/* ihl 15 (74 bytes of headers) in 70: skb_checksum_setup()
	 * cannot reach the L4 header.  (At 100 bytes the headers fit
	 * and a bad IP total length is not its business: OK, rightly.)
	 */
	n = tcp_frame(f, 70, 1);
	put(f, f->txref[0], 0, NETTXF_csum_blank | NETTXF_data_validated, 1, n);
	check(f, 14, "b", "drop", 1);
	return END_UP;
}

/* One multicast request on a 60-byte dummy request: 2 slots. */
const char *mcast_req(struct fe *f, uint8_t type, uint8_t flags,
		      const uint8_t *addr, struct outcome *o)
{
	frame(f, 0, 0, 60);
	put(f, f->txref[0], 0, NETTXF_extra_info, 1, 60);
	put_mcast(f, type, flags, addr);
	return play(f, 2, o);
}

/* After a listen with the filter on: did only f->mc_a's group arrive? */
const char *mcast_filtered(const struct fe *f)
{
	if (!f->rx_mc_a)
		return "nothing";
	return f->rx_mc_b ? "leaked" : "filtered";
}

/* Count RX packets to f->mc_a and f->mc_b for 4 s in phase @ph. */
void mcast_listen(struct fe *f, const char *ph)
{
	long t0 = now_ms();

	f->rx_mc_a = 0;
	f->rx_mc_b = 0;
	set_phase(f, ph);
	while (now_ms() - t0 < 4000) {
		service_rx(f);
		usleep(50000);
	}
}

/* 15: multicast control: offered; ADD/DEL answered (DEL of an absent
 * address OKAY, ADD of a unicast address refused, flags beyond MORE
 * ignored, a 0-byte dummy is no runt), the 65th ADD refused and the
 * vif still up; more than 8 extras fatal.
 */
enum hostile_end case_mcast_extras(struct fe *f)
{
	static const uint8_t uni[6] = { 0x02, 0, 0, 0, 0, 1 };
	uint8_t grp[6] = { 0x01, 0x00, 0x5e, 0x00, 0x00, 0x01 };
	int s = backend_feature(f, "feature-multicast-control");
	int d = backend_feature(f, "feature-dynamic-multicast-control");
	int i, nok = 0, ndrop = 0, nother = 0;
	struct outcome o;
	const char *g;
	char got[64];

	report(15, "a", "1,1", s == 1 && d == 1 ? "1,1" : "missing",
	       "feature-multicast-control=%d dynamic=%d", s, d);
	xs_put(f, "request-multicast-control", "1");

	g = mcast_req(f, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, 0, grp, &o);
	report(15, "b", "ok", g, "ADD 01:00:5e:00:00:01");
	grp[5] = 0x7f;
	g = mcast_req(f, XEN_NETIF_EXTRA_TYPE_MCAST_DEL, 0, grp, &o);
	report(15, "c", "ok", g, "DEL of an address never added");
	grp[5] = 0x01;
	g = mcast_req(f, XEN_NETIF_EXTRA_TYPE_MCAST_DEL, 0, grp, &o);
	report(15, "d", "ok", g, "DEL 01:00:5e:00:00:01");
	g = mcast_req(f, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, 0, uni, &o);
	report(15, "e", "drop", g, "ADD of a unicast address");
	g = mcast_req(f, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, 0xfe, grp, &o);
	report(15, "f", "ok", g, "ADD with flags 0xfe (MORE clear)");

	/* 0 bytes of data: a dummy, not a runt. */
	grp[5] = 0x02;
	put(f, f->txref[0], 0, NETTXF_extra_info, 1, 0);
	put_mcast(f, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, 0, grp);
	check(f, 15, "g", "ok", 2);

	/* The filter, with dom0 sending to 224.0.0.251 (listed) and
	 * 224.0.0.252 (not) while our phase says so (hostile.sh).
	 */
	memcpy(f->mc_a, "\x01\x00\x5e\x00\x00\xfb", 6);
	memcpy(f->mc_b, "\x01\x00\x5e\x00\x00\xfc", 6);
	mcast_req(f, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, 0, f->mc_a, &o);
	mcast_listen(f, "mcast-on");
	report(15, "m", "filtered",
	       mcast_filtered(f),
	       "request-multicast-control=1: listed %lu, not listed %lu",
	       f->rx_mc_a, f->rx_mc_b);
	xs_put(f, "request-multicast-control", "0");
	mcast_listen(f, "mcast-off");
	report(15, "n", "flooded", f->rx_mc_b ? "flooded" : "filtered",
	       "request-multicast-control=0 (watched): listed %lu, not listed %lu",
	       f->rx_mc_a, f->rx_mc_b);
	xs_put(f, "request-multicast-control", "1");
	set_phase(f, "after");

	/* 3 in the list: 61 more fit, then the bound (64, as stock). */
	for (i = 0; i < 70; i++) {
		grp[4] = 1 + i;
		g = mcast_req(f, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, 0, grp, &o);
		if (!strcmp(g, "ok"))
			nok++;
		else if (!strcmp(g, "drop"))
			ndrop++;
		else
			nother++;
	}
	snprintf(got, sizeof(got), "ok%d,drop%d,other%d", nok, ndrop,
		 nother);
	report(15, "h", "ok61,drop9,other0", got,
	       "70 more ADDs past 3 listed, bound 64");
	xs_put(f, "request-multicast-control", "0");

	frame(f, 0, 0, 60);
	put(f, f->txref[0], 0, NETTXF_extra_info, 1, 60);
	for (i = 0; i < 65; i++)
		put_extra(f, XEN_NETIF_EXTRA_TYPE_MCAST_ADD,
			  i < 64 ? XEN_NETIF_EXTRA_FLAG_MORE : 0, 0x0001, i);
	check(f, 15, "i", "fatal", 66);
	return END_FATAL;
}

/* Push a batch of @n single-slot requests queued by the caller and
 * collect their responses (@ms at most); returns how many came.
 */
static int batch(struct fe *f, struct outcome *oc, int n, int ms)
{
	int got;

	push(f);
	memset(oc, 0, sizeof(*oc));
	got = collect(f, n, ms);
	tally(f, oc, 0, got);
	return got;
}

/* 16: invalid and revoked grant refs */
enum hostile_end case_bad_grefs(struct fe *f)
{
	struct outcome oc;
	uint32_t rref;
	uint8_t *rp;
	int i, n;

	frame(f, 0, 0, 60);
	put(f, 0x0fffffff, 0, 0, 1, 60);
	check(f, 16, "a", "drop", 1);
	put(f, f->txref[0], 0, NETTXF_more_data, 1, 160);
	put(f, 0x00ffff00, 0, 0, 2, 100);
	check(f, 16, "b", "drop", 2);
	/* mixed batch: good, bad, good */
	put(f, f->txref[0], 0, 0, 1, 60);
	put(f, 0x0ffffffe, 0, 0, 2, 60);
	put(f, f->txref[0], 0, 0, 3, 60);
	n = batch(f, &oc, 3, 3000);
	report(16, "c", "ok-drop-ok",
	       n == 3 && f->last[0].status == 0 && f->last[1].status < 0 &&
	       f->last[2].status == 0 ? "ok-drop-ok" : "other",
	       "responses=%d statuses=%d,%d,%d", n,
	       n > 0 ? f->last[0].status : 99, n > 1 ? f->last[1].status : 99,
	       n > 2 ? f->last[2].status : 99);
	/* revoked: share a page, unshare it, use its ref */
	rp = xengntshr_share_pages(f->gs, f->bedom, 1, &rref, 1);
	if (!rp)
		die("share");
	xengntshr_unshare(f->gs, rp, 1);
	put(f, rref, 0, 0, 1, 60);
	check(f, 16, "d", "drop", 1);
	/* many bad refs in one batch */
	for (i = 0; i < 200; i++)
		put(f, 0x0f000000 + i, 0, 0, i, 60);
	n = batch(f, &oc, 200, 5000);
	report(16, "e", "drop", n == 200 && oc.err == 200 ? "drop" : "other",
	       "responses=%d err=%d", n, oc.err);
	check(f, 16, "f", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* 17: a second thread keeps rewriting the size word of requests already
 * published (between two valid values); the backend must copy each
 * request once and answer every one, echoing the ids.
 */
struct flipper {
	struct fe *f;
	volatile int stop;
	unsigned long flips;
};

static void *flip_thread(void *arg)
{
	struct flipper *fl = arg;
	struct fe *f = fl->f;

	while (!fl->stop) {
		unsigned int i;

		for (i = 0; i < TXR; i++) {
			/* Only the 16-bit size: a read-modify-write of the
			 * word it shares with the id would race with put()
			 * writing a new id (the test corrupting its own ids).
			 */
			volatile uint16_t *w = &f->txs->ring[i].req.size;
			uint16_t size = *w;

			if (size == 60 || size == 1400)
				*w = size == 60 ? 1400 : 60;
		}
		fl->flips++;
	}
	return NULL;
}

enum hostile_end case_doublefetch(struct fe *f)
{
	struct flipper fl = { .f = f };
	pthread_t t;
	int i, n, total = 0, bad = 0;

	frame(f, 0, 0, 1400);
	pthread_create(&t, NULL, flip_thread, &fl);
	for (i = 0; i < 40; i++) {
		int k;

		for (k = 0; k < 50; k++)
			put(f, f->txref[k % NTX], 0, 0, (uint16_t)(i * 50 + k), 60);
		push(f);
		n = collect(f, 50, 5000);
		for (k = 0; k < n; k++)
			if (f->last[k].id != (uint16_t)(i * 50 + k) ||
			    f->last[k].status != NETIF_RSP_OKAY)
				bad++;
		total += n;
		if (n < 50)
			break;
	}
	fl.stop = 1;
	pthread_join(t, NULL);
	report(17, "a", "ok", total == 2000 && !bad ? "ok" : total < 2000 ?
	       "fatal" : "other", "requests=2000 answered=%d bad=%d flips=%lu",
	       total, bad, fl.flips);
	check(f, 17, "b", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* 18: duplicate and random request ids: echoed */
enum hostile_end case_ids(struct fe *f)
{
	int bad = 0, i, n;
	uint16_t ids[100];

	frame(f, 0, 0, 60);
	for (i = 0; i < 100; i++) {
		ids[i] = i < 50 ? 0xffff : (uint16_t)(rand() ^ (i << 9));
		put(f, f->txref[0], 0, 0, ids[i], 60);
	}
	push(f);
	n = collect(f, 100, 5000);
	for (i = 0; i < n; i++)
		if (f->last[i].id != ids[i] || f->last[i].status)
			bad++;
	report(18, "", "ok", n == 100 && !bad ? "ok" : "other",
	       "responses=%d mismatched=%d", n, bad);
	check(f, 18, "b", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* 27: rate: dom0 set a small credit (or one that wraps) before we
 * connected
 */
enum hostile_end case_rate(struct fe *f)
{
	long t0 = now_ms();
	uint16_t sz[3];
	int got, i;

	frame(f, 0, 0, 1400);
	for (i = 0; i < 40; i++)
		put(f, f->txref[0], 0, 0, i, 1400);
	/* larger than any credit of 1000 bytes: one 9000-byte chain */
	push(f);
	got = collect(f, 40, 60000);
	report(27, "a", "ok", got == 40 && f->n_err == 0 ? "ok" : "other",
	       "40x1400 bytes answered=%d in %ld ms", got, now_ms() - t0);
	t0 = now_ms();
	sz[1] = 4000; sz[2] = 3000;
	check(f, 27, "b", "ok", chain(f, 3, 9000, sz, 0));
	report(27, "c", "ok", "ok", "9000-byte packet + probe in %ld ms",
	       now_ms() - t0);
	return END_UP;
}

/* ---- GSO input (40-42) ---------------------------------------------------- */

/* A GSO packet: an IPv4 frame of @len bytes whose IP protocol is @l4
 * (6 TCP, 17 UDP), TCP header of @doff words, with a GSO extra of @type
 * and @size.
 */
struct gso_pkt {
	unsigned int len;
	uint8_t l4, doff;
	uint8_t type;
	uint16_t size;
};

/* Its headers in TX page 0.  A UDP frame keeps tcp_frame()'s 0x50 at
 * byte 46, its payload's fifth byte: where a TCP header has doff, 5.
 * A TCP header of more than 5 words gets NOP options.
 */
static void gso_frame(struct fe *f, const struct gso_pkt *g)
{
	uint8_t *p = f->tx;
	unsigned int i;

	tcp_frame(f, g->len, 0);
	p[23] = g->l4;
	if (g->l4 == 17) {
		p[38] = (g->len - 34) >> 8;	/* UDP length, no checksum */
		p[39] = (g->len - 34) & 0xff;
		return;
	}
	p[46] = g->doff << 4;
	for (i = 54; i < 34 + 4u * g->doff; i++)
		p[i] = 1;
}

/* Queue one such packet as netfront would: csum_blank, the GSO extra,
 * up to a page in the first slot (page 0) and full pages after it.
 * Returns its slots.
 */
static int gso_put(struct fe *f, const struct gso_pkt *g, uint16_t id)
{
	unsigned int full = g->len > PAGE ? (g->len - 1) / PAGE : 0, i;

	put(f, f->txref[0], 0, NETTXF_csum_blank | NETTXF_extra_info |
	    (full ? NETTXF_more_data : 0), id, g->len);
	put_extra(f, XEN_NETIF_EXTRA_TYPE_GSO, 0, g->size, g->type);
	for (i = 1; i <= full; i++)
		put(f, f->txref[i], 0, i < full ? NETTXF_more_data : 0, id, PAGE);
	return 2 + full;
}

/* Check @sub of case @cs: @rounds pushes of @per copies of @g, each
 * followed by the probe; the verdict is the first round's that is not
 * @expect, or the last one's.  Many copies of a packet that is dropped
 * show whether dom0 logs a line per packet (hostile.sh counts them).
 */
static const char *gso_check(struct fe *f, int cs, const char *sub,
			     const char *expect, const struct gso_pkt *g,
			     int per, int rounds, const char *what)
{
	const char *got = "none";
	struct outcome o = { 0 };
	int r, k, n = 0;

	for (r = 0; r < rounds; r++) {
		gso_frame(f, g);
		for (k = 0, n = 0; k < per; k++)
			n += gso_put(f, g, (uint16_t)(r * per + k));
		got = play(f, n, &o);
		if (strcmp(got, expect))
			break;
	}
	report(cs, sub, expect, got,
	       "%s: %d x %d packets of %u bytes, GSO type %u size %u; last push: slots=%d responses=%d ok=%d err=%d null=%d other=%d probe=%d",
	       what, r < rounds ? r + 1 : rounds, per, g->len, g->type,
	       g->size, n, o.got, o.ok, o.err, o.null, o.other, o.probe);
	return got;
}

#define GSO_V4 XEN_NETIF_GSO_TYPE_TCPV4
#define GSO_V6 XEN_NETIF_GSO_TYPE_TCPV6

/* 40: GSO sizes against the vif's gso_max_segs, which hostile.sh lowers
 * to 64 (and writes to data/hostile-gso-max-segs) for this case: within
 * it OK, more dropped.  Size 1 on a 65,535-byte packet is honest (a
 * forwarding guest's GRO makes such sizes): raised to 8, the least TCP
 * segment, it makes 8186 segments, dropped under the lowered limit
 * and under the driver's default (1366).
 */
enum hostile_end case_gso_tiny(struct fe *f)
{
	int lim = xs_int(f, "data/hostile-gso-max-segs", 0);
	struct gso_pkt g = { 65535, 6, 5, GSO_V4, 1448 };
	char what[64];

	/* 65,481 bytes of payload: 46 segments of 1448 */
	gso_check(f, 40, "a", lim > 0 && lim < 46 ? "drop" : "ok", &g, 1, 1,
		  "46 segments");
	/* 66 of 1000 */
	snprintf(what, sizeof(what), "66 segments, gso_max_segs %d%s", lim,
		 lim ? "" : " (not lowered by dom0)");
	g.size = 1000;
	gso_check(f, 40, "b", lim > 0 && lim < 66 ? "drop" : "ok", &g, 14, 5,
		  what);
	/* 446 bytes of payload: 56 segments of the least size */
	g = (struct gso_pkt){ 500, 6, 5, GSO_V4, 8 };
	gso_check(f, 40, "c", lim > 0 && lim < 56 ? "drop" : "ok", &g, 10, 1,
		  "GSO size 8, 56 segments");
	/* Without dom0's limit: the vif's own, 1366 with our driver (a
	 * drop), the kernel's 65535 with stock's (OK).
	 */
	g = (struct gso_pkt){ 65535, 6, 5, GSO_V4, 1 };
	gso_check(f, 40, "d", lim > 0 && lim < 8186 ? "drop" : "drop|ok", &g,
		  1, 1, "GSO size 1, raised to 8: 8186 segments");
	return END_UP;
}

/* 41: a TCPv4 GSO type on a UDP frame, and other headers a TCP GSO type
 * cannot be trusted on: drop, 100 packets each; then headers that fit.
 */
enum hostile_end case_gso_not_tcp(struct fe *f)
{
	struct gso_pkt g = { 42, 17, 5, GSO_V4, 1448 };

	gso_check(f, 41, "a", "drop", &g, 100, 1,
		  "UDP frame ending with its header");
	g.len = 1000;
	gso_check(f, 41, "b", "drop", &g, 100, 1,
		  "UDP frame, payload byte 4 = 0x50 (doff 5)");
	g = (struct gso_pkt){ 1000, 6, 5, GSO_V6, 1448 };
	gso_check(f, 41, "c", "drop", &g, 100, 1, "TCPv6 type on IPv4/TCP");
	g = (struct gso_pkt){ 1000, 6, 2, GSO_V4, 536 };
	gso_check(f, 41, "d", "drop", &g, 100, 1, "TCP doff 2 (8 bytes)");
	g = (struct gso_pkt){ 80, 6, 15, GSO_V4, 8 };
	gso_check(f, 41, "e", "drop", &g, 100, 1,
		  "TCP doff 15, options past the frame");
	g = (struct gso_pkt){ 1000, 6, 15, GSO_V4, 536 };
	gso_check(f, 41, "f", "ok", &g, 1, 1, "TCP doff 15, payload after");
	g = (struct gso_pkt){ 3000, 6, 5, GSO_V4, 1448 };
	gso_check(f, 41, "g", "ok", &g, 1, 1, "TCPv4");
	return END_UP;
}

/* 42: GSO size 0xffff, the kernel's GSO_BY_FRAGS: fatal; the largest
 * size a segment can have (65,481) before it is fine.
 */
enum hostile_end case_gso_by_frags(struct fe *f)
{
	struct gso_pkt g = { 3000, 6, 5, GSO_V4, 65481 };

	gso_check(f, 42, "a", "ok", &g, 1, 1, "GSO size 65481");
	g = (struct gso_pkt){ 65535, 6, 5, GSO_V4, 0xffff };
	gso_check(f, 42, "b", "fatal", &g, 1, 1, "GSO size 0xffff");
	return END_FATAL;
}

/* ---- GSO segment amplification next to a neighbour (44) ---------------- */

/* Each phase lasts until dom0 acknowledges it, this long at most. */
#define GSO_PHASE_MS 180000
/* dom0 writes a phase's name to GSO_ACK once it measured g1 in it; the
 * MAC of its sink is in GSO_SINK.
 */
#define GSO_ACK "data/hostile-gso-ack"
#define GSO_SINK "data/hostile-gso-sink"
/* 64 KiB packets a push: 15 of 17 slots fill 255 of the 256. */
#define GSO_FLOOD_BATCH 15

/* Phase @ph: 65,535-byte TCPv4 GSO packets to @sink, GSO sizes @lo..@hi
 * in turn, a ring's worth a push, as fast as the backend answers, until
 * dom0 acknowledges the phase.  The responses are tallied in @o; "ok",
 * "drop" (every data slot an error), "mixed", "stalled" (a push not
 * answered within 5 s) or "timeout" (no acknowledgement).
 */
static const char *gso_flood(struct fe *f, const char *ph, const uint8_t *sink,
			     uint16_t lo, uint16_t hi, struct outcome *o,
			     unsigned long *sent, long *ms)
{
	struct gso_pkt g = { 65535, 6, 5, GSO_V4, lo };
	long t0 = now_ms();
	int k, n, got;

	memset(o, 0, sizeof(*o));
	*sent = 0;
	gso_frame(f, &g);
	memcpy(f->tx, sink, 6);
	set_phase(f, ph);
	while (!xs_is(f, GSO_ACK, ph)) {
		if (now_ms() - t0 > GSO_PHASE_MS) {
			*ms = now_ms() - t0;
			return "timeout";
		}
		for (k = 0, n = 0; k < GSO_FLOOD_BATCH; k++) {
			n += gso_put(f, &g, (uint16_t)*sent);
			++*sent;
			g.size = g.size >= hi ? lo : g.size + 1;
		}
		push(f);
		got = collect(f, n, 5000);
		tally(f, o, 0, got);
		o->got += got;
		if (got < n) {
			*ms = now_ms() - t0;
			return "stalled";
		}
	}
	*ms = now_ms() - t0;
	if (o->other || !o->got)
		return "mixed";
	if (!o->ok)
		return "drop";
	return o->err ? "mixed" : "ok";
}

/* 44: GSO segment amplification.  dom0 (hostile.sh) pins this vif and
 * g1's to one worker group, bridges a sink without TSO (a veth whose far
 * end sits in a namespace of its own), so that what is sent there is cut
 * into its segments in the group's pass, and writes the sink's MAC to
 * data/hostile-gso-sink.  Three phases, each held until dom0, having
 * measured g1 meanwhile, writes its name to data/hostile-gso-ack:
 * gso-alone (nothing sent), gso-tiny (GSO sizes 1..47, raised to 8
 * below it: more segments than the vif's gso_max_segs, each packet
 * dropped) and gso-48 (1365 segments, within it: OK, cut in dom0).
 */
enum hostile_end case_gso_flood(struct fe *f)
{
	static const struct {
		const char *sub, *ph, *expect;
		uint16_t lo, hi;
	} phases[] = {
		{ "c", "gso-tiny", "drop", 1, 47 },
		{ "d", "gso-48", "ok", 48, 48 },
	};
	uint8_t sink[6];
	struct outcome o;
	unsigned long sent;
	const char *got;
	unsigned int i;
	long t0, ms;

	if (!report(44, "a", "sink",
		    xs_mac(f, GSO_SINK, sink) ? "sink" : "none",
		    "data/hostile-gso-sink from dom0"))
		return END_UP;
	t0 = now_ms();
	set_phase(f, "gso-alone");
	while (!xs_is(f, GSO_ACK, "gso-alone") && now_ms() - t0 < GSO_PHASE_MS)
		usleep(200000);
	if (!report(44, "b", "acked", xs_is(f, GSO_ACK, "gso-alone") ?
		    "acked" : "timeout", "g1 measured alone in %ld ms",
		    now_ms() - t0))
		return END_UP;
	for (i = 0; i < sizeof(phases) / sizeof(phases[0]); i++) {
		got = gso_flood(f, phases[i].ph, sink, phases[i].lo,
				phases[i].hi, &o, &sent, &ms);
		report(44, phases[i].sub, phases[i].expect, got,
		       "%s: %lu packets of 65535 bytes, GSO size %u..%u, in %ld ms (%.1f/s); responses=%d ok=%d err=%d null=%d other=%d",
		       phases[i].ph, sent, phases[i].lo, phases[i].hi, ms,
		       ms ? sent * 1000.0 / ms : 0.0, o.got, o.ok, o.err,
		       o.null, o.other);
		if (!strcmp(got, "stalled") || !strcmp(got, "timeout"))
			break;
	}
	set_phase(f, "-");
	check(f, 44, "e", "ok", 0);
	return END_UP;
}
