// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: the RX ring cases.  dom0 is provoked into sending to us (ARP
 * requests for an address it answers) while our RX buffers are missing,
 * bad, or the RX producer index misbehaves.  dom0 samples the vif with
 * the phase we publish in data/hostile-phase.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"

/* Publish a phase for dom0's sampler, and mark it in our output too. */
static void mark_phase(struct fe *f, int cs, const char *ph)
{
	set_phase(f, ph);
	printf("HOSTILE-MARK case=%d phase=%s\n", cs, ph);
	fflush(stdout);
}

/* Send the ARP request in TX page 0 once more (request @id), then give
 * dom0 0.1 s to answer.
 */
static void arp_again(struct fe *f, uint16_t id)
{
	put(f, f->txref[0], 0, 0, id, 60);
	push(f);
	collect(f, 1, 300);
	usleep(100000);
}

/* Take back the RX buffers posted at connect: reconnect without. */
static int connect_nobuf(struct fe *f, int cs)
{
	f->rx_post = 0;
	if (fe_reset(f))
		die("reset");
	return connect_or_die(f, &honest, cs);
}

/* 19: no RX buffers, then buffers again */
enum hostile_end case_rx_nobuf(struct fe *f)
{
	unsigned long before;
	long t0;
	int n = 0;

	if (connect_nobuf(f, 19))
		return END_REFUSED;
	/* Provoke dom0 into sending to us: ARP "who has 192.0.2.1"
	 * from our MAC, over and over, with no RX buffers posted.
	 */
	arp_request(f);
	/* dom0 samples the carrier together with this phase key. */
	set_phase(f, "nobuf");
	t0 = now_ms();
	while (now_ms() - t0 < 9000)
		arp_again(f, n++);
	before = f->rx_ok;
	report(19, "a", "none", f->rx_ok ? "some" : "none",
	       "arp requests sent=%d rx packets=%lu", n, f->rx_ok);
	printf("HOSTILE-MARK case=19 phase=buffers\n");
	fflush(stdout);
	set_phase(f, "buffers");
	f->rx_post = 1;
	post_rx(f);
	t0 = now_ms();
	/* At least 2 s in this phase, so dom0's 0.5 s sampler sees
	 * the carrier back even when the first packet comes at once.
	 */
	while (now_ms() - t0 < 6000 &&
	       (f->rx_ok == before || now_ms() - t0 < 2000))
		arp_again(f, n++);
	report(19, "b", "rx", f->rx_ok > before ? "rx" : "none",
	       "rx packets after posting=%lu", f->rx_ok - before);
	set_phase(f, "-");
	check(f, 19, "c", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* 20: RX requests with invalid grant refs */
enum hostile_end case_rx_bad_grefs(struct fe *f)
{
	unsigned long e0;
	int i;

	f->rx_post = 0;
	if (fe_reset(f))
		die("reset");
	f->rx_post = 1;
	f->rx_bad_gref = 0x0ffffff0;
	if (connect_or_die(f, &honest, 20))
		return END_REFUSED;
	arp_request(f);
	e0 = f->rx_err;
	for (i = 0; i < 40 && f->rx_err - e0 < 3; i++)
		arp_again(f, i);
	report(20, "a", "rx-error", f->rx_err > e0 && !f->rx_ok ? "rx-error" :
	       f->rx_ok ? "rx-ok" : "none", "rx errors=%lu ok=%lu",
	       f->rx_err - e0, f->rx_ok);
	/* Good buffers again: the ring must keep working.  The bad ones
	 * still posted (up to NRX) are answered first, one per reply.
	 */
	f->rx_bad_gref = 0;
	for (i = 0; i < NRX + 60 && !f->rx_ok; i++)
		arp_again(f, i);
	report(20, "b", "rx", f->rx_ok ? "rx" : "none",
	       "rx ok=%lu err=%lu", f->rx_ok, f->rx_err);
	check(f, 20, "c", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* dom0 queues a few ARP replies for us; with no buffers it drops them
 * after rx_drain_timeout_msecs (2 s in the lab scenario) and is left
 * waiting for buffers with nothing queued.
 */
static void provoke_and_drain(struct fe *f, const char *provoke,
			      const char *drain)
{
	long t0;
	int n = 0;

	arp_request(f);
	mark_phase(f, 28, provoke);
	t0 = now_ms();
	while (now_ms() - t0 < 1000)
		arp_again(f, n++);
	mark_phase(f, 28, drain);
	t0 = now_ms();
	while (now_ms() - t0 < 4000)
		collect(f, 1, 500);
}

/* 28: RX req_prod moved back and forth, then more than a ring ahead, with
 * a notification storm on the RX event channel and nothing queued for us
 * (dom0 drained what it had).  Every such event is spurious until the
 * impossible index, which must disable the vif.  dom0 counts the vif's
 * interrupts and pings g1 during the "wiggle" and "overflow" phases.
 */
enum hostile_end case_rx_wiggle(struct fe *f)
{
	long t0;
	unsigned long k = 0;
	RING_IDX base;
	int i;

	if (connect_nobuf(f, 28))
		return END_REFUSED;
	/* Requests the backend may find behind req_prod point at our own
	 * buffers, never at a stray grant.
	 */
	for (i = 0; i < (int)RXR; i++) {
		f->rxs->ring[i].req.id = i % NRX;
		f->rxs->ring[i].req.gref = f->rxref[i % NRX];
	}
	provoke_and_drain(f, "provoke-a", "drain-a");

	/* (a) within the ring: forward by 1..256, back to the backend's
	 * consumer (its responses tell where that is), notifying each time.
	 */
	mark_phase(f, 28, "wiggle");
	t0 = now_ms();
	while (now_ms() - t0 < 5000) {
		for (i = 0; i < 500; i++) {
			base = f->rxs->rsp_prod;
			xen_mb();
			f->rxs->req_prod = base + 1 + (k % RXR);
			xen_mb();
			notify_rx(f);
			f->rxs->req_prod = base;
			xen_mb();
			notify_rx(f);
			k += 2;
		}
		service_rx(f);
	}
	report(28, "a", "ok", "ok", "%lu RX notifications with req_prod moving in %ld ms, rx responses ok=%lu err=%lu",
	       k, now_ms() - t0, f->rx_ok, f->rx_err);

	/* (b) more than a ring ahead of the consumer: impossible.  From
	 * the same drained state as (a).
	 */
	provoke_and_drain(f, "provoke-b", "drain-b");
	mark_phase(f, 28, "overflow");
	base = f->rxs->rsp_prod;
	f->rxs->req_prod = base + RXR + 1000;
	xen_mb();
	t0 = now_ms();
	k = 0;
	while (now_ms() - t0 < 5000) {
		for (i = 0; i < 1000; i++)
			notify_rx(f);
		k += 1000;
	}
	/* dom0 measures each phase up to its first sample of the next. */
	mark_phase(f, 28, "after");
	report(28, "b", "ok", "ok", "%lu RX notifications with req_prod %u ahead in %ld ms",
	       k, (unsigned int)(RXR + 1000), now_ms() - t0);
	/* A disabled vif answers no TX request either. */
	check(f, 28, "c", "fatal", chain_even(f, 1, 60));
	return END_FATAL;
}

/* Wait up to @ms for the backend to reach @want; returns the last seen. */
static int be_wait(struct fe *f, int want, int ms)
{
	long end = now_ms() + ms;
	int s;

	while ((s = be_state(f)) != want && now_ms() < end)
		usleep(20000);
	return s;
}

/* Ask for RX headroom @val as netfront does when it attaches an XDP
 * program (Reconfiguring, wait for Reconfigured, Connected again), then
 * provoke dom0 into sending to us; returns the largest RX offset seen,
 * or -1 when the backend did not follow.
 */
static int xdp_round(struct fe *f, int cs, const char *sub, const char *val)
{
	unsigned long before;
	int s1, s2, n = 0;
	long t0;

	xs_put(f, "xdp-headroom", "%s", val);
	fe_state(f, XenbusStateReconfiguring);
	s1 = be_wait(f, XenbusStateReconfigured, 5000);
	fe_state(f, XenbusStateConnected);
	s2 = be_wait(f, XenbusStateConnected, 5000);
	if (s1 != XenbusStateReconfigured || s2 != XenbusStateConnected) {
		report(cs, sub, "followed", "stuck",
		       "xdp-headroom=%s backend states %d then %d", val, s1, s2);
		return -1;
	}
	/* Replies to the previous round's requests may still be on the
	 * ring or on their way: take them first.
	 */
	usleep(300000);
	service_rx(f);
	f->rx_off_max = 0;
	f->rx_end_max = 0;
	before = f->rx_ok;
	arp_request(f);
	t0 = now_ms();
	while (f->rx_ok == before && now_ms() - t0 < 5000)
		arp_again(f, n++);
	if (f->rx_ok == before)
		return -1;
	return f->rx_off_max;
}

/* 29: xdp-headroom beyond the limit, or junk */
enum hostile_end case_xdp_headroom(struct fe *f)
{
	static const struct {
		const char *sub, *val, *expect;
	} r[] = {
		{ "b", "256", "256" },		/* netfront's XDP_PACKET_HEADROOM */
		{ "c", "40000", "2048" },	/* above 0x7fff: clamped */
		{ "d", "32767", "2048" },	/* XEN_NETIF_MAX_XDP_HEADROOM */
		{ "e", "-5", "0" },		/* junk: none */
		{ "f", "0", "0" },
	};
	int s = backend_feature(f, "feature-xdp-headroom");
	unsigned int i;
	char got[32];

	report(29, "a", "1", s == 1 ? "1" : "missing",
	       "feature-xdp-headroom=%d", s);
	for (i = 0; i < sizeof(r) / sizeof(r[0]); i++) {
		int off = xdp_round(f, 29, r[i].sub, r[i].val);

		if (off < 0)
			snprintf(got, sizeof(got), "no-rx");
		else
			snprintf(got, sizeof(got), "%d", off);
		report(29, r[i].sub, r[i].expect, got,
		       "xdp-headroom=%s rx_ok=%lu max(offset+status)=%u",
		       r[i].val, f->rx_ok, f->rx_end_max);
		if (f->rx_end_max > PAGE)
			report(29, r[i].sub, "in-page", "past-page",
			       "offset+status=%u", f->rx_end_max);
	}
	return END_UP;
}
