// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: floods of valid frames beside a neighbour in the same worker
 * group (52): the guest's fair share of the group, not the checks of a
 * malformed request.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"

/* Each phase lasts until dom0 acknowledges it, this long at most. */
#define FLOOD_PHASE_MS 120000
/* dom0 writes a phase's name to FLOOD_ACK once it measured g1 in it;
 * the MAC of its sink is in FLOOD_SINK.
 */
#define FLOOD_ACK "data/hostile-flood-ack"
#define FLOOD_SINK "data/hostile-flood-sink"
/* A flood's frame: 64 bytes, Ethernet, IPv4 and UDP headers included. */
#define FLOOD_LEN 64
/* RX buffers kept posted on each queue while it floods, and left posted
 * on queues 1.. when it ends (nothing recycles theirs afterwards).
 */
#define FLOOD_RX_BUFS 64
#define FLOOD_RX_LEFT 200
/* Every queue's frame lives at its own offset of TX page 1. */
#define FLOOD_TX_PAGE 1
#define FLOOD_FRAME_OFF(q) ((q) * 128u)

/* One queue's rings, with our indices: queue 0 is struct fe's own. */
struct flood_q {
	netif_tx_sring_t *txs;
	netif_rx_sring_t *rxs;
	RING_IDX tx_prod, tx_cons, rx_prod, rx_cons;
	int ptx, prx;
	unsigned long sent, ok, bad;
};

static uint16_t ip_csum(const uint8_t *h, unsigned int len)
{
	uint32_t s = 0;
	unsigned int i;

	for (i = 0; i + 1 < len; i += 2)
		s += (uint32_t)h[i] << 8 | h[i + 1];
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (uint16_t)~s;
}

/* Queue @q's frame: IPv4/UDP from port 40000 + @q to the discard port
 * of 192.0.2.98, to @sink, with a valid header checksum (UDP's 0: none).
 */
static void flood_frame(struct fe *f, const uint8_t *sink, int q)
{
	uint8_t *p = f->tx + FLOOD_TX_PAGE * PAGE + FLOOD_FRAME_OFF(q);
	uint16_t c;

	memset(p, 0, FLOOD_LEN);
	memcpy(p, sink, 6);
	memcpy(p + 6, f->mac, 6);
	p[12] = 0x08;
	p[13] = 0x00;
	p[14] = 0x45;
	p[16] = 0;
	p[17] = FLOOD_LEN - 14;
	p[22] = 64;
	p[23] = 17;			/* UDP */
	p[26] = 192; p[27] = 0; p[28] = 2; p[29] = 99;
	p[30] = 192; p[31] = 0; p[32] = 2; p[33] = 98;
	c = ip_csum(p + 14, 20);
	p[24] = c >> 8;
	p[25] = c & 0xff;
	p[34] = (40000 + q) >> 8;
	p[35] = (40000 + q) & 0xff;
	p[36] = 0;
	p[37] = 9;
	p[38] = 0;
	p[39] = FLOOD_LEN - 34;
}

static void flood_rx_post(struct fe *f, struct flood_q *m, unsigned int want)
{
	RING_IDX old = m->rxs->req_prod;

	while (m->rx_prod - m->rx_cons < want) {
		netif_rx_request_t *r = &m->rxs->ring[m->rx_prod % RXR].req;

		r->id = m->rx_prod % NRX;
		r->gref = f->rxref[m->rx_prod % NRX];
		m->rx_prod++;
	}
	if (m->rx_prod == old)
		return;
	xen_wmb();
	m->rxs->req_prod = m->rx_prod;
	xen_mb();
	xenevtchn_notify(f->xce, m->prx);
}

/* What dom0 sent us is not looked at: consumed, the buffers posted again. */
static int flood_rx(struct fe *f, struct flood_q *m)
{
	RING_IDX p = m->rxs->rsp_prod;
	int n;

	xen_rmb();
	n = p != m->rx_cons;
	m->rx_cons = p;
	m->rxs->rsp_event = m->rx_cons + 1;
	flood_rx_post(f, m, FLOOD_RX_BUFS);
	return n;
}

/* Answers to our frames, tallied; returns how many came. */
static int flood_tx_collect(struct flood_q *m)
{
	RING_IDX p = m->txs->rsp_prod;
	int n = 0;

	xen_rmb();
	while (m->tx_cons != p) {
		netif_tx_response_t r = m->txs->ring[m->tx_cons % TXR].rsp;

		m->tx_cons++;
		n++;
		if (r.status == NETIF_RSP_OKAY)
			m->ok++;
		else
			m->bad++;
	}
	m->txs->rsp_event = m->tx_cons + 1;
	xen_mb();
	return n;
}

/* The ring filled with queue @q's frame, a notification if the backend
 * asked for one (netif.h's RING_PUSH_REQUESTS_AND_CHECK_NOTIFY).
 */
static void flood_tx_fill(struct fe *f, struct flood_q *m, int q)
{
	RING_IDX old = m->tx_prod;

	while (m->tx_prod - m->tx_cons < TXR) {
		netif_tx_request_t *r = &m->txs->ring[m->tx_prod % TXR].req;

		r->gref = f->txref[FLOOD_TX_PAGE];
		r->offset = FLOOD_FRAME_OFF(q);
		r->flags = 0;
		r->id = m->tx_prod % TXR;
		r->size = FLOOD_LEN;
		m->tx_prod++;
		m->sent++;
	}
	if (m->tx_prod == old)
		return;
	xen_wmb();
	m->txs->req_prod = m->tx_prod;
	xen_mb();
	if ((RING_IDX)(m->tx_prod - m->txs->req_event) <
	    (RING_IDX)(m->tx_prod - old))
		xenevtchn_notify(f->xce, m->ptx);
}

/* Phase @ph: every queue's ring kept full of its frame, as fast as the
 * backend answers, until dom0 acknowledges the phase; then what is in
 * flight is collected.  "ok" (every frame answered OK), "mixed",
 * "stalled" (no answer for 5 s with frames in flight) or "timeout" (no
 * acknowledgement).
 */
static const char *flood_run(struct fe *f, struct flood_q *mq, int nq,
			     const char *ph, long *ms)
{
	long t0 = now_ms(), last = t0, look = 0;
	int q, moved, flying;

	set_phase(f, ph);
	for (;;) {
		if (now_ms() - look >= 200) {
			look = now_ms();
			if (xs_is(f, FLOOD_ACK, ph))
				break;
			if (look - t0 > FLOOD_PHASE_MS) {
				*ms = look - t0;
				return "timeout";
			}
		}
		for (q = 0, moved = 0; q < nq; q++) {
			moved += flood_tx_collect(&mq[q]);
			flood_rx(f, &mq[q]);
			flood_tx_fill(f, &mq[q], q);
		}
		if (moved) {
			last = now_ms();
			continue;
		}
		if (now_ms() - last > 5000) {
			*ms = now_ms() - t0;
			return "stalled";
		}
		wait_event(f, 10);
	}
	*ms = now_ms() - t0;
	/* What is in flight, answered. */
	last = now_ms();
	do {
		for (q = 0, flying = 0; q < nq; q++) {
			flood_tx_collect(&mq[q]);
			flood_rx(f, &mq[q]);
			flying += mq[q].tx_prod != mq[q].tx_cons;
		}
		if (flying)
			wait_event(f, 10);
	} while (flying && now_ms() - last < 5000);
	if (flying)
		return "stalled";
	for (q = 0; q < nq; q++)
		if (mq[q].bad || !mq[q].ok)
			return "mixed";
	return "ok";
}

/* 52: valid 64-byte UDP frames flooded on every queue (4 at most) beside
 * g1 in the same worker group.  dom0 (hostile.sh) gives this vif 4
 * queues, pins it and g1's to one group and bridges a sink, as for case
 * 44, and writes the sink's MAC to data/hostile-flood-sink.  Two phases,
 * each held until dom0, having measured g1 meanwhile, writes its name to
 * data/hostile-flood-ack: flood-alone (nothing sent) and flood-64 (every
 * queue's ring kept full).  dom0 judges g1's share; the program, that
 * every frame was answered OK and the vif still works.
 */
enum hostile_end case_udp_flood(struct fe *f)
{
	static struct flood_q mq[FE_MAXQ];
	int max = backend_feature(f, "multi-queue-max-queues");
	struct conn_opts o = honest;
	unsigned long sent = 0, ok = 0, bad = 0;
	uint8_t sink[6];
	const char *got;
	long t0, ms;
	int q, nq;

	if (!report(52, "a", "sink",
		    xs_mac(f, FLOOD_SINK, sink) ? "sink" : "none",
		    "data/hostile-flood-sink from dom0"))
		return honest_after(f, 52, 'e', "honest connect");
	nq = max < 4 ? max : 4;
	if (nq < 1)
		nq = 1;
	if (nq > 1) {
		o.nq = nq;
		o.nq_keys = nq;
		o.mq_rings = 1;
	}
	if (connect_or_die(f, &o, 52))
		return END_REFUSED;
	report(52, "b", "connected", "connected",
	       "%d queue(s) of the backend's %d", nq, max);

	memset(mq, 0, sizeof(mq));
	mq[0].txs = f->txs;
	mq[0].rxs = f->rxs;
	mq[0].tx_prod = f->tx_prod;
	mq[0].tx_cons = f->tx_cons;
	mq[0].rx_prod = f->rx_prod;
	mq[0].rx_cons = f->rx_cons;
	mq[0].ptx = f->ptx;
	mq[0].prx = f->prx;
	for (q = 1; q < nq; q++) {
		mq[q].txs = f->mq[q].txs;
		mq[q].rxs = f->mq[q].rxs;
		mq[q].ptx = f->mq[q].port;
		mq[q].prx = f->mq[q].port;
	}
	/* Queue 0's buffers are ours until the flood ends. */
	f->rx_manual = 1;
	f->rx_post = 0;
	for (q = 0; q < nq; q++) {
		flood_frame(f, sink, q);
		flood_rx_post(f, &mq[q], FLOOD_RX_BUFS);
	}

	t0 = now_ms();
	set_phase(f, "flood-alone");
	while (!xs_is(f, FLOOD_ACK, "flood-alone") &&
	       now_ms() - t0 < FLOOD_PHASE_MS) {
		for (q = 0; q < nq; q++)
			flood_rx(f, &mq[q]);
		usleep(200000);
	}
	if (!report(52, "c", "acked", xs_is(f, FLOOD_ACK, "flood-alone") ?
		    "acked" : "timeout", "g1 measured alone in %ld ms",
		    now_ms() - t0))
		goto out;
	got = flood_run(f, mq, nq, "flood-64", &ms);
	for (q = 0; q < nq; q++) {
		sent += mq[q].sent;
		ok += mq[q].ok;
		bad += mq[q].bad;
	}
	report(52, "d", "ok", got,
	       "flood-64: %lu frames of %u bytes on %d queue(s) in %ld ms (%.0f/s); ok=%lu other=%lu",
	       sent, FLOOD_LEN, nq, ms, ms ? sent * 1000.0 / ms : 0.0, ok,
	       bad);
out:
	set_phase(f, "-");
	/* Queues 1.. keep buffers for what dom0 sends them until the next
	 * invocation resets the connection: nothing recycles theirs.
	 */
	for (q = 1; q < nq; q++) {
		flood_rx(f, &mq[q]);
		flood_rx_post(f, &mq[q], FLOOD_RX_LEFT);
	}
	flood_rx(f, &mq[0]);
	f->tx_prod = mq[0].tx_prod;
	f->tx_cons = mq[0].tx_cons;
	f->rx_prod = mq[0].rx_prod;
	f->rx_cons = mq[0].rx_cons;
	f->rx_manual = 0;
	f->rx_post = 1;
	post_rx(f);
	check(f, 52, "e", "ok", 0);
	return END_UP;
}
