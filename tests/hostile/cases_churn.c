// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: churn on a live connection.  The multicast list rewritten as
 * fast as the ring takes it (49), the frontend's own "state" deleted or
 * made no number while frames flow (50), and reconnects with fewer
 * queues while the hash mapping and the packets dom0 queued still name
 * the queues that go (51).  Each runs in phases (data/hostile-phase)
 * during which dom0 samples its log, its slab and g1's ping
 * (scenarios/hostile.sh).
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"
#include "../common/rss_key.h"

/* ---- 49: multicast ADD/DEL churn ----------------------------------------- */

#define CHURN49_MS	20000
#define CHURN49_ADDRS	4096	/* distinct group addresses drawn from */
#define CHURN49_BATCH	127	/* requests a push: 254 of the 256 slots */
#define MCAST_BOUND	64	/* the backend's list, as stock's */

/* Group address @k of the churn: 01:00:5e:40:00:00 and up. */
static void churn_addr(uint8_t *a, unsigned int k)
{
	a[0] = 0x01;
	a[1] = 0x00;
	a[2] = 0x5e;
	a[3] = 0x40 | ((k >> 16) & 0x3f);
	a[4] = (uint8_t)(k >> 8);
	a[5] = (uint8_t)k;
}

/* What the backend's list must hold (its entries, duplicates too), and
 * the tallies of the run.
 */
struct churn {
	unsigned int list[MCAST_BOUND];
	int n, peak;
	unsigned long ops, add_ok, add_full, del, bad, pushes;
};

/* One request applied to the model; returns whether the backend must
 * answer it OKAY: an ADD with the list full is refused, a DEL is OKAY,
 * of an address not listed too.
 */
static int churn_apply(struct churn *c, int add, unsigned int k)
{
	int i;

	c->ops++;
	if (add) {
		if (c->n >= MCAST_BOUND) {
			c->add_full++;
			return 0;
		}
		c->list[c->n++] = k;
		if (c->n > c->peak)
			c->peak = c->n;
		c->add_ok++;
		return 1;
	}
	c->del++;
	for (i = 0; i < c->n; i++) {
		if (c->list[i] == k) {
			c->list[i] = c->list[--c->n];
			break;
		}
	}
	return 1;
}

/* The next request (1: ADD): ADDs and DELs that keep the list about
 * the bound, a DEL mostly of a listed address, sometimes of any.
 */
static int churn_pick(const struct churn *c, unsigned int *k)
{
	int r = rand() % 100;

	if (r < (c->n < MCAST_BOUND ? 60 : 20)) {
		*k = rand() % CHURN49_ADDRS;
		return 1;
	}
	if (c->n && r % 10)
		*k = c->list[rand() % c->n];
	else
		*k = rand() % CHURN49_ADDRS;
	return 0;
}

/* Queue @n requests (ADD when @add[i], of address @key[i]) on dummy
 * 60-byte requests, push them, and check each answer against @ok[i]:
 * the request's slot OKAY or an error, with its id, the extra's NULL.
 * Returns -1 when they were not all answered within 5 s, else the
 * number of answers not as expected.
 */
static int churn_push(struct fe *f, int n, const int *add,
		      const unsigned int *key, const int *ok)
{
	int i, bad = 0;
	uint8_t a[6];

	for (i = 0; i < n; i++) {
		churn_addr(a, key[i]);
		put(f, f->txref[0], 0, NETTXF_extra_info, (uint16_t)i, 60);
		put_mcast(f, add[i] ? XEN_NETIF_EXTRA_TYPE_MCAST_ADD :
		       XEN_NETIF_EXTRA_TYPE_MCAST_DEL, 0, a);
	}
	push(f);
	if (collect(f, 2 * n, 5000) < 2 * n)
		return -1;
	for (i = 0; i < n; i++) {
		const netif_tx_response_t *r = &f->last[2 * i];

		if (r->id != i || r->status == NETIF_RSP_NULL ||
		    (r->status == NETIF_RSP_OKAY) != !!ok[i] ||
		    f->last[2 * i + 1].status != NETIF_RSP_NULL)
			bad++;
	}
	return bad;
}

/* 49: on a fresh connection (an empty list), with the filter on, for
 * 20 s the program pushes MCAST_ADD and MCAST_DEL extras a ring at a
 * time, as fast as the backend answers, over 4096 group addresses,
 * keeping its list about the bound of 64.
 * Every answer must be the one a list bounded at 64 gives (an ADD with
 * 64 listed refused, anything else OKAY); dom0 samples its slab, log
 * and g1's ping meanwhile (phase mcchurn).  Then the list is emptied,
 * one group listed, and only that group arrives while dom0 sends to it
 * and another (as in case 15).
 */
enum hostile_end case_mcast_churn(struct fe *f)
{
	static struct churn c;
	int add[CHURN49_BATCH], ok[CHURN49_BATCH];
	unsigned int key[CHURN49_BATCH];
	int s = backend_feature(f, "feature-multicast-control");
	int i, r, stalled = 0, left_bad = 0;
	struct outcome o;
	long t0, ms;

	memset(&c, 0, sizeof(c));
	if (!report(49, "a", "1", s == 1 ? "1" : "missing",
		    "feature-multicast-control=%d", s))
		return END_REFUSED;
	if (connect_or_die(f, &honest, 49))
		return END_REFUSED;
	xs_put(f, "request-multicast-control", "1");
	frame(f, 0, 0, 60);
	set_phase(f, "mcchurn");
	t0 = now_ms();
	while (!stalled && now_ms() - t0 < CHURN49_MS) {
		for (i = 0; i < CHURN49_BATCH; i++) {
			add[i] = churn_pick(&c, &key[i]);
			ok[i] = churn_apply(&c, add[i], key[i]);
		}
		r = churn_push(f, CHURN49_BATCH, add, key, ok);
		if (r < 0)
			stalled = 1;
		else
			c.bad += r;
		c.pushes++;
	}
	ms = now_ms() - t0;
	/* dom0's sampler takes one more sample within the phase. */
	usleep(1000000);
	set_phase(f, "-");
	report(49, "b", "ok", stalled ? "stalled" : c.bad ? "mismatch" : "ok",
	       "%lu ADD/DEL in %ld ms (%ld a second, %lu pushes): %lu ADD listed, %lu ADD refused, %lu DEL; %lu answers not as a list of %d gives",
	       c.ops, ms, ms ? (long)(c.ops * 1000 / ms) : 0, c.pushes,
	       c.add_ok, c.add_full, c.del, c.bad, MCAST_BOUND);
	report(49, "c", "bound", c.add_full && c.peak == MCAST_BOUND && !c.bad ?
	       "bound" : "not-reached", "the list peaked at %d, ADDs refused there %lu",
	       c.peak, c.add_full);
	if (stalled)
		return END_UP;

	/* Emptied: from its first refused ADD the backend floods multicast
	 * until its list is empty again.
	 */
	while (c.n && !stalled) {
		int n;

		for (n = 0; n < CHURN49_BATCH && c.n; n++) {
			add[n] = 0;
			key[n] = c.list[c.n - 1];
			ok[n] = churn_apply(&c, 0, key[n]);
		}
		r = churn_push(f, n, add, key, ok);
		if (r < 0)
			stalled = 1;
		else
			left_bad += r;
	}
	report(49, "d", "empty", stalled ? "stalled" : left_bad ? "mismatch" :
	       "empty", "every listed address deleted: %d answers not OKAY",
	       left_bad);

	memcpy(f->mc_a, "\x01\x00\x5e\x00\x00\xfb", 6);
	memcpy(f->mc_b, "\x01\x00\x5e\x00\x00\xfc", 6);
	mcast_req(f, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, 0, f->mc_a, &o);
	mcast_listen(f, "mcast-on");
	set_phase(f, "-");
	report(49, "e", "filtered", mcast_filtered(f),
	       "one group listed after the churn: listed %lu, not listed %lu",
	       f->rx_mc_a, f->rx_mc_b);
	mcast_req(f, XEN_NETIF_EXTRA_TYPE_MCAST_DEL, 0, f->mc_a, &o);
	xs_put(f, "request-multicast-control", "0");
	check(f, 49, "f", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* ---- 50: the frontend's state deleted or no number ----------------------- */

#define BAD50_MS	10000
#define BAD50_FRAMES	16	/* frames pushed after each write */
#define BAD50_WAIT_MS	10000	/* for Connected after a valid state */

/* The frontend's "state" written as @v, octets as given (NULL deletes
 * it); 0 when xenstored took it.
 */
static int state_raw(struct fe *f, const char *v)
{
	char path[96];

	snprintf(path, sizeof(path), "%s/state", f->fp);
	if (!v)
		return xs_rm(f->xs, XBT_NULL, path) ? 0 : -1;
	return xs_write(f->xs, XBT_NULL, path, v, strlen(v)) ? 0 : -1;
}

/* @n frames to our own MAC in one push; *@ok: how many were answered
 * OKAY.  Returns the answers within 2 s.
 */
static int frames(struct fe *f, int n, int *ok)
{
	int i, got;

	for (i = 0; i < n; i++)
		put(f, f->txref[0], 0, 0, (uint16_t)i, 60);
	push(f);
	got = collect(f, n, 2000);
	*ok = 0;
	for (i = 0; i < got && i < f->nlast; i++)
		if (f->last[i].status == NETIF_RSP_OKAY)
			++*ok;
	return got;
}

/* 50: while frames flow, the program deletes its own "state", then
 * writes "abc", "", "4x" and "99999999999" there, in a loop for 10 s,
 * each write followed by a push of 16 frames (phase badstate).  The
 * xenbus core reads the first three as Unknown, "4x" as 4 (Connected)
 * and the last as a state out of range.  With its directory there, an
 * Unknown is the guest's doing, not the toolstack removing the device:
 * the backend goes Closing as for any state a frontend may not write
 * (within its budget of log lines), "4x" takes it back to Connected;
 * the connection stays and (a) every frame is answered OKAY.  (b) A
 * valid Connected at the end leaves the backend Connected, (c) the
 * probe works.
 */
enum hostile_end case_state_garbage(struct fe *f)
{
	static const char *const bad[] = {
		NULL, "abc", "", "4x", "99999999999",
	};
	unsigned long writes = 0, werr = 0, sent = 0, answered = 0, okay = 0;
	int seen[4] = { 0 };	/* Closing, Connected, Closed, other */
	int i, k, got, s, lost = 0;
	long t0, ms;

	frame(f, 0, 0, 60);
	set_phase(f, "badstate");
	t0 = now_ms();
	while (!lost && now_ms() - t0 < BAD50_MS) {
		for (i = 0; i < (int)(sizeof(bad) / sizeof(bad[0])); i++) {
			if (state_raw(f, bad[i]))
				werr++;
			writes++;
			got = frames(f, BAD50_FRAMES, &k);
			sent += BAD50_FRAMES;
			answered += got;
			okay += k;
			s = be_state(f);
			seen[s == XenbusStateClosing ? 0 :
			     s == XenbusStateConnected ? 1 :
			     s == XenbusStateClosed ? 2 : 3]++;
			if (got < BAD50_FRAMES) {
				lost = 1;
				break;
			}
		}
	}
	ms = now_ms() - t0;
	fe_state(f, XenbusStateConnected);
	t0 = now_ms();
	while ((s = be_state(f)) != XenbusStateConnected &&
	       now_ms() - t0 < BAD50_WAIT_MS)
		usleep(20000);
	usleep(1000000);
	set_phase(f, "-");
	report(50, "a", "ok", lost ? "lost" : okay < sent ? "errors" : "ok",
	       "%lu writes (deleted, abc, empty, 4x, 99999999999) in %ld ms, %lu refused; %lu frames, %lu answered, %lu OKAY; backend Closing %d, Connected %d, Closed %d, other %d",
	       writes, ms, werr, sent, answered, okay, seen[0], seen[1],
	       seen[2], seen[3]);
	report(50, "b", "connected", s == XenbusStateConnected ? "connected" :
	       "other", "state 4 written last: backend state %d after %ld ms",
	       s, now_ms() - t0);
	if (s != XenbusStateConnected) {
		f->connected = 0;
		return END_REFUSED;
	}
	check(f, 50, "c", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* ---- 51: fewer queues at reconnect ----------------------------------------- */

#define MQ_BUFS		16	/* RX buffers a queue: pages q * 16 on */
#define MQ_TABLE	128	/* mapping entries */
#define MQ_FILL_MS	8000	/* dom0's acknowledgement awaited */
#define MQ_FLOW_MS	4000	/* dom0's packets listened for */
#define MQ_FLOW_MIN	5	/* of them, at least */

static const uint8_t mq_dom0_ip[4] = { 192, 0, 2, 1 };
static const uint8_t mq_our_ip[4] = { 192, 0, 2, 99 };

/* The RX side of a connection, served by the case (fe.c's service_rx
 * knows queue 0 only): buffers posted on the queues below @serve.
 */
struct mq {
	int nq, serve;
	RING_IDX prod[FE_MAXQ], cons[FE_MAXQ];
	unsigned long pings[FE_MAXQ];	/* dom0's ICMP to our address */
	unsigned long hashed;		/* of them, with a hash extra */
};

static netif_rx_sring_t *mq_rxs(struct fe *f, int q)
{
	return q ? f->mq[q].rxs : f->rxs;
}

static void mq_post(struct fe *f, struct mq *m, int q)
{
	netif_rx_sring_t *r = mq_rxs(f, q);
	int posted = 0;

	while (q < m->serve && m->prod[q] - m->cons[q] < MQ_BUFS) {
		netif_rx_request_t *req = &r->ring[m->prod[q] % RXR].req;
		int b = m->prod[q] % MQ_BUFS;

		req->id = b;
		req->gref = f->rxref[q * MQ_BUFS + b];
		m->prod[q]++;
		posted = 1;
	}
	if (!posted)
		return;
	xen_wmb();
	r->req_prod = m->prod[q];
	xen_mb();
	xenevtchn_notify(f->xce, q ? f->mq[q].port : f->prx);
}

/* dom0's ICMP packet to our address, @len octets at @p? */
static int mq_is_ping(const uint8_t *p, unsigned int len)
{
	return len >= 34 && p[12] == 0x08 && p[13] == 0x00 && p[23] == 1 &&
	       !memcmp(p + 26, mq_dom0_ip, 4) && !memcmp(p + 30, mq_our_ip, 4);
}

/* Take every queue's RX responses, count dom0's packets, repost. */
static void mq_poll(struct fe *f, struct mq *m)
{
	int q;

	for (q = 0; q < m->nq; q++) {
		netif_rx_sring_t *r = mq_rxs(f, q);
		RING_IDX p = r->rsp_prod;

		xen_rmb();
		while (m->cons[q] != p) {
			netif_rx_response_t rsp = r->ring[m->cons[q] % RXR].rsp;
			int more = rsp.flags & NETRXF_extra_info, hashed = 0;

			m->cons[q]++;
			while (more && m->cons[q] != p) {
				netif_extra_info_t ex;

				memcpy(&ex, &r->ring[m->cons[q] % RXR].rsp,
				       sizeof(ex));
				m->cons[q]++;
				if (ex.type == XEN_NETIF_EXTRA_TYPE_HASH)
					hashed = 1;
				more = ex.flags & XEN_NETIF_EXTRA_FLAG_MORE;
			}
			if (rsp.status > 0 &&
			    rsp.offset + (unsigned int)rsp.status <= PAGE &&
			    mq_is_ping(f->rx + (q * MQ_BUFS + rsp.id % MQ_BUFS) *
				       PAGE + rsp.offset,
				       (unsigned int)rsp.status)) {
				m->pings[q]++;
				m->hashed += hashed;
			}
		}
		r->rsp_event = m->cons[q] + 1;
		xen_mb();
		mq_post(f, m, q);
	}
}

static const char *mq_status(int st)
{
	switch (st) {
	case XEN_NETIF_CTRL_STATUS_SUCCESS: return "ok";
	case XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER: return "invalid";
	case XEN_NETIF_CTRL_STATUS_NOT_SUPPORTED: return "not-supported";
	case -1: return "no-response";
	default: return "other";
	}
}

static int mq_ctrl(struct fe *f, uint16_t type, uint32_t d0, uint32_t d1)
{
	return ctrl_call(f, type, d0, d1, 0, NULL, 5000);
}

/* The whole table to queue @q; the request's status. */
static int mq_map(struct fe *f, uint32_t q)
{
	int i;

	for (i = 0; i < MQ_TABLE; i++)
		((uint32_t *)f->cdata)[i] = q;
	return mq_ctrl(f, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING, f->cdata_ref,
		       MQ_TABLE);
}

/* Toeplitz on, a table of MQ_TABLE entries (zero-filled); with @flags
 * the hash types and the RSS key.  Returns the requests not ok.
 */
static int mq_hash_on(struct fe *f, uint32_t flags)
{
	int bad = 0;

	bad += mq_ctrl(f, XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM,
		       XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ, 0) != 0;
	if (flags) {
		bad += mq_ctrl(f, XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS, flags,
			       0) != 0;
		memcpy(f->cdata, xnb_rss_key, sizeof(xnb_rss_key));
		bad += mq_ctrl(f, XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
			       f->cdata_ref, sizeof(xnb_rss_key)) != 0;
	}
	bad += mq_ctrl(f, XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE, MQ_TABLE,
		       0) != 0;
	return bad;
}

/* Connect with @nq queues (rings of their own past the first; the key
 * multi-queue-num-queues written, 1 too) and a control ring, buffers
 * posted on every queue; the ARP request that makes the bridge learn
 * our MAC.  0 when connected.
 */
static int mq_connect(struct fe *f, struct mq *m, int nq)
{
	struct conn_opts o = honest;
	int q;

	o.nq = nq;
	o.nq_keys = nq;
	o.mq_rings = nq > 1;
	o.ctrl = 1;
	memset(m, 0, sizeof(*m));
	m->nq = nq;
	m->serve = nq;
	if (fe_connect(f, &o))
		return -1;
	for (q = 0; q < nq; q++)
		mq_post(f, m, q);
	arp_request(f);
	put(f, f->txref[0], 0, 0, 0, 60);
	push(f);
	collect(f, 1, 2000);
	return 0;
}

/* Serve every queue for @ms in phase @ph. */
static void mq_serve(struct fe *f, struct mq *m, const char *ph, int ms)
{
	long t0 = now_ms();

	set_phase(f, ph);
	while (now_ms() - t0 < ms) {
		mq_poll(f, m);
		usleep(20000);
	}
}

/* Phase mq-fill: the last queue gets no more buffers, and dom0 sends to
 * us (hostile.sh) until the case ends: steered there, its packets wait
 * in dom0.  dom0 writes data/hostile-mq-ack ("queue N: ...") once it
 * saw them queued for that queue (data/hostile-mq-top), or gave up;
 * its value, NULL when none for this queue came within MQ_FILL_MS (the
 * caller frees it).
 */
static char *mq_fill(struct fe *f, struct mq *m)
{
	char top[16], want[24], *ack = NULL;
	long t0 = now_ms();

	xs_rm(f->xs, XBT_NULL, "data/hostile-mq-ack");
	snprintf(top, sizeof(top), "%d", m->nq - 1);
	snprintf(want, sizeof(want), "queue %d:", m->nq - 1);
	xs_write(f->xs, XBT_NULL, "data/hostile-mq-top", top, strlen(top));
	m->serve = m->nq - 1;
	set_phase(f, "mq-fill");
	while (now_ms() - t0 < MQ_FILL_MS) {
		mq_poll(f, m);
		usleep(50000);
		ack = xs_get(f, "data/hostile-mq-ack");
		if (ack && !strncmp(ack, want, strlen(want)))
			return ack;
		free(ack);
		ack = NULL;
	}
	return NULL;
}

/* The next check's letter. */
static const char *mq_sub(char *sub)
{
	sub[0]++;
	return sub;
}

/* 51: connect with up to 4 queues and a control ring, steer every flow
 * to the last queue (Toeplitz, the whole table naming it) and post no
 * buffers there while dom0 sends to us: its packets wait in dom0 on
 * that queue (the driver's queue and the netdev queue's qdisc).  Then
 * reconnect with 2 queues (when there were more), sending no hash
 * request: a new connection starts without hashing, so dom0's packets
 * come in on the queues there are, unhashed, and a table naming the old
 * last queue is refused on the new ring.  Steer to the new last queue,
 * fill it, and reconnect with 1 (multi-queue-num-queues=1).  dom0
 * checks that it selected no queue beyond the real count (no "selects
 * TX queue" line), that the packets queued for the queues that went
 * were freed (their qdiscs empty) and g1's ping, and that it saw the
 * packets queued before each reconnect.
 */
enum hostile_end case_fewer_queues(struct fe *f)
{
	static struct mq m;
	int max = backend_feature(f, "multi-queue-max-queues");
	int qs[3], ns = 0, st, q, old_top = -1, s1, s2;
	unsigned long below, flow;
	char sub[2] = { 'a' - 1, 0 }, per[64], *ack;
	enum hostile_end end = END_UP;

	if (max < 2) {
		report(51, "a", "skipped", "skipped",
		       "backend offers %d queue(s)", max);
		return honest_after(f, 51, 'b', "honest connect");
	}
	qs[ns++] = max < 4 ? max : 4;
	if (qs[0] > 2)
		qs[ns++] = 2;
	qs[ns++] = 1;
	f->rx_post = 0;
	f->rx_manual = 1;
	for (st = 0; st < ns; st++) {
		int nq = qs[st];

		if (st) {
			set_phase(f, "mq-reconnect");
			if (fe_reset(f))
				die("reset before %d queue(s): backend state %d",
				    nq, be_state(f));
		}
		if (!report(51, mq_sub(sub), "connected",
			    mq_connect(f, &m, nq) ? "refused" : "connected",
			    "%d queue(s) (multi-queue-num-queues=%d), a control ring",
			    nq, nq)) {
			end = END_REFUSED;
			break;
		}
		if (st) {
			mq_serve(f, &m, "mq-flow", MQ_FLOW_MS);
			for (q = 0, flow = 0, per[0] = 0; q < nq; q++) {
				flow += m.pings[q];
				snprintf(per + strlen(per), sizeof(per) - strlen(per),
					 "%s%lu", q ? "/" : "", m.pings[q]);
			}
			report(51, mq_sub(sub), "flows",
			       flow >= MQ_FLOW_MIN ? "flows" : "none",
			       "%d queue(s) after %d: %lu of dom0's packets in %d ms, per queue %s",
			       nq, qs[st - 1], flow, MQ_FLOW_MS, per);
			report(51, mq_sub(sub), "unhashed",
			       m.hashed ? "hashed" : "unhashed",
			       "no hash request yet: %lu of them with a hash extra",
			       m.hashed);
			s1 = mq_hash_on(f, 0) ? -1 : mq_map(f, old_top);
			s2 = mq_map(f, 0);
			report(51, mq_sub(sub), "invalid", s1 == 0 ?
			       "ok" : s2 != 0 ? "other" : mq_status(s1),
			       "a table all queue %d on %d queue(s): %s; all queue 0: %s",
			       old_top, nq, mq_status(s1), mq_status(s2));
		}
		if (st == ns - 1)
			break;
		old_top = nq - 1;
		s1 = mq_hash_on(f, XEN_NETIF_CTRL_HASH_TYPE_IPV4 |
				XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP);
		s2 = mq_map(f, old_top);
		report(51, mq_sub(sub), "ok", s1 || s2 ? "failed" : "ok",
		       "Toeplitz, IPv4 and IPv4/TCP, %d entries all queue %d: %d setup requests not ok, the table %s",
		       MQ_TABLE, old_top, s1, mq_status(s2));
		ack = mq_fill(f, &m);
		for (q = 0, below = 0; q < old_top; q++)
			below += m.pings[q];
		report(51, mq_sub(sub), "acked", ack ? "acked" : "none",
		       "dom0 on queue %d: %s; dom0's packets on the queues below it %lu",
		       old_top, ack ? ack : "no answer", below);
		free(ack);
	}
	set_phase(f, "-");
	xs_rm(f->xs, XBT_NULL, "data/hostile-mq-ack");
	xs_rm(f->xs, XBT_NULL, "data/hostile-mq-top");
	/* fe.c serves queue 0 again from where the case left it. */
	f->rx_prod = m.prod[0];
	f->rx_cons = m.cons[0];
	f->rx_manual = 0;
	f->rx_post = 1;
	if (end != END_UP)
		return end;
	post_rx(f);
	check(f, 51, mq_sub(sub), "ok", chain_even(f, 1, 60));
	return END_UP;
}
