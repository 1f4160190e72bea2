// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: floods of xenstore writes that the backend reacts to.  Each
 * flood runs in a phase of its own (data/hostile-phase: xsflood,
 * badconn, mcflood) during which dom0 samples its kernel log, its slab
 * and g1's ping (scenarios/hostile.sh).  The lab's counts are scaled
 * down to take seconds under TCG; --full gives the issue's.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"

/* A phase lasts at least this long, and this long after its last
 * write, so that dom0's sampler (a sample every 0.5 s, slower while it
 * pings) has a sample in it and the backend has caught up.
 */
#define PHASE_MIN_MS	2000
#define PHASE_TAIL_MS	1000

static void end_phase(struct fe *f, long t0)
{
	long left = PHASE_MIN_MS - (now_ms() - t0);

	if (left < PHASE_TAIL_MS)
		left = PHASE_TAIL_MS;
	usleep(left * 1000);
	set_phase(f, "-");
}

/* The backend's state once it is @want or in the mask @bad, or after
 * @ms.  Polled every 2 ms: fe.c's 20 ms would make a loop of connects
 * mostly sleep.
 */
static int be_wait_fast(struct fe *f, int want, unsigned int bad, int ms)
{
	long end = now_ms() + ms;
	int s;

	for (;;) {
		s = be_state(f);
		if (s == want || (s >= 0 && s < 32 && (bad & (1u << s))))
			return s;
		if (now_ms() > end)
			return s;
		usleep(2000);
	}
}

/* ---- 35: states a frontend may not write -------------------------------- */

#define FLOOD35		2000
#define FLOOD35_FULL	10000

/* 35: state 2 (InitWait), 8 (Reconfigured) and values above 8, written
 * in a loop on a live connection: the backend goes Closing at the
 * first and stays there; dom0 checks that its log grew by a few lines
 * only and that g1 kept answering.  Then a proper reset and an honest
 * reconnect.
 */
enum hostile_end case_state_flood(struct fe *f)
{
	static const int bad[] = {
		XenbusStateInitWait, XenbusStateReconfigured, 9, 10, 42, 255,
		1000000,
	};
	int n = full_counts ? FLOOD35_FULL : FLOOD35;
	long t0 = now_ms(), ms;
	int i, s;

	set_phase(f, "xsflood");
	for (i = 0; i < n; i++)
		fe_state(f, bad[i % (int)(sizeof(bad) / sizeof(bad[0]))]);
	ms = now_ms() - t0;
	s = be_wait_fast(f, XenbusStateClosing, 0, 10000);
	end_phase(f, t0);
	report(35, "a", "closing", s == XenbusStateClosing ? "closing" : "other",
	       "%d writes of state 2, 8, 9, 10, 42, 255, 1000000 in %ld ms (%ld us a write), backend state %d",
	       n, ms, ms * 1000 / n, s);
	if (fe_reset(f))
		die("reset after the state flood: backend state %d",
		    be_state(f));
	return honest_after(f, 35, 'b', "honest reconnect after the flood");
}

/* ---- 36: a loop of connects that fail ----------------------------------- */

#define CONNECTS36	60
#define CONNECTS36_FULL	200
/* The back-off holds a frontend 8 s at most (XNB_CONNECT_HOLD_MAX_MS);
 * the rest is the lab's slack.
 */
#define RECOVER36_MS	20000

/* 36: Initialising -> Connected in a loop, with a tx-ring-ref that is
 * no grant: every connect refused (the backend tries the first few,
 * then refuses the rest unread as it backs off); dom0 checks its log
 * and g1's ping.  Then a proper reset: an honest connect succeeds once
 * the back-off's hold is over.
 */
enum hostile_end case_bad_connects(struct fe *f)
{
	int n = full_counts ? CONNECTS36_FULL : CONNECTS36;
	int i, k, s, refused = 0, up = 0, stuck = 0;
	struct conn_opts o = honest;
	long t0, ms;

	o.tx_ref_str = "268435455";	/* no such grant */
	o.timeout_ms = 15000;
	set_phase(f, "badconn");
	t0 = now_ms();
	/* The first shares the rings and writes the keys; the others only
	 * go Initialising, wait for InitWait and go Connected again.
	 */
	for (i = 0; i < n; i++) {
		if (i == 0) {
			s = fe_connect(f, &o) ? be_state(f) :
			    XenbusStateConnected;
		} else {
			fe_state(f, XenbusStateInitialising);
			s = be_wait_fast(f, XenbusStateInitWait, 0, 10000);
			if (s != XenbusStateInitWait) {
				stuck++;
				break;
			}
			fe_state(f, XenbusStateConnected);
			s = be_wait_fast(f, XenbusStateClosing,
					 (1u << XenbusStateConnected) |
					 (1u << XenbusStateClosed), 10000);
		}
		if (s == XenbusStateClosing || s == XenbusStateClosed) {
			refused++;
		} else if (s == XenbusStateConnected) {
			up++;
			break;
		} else {
			stuck++;
			break;
		}
	}
	ms = now_ms() - t0;
	end_phase(f, t0);
	report(36, "a", "refused", refused == n ? "refused" :
	       up ? "connected" : "stuck",
	       "%d connects with tx-ring-ref 268435455 in %ld ms: %d refused, %d connected, %d stuck",
	       i < n ? i + 1 : n, ms, refused, up, stuck);

	if (fe_reset(f))
		die("reset after the bad connects: backend state %d",
		    be_state(f));
	t0 = now_ms();
	for (k = 0; fe_connect(f, &honest); k++) {
		if (now_ms() - t0 > RECOVER36_MS)
			break;
		if (fe_reset(f))
			die("reset after a refused honest connect: backend state %d",
			    be_state(f));
		usleep(250000);
	}
	report(36, "b", "connected", f->connected ? "connected" : "refused",
	       "honest connect after the loop: %d refused first, %ld ms",
	       k, now_ms() - t0);
	if (!f->connected)
		return END_REFUSED;
	check(f, 36, "c", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* ---- 39: request-multicast-control flood -------------------------------- */

#define WRITES39	20000
#define WRITES39_FULL	100000
/* The flood goes on at least this long (dom0 attaches a vif to g1
 * meanwhile and times its connect) and stops at the latest after the
 * cap, whatever the count.
 */
#define MIN39_MS	20000
#define MAX39_MS	60000
#define MAX39_FULL_MS	900000
#define WRITERS39	2
#define RECONNECTS39	3
/* A frontend's Closing is answered within this, flood or not. */
#define CLOSING39_MS	5000

struct mc_writer {
	pthread_t thread;
	struct fe *f;
	int id;
	unsigned long done, errors;
};

static int mc_stop;
static unsigned long mc_total;

/* One writer: its own xenstore connection, a node of its own below the
 * key, small values as fast as xenstored takes them.  Each write fires
 * the backend's watch on the key.
 */
static void *mc_write(void *arg)
{
	struct mc_writer *w = arg;
	struct xs_handle *xs = xs_open(0);
	char path[160], val[24];
	int len;

	if (!xs) {
		w->errors++;
		return NULL;
	}
	snprintf(path, sizeof(path), "%s/request-multicast-control/w%d",
		 w->f->fp, w->id);
	while (!__atomic_load_n(&mc_stop, __ATOMIC_RELAXED)) {
		len = snprintf(val, sizeof(val), "%lu", w->done);
		if (!xs_write(xs, XBT_NULL, path, val, len)) {
			if (++w->errors > 100)
				break;
			usleep(10000);
			continue;
		}
		w->done++;
		__atomic_add_fetch(&mc_total, 1, __ATOMIC_RELAXED);
	}
	xs_close(xs);
	return NULL;
}

/* The writers' nodes below the key, then the key's value: "0" padded
 * with spaces to about the longest xenstored takes (its default entry
 * quota is 2048 octets, the names of the children included: they come
 * first, so that adding them cannot push the key past it), so that each
 * read of it by the backend costs more than each of our writes.
 * Returns the value's length.
 */
static int mc_pad_key(struct fe *f)
{
	static const int len[] = { 1800, 1000, 500, 100, 1 };
	char path[160], *v;
	unsigned int i;
	int ok = 0;

	for (i = 0; i < WRITERS39; i++) {
		snprintf(path, sizeof(path), "request-multicast-control/w%u",
			 i);
		xs_put(f, path, "0");
	}
	snprintf(path, sizeof(path), "%s/request-multicast-control", f->fp);
	v = malloc(len[0]);
	if (!v)
		die("malloc");
	memset(v, ' ', len[0]);
	v[0] = '0';
	for (i = 0; i < sizeof(len) / sizeof(len[0]) && !ok; i++)
		ok = xs_write(f->xs, XBT_NULL, path, v, len[i]);
	free(v);
	if (!ok)
		die("xs_write %s", path);
	return len[i - 1];
}

/* Serve RX for @ms (the connection stays healthy meanwhile). */
static void serve(struct fe *f, int ms)
{
	long end = now_ms() + ms;

	while (now_ms() < end) {
		service_rx(f);
		usleep(50000);
	}
}

static int flood_done(unsigned long limit, long t0, long max_ms)
{
	long t = now_ms() - t0;

	return t >= max_ms || (t >= MIN39_MS &&
			       __atomic_load_n(&mc_total, __ATOMIC_RELAXED) >=
			       limit);
}

/* 39: while two threads write request-multicast-control (a node below
 * it: each write fires the backend's watch on the key) as fast as
 * xenstored takes it, the program reconnects three times.  The backend
 * must keep at most one event of the watch queued: dom0 checks its
 * slab and the connect time of a vif it attaches to g1 meanwhile; the
 * program that each Closing is answered within 5 s and that the key's
 * last write takes effect (no write goes unread).
 */
enum hostile_end case_mcast_flood(struct fe *f)
{
	unsigned long limit = full_counts ? WRITES39_FULL : WRITES39;
	long max_ms = full_counts ? MAX39_FULL_MS : MAX39_MS;
	long t0, ms, tc, closing_max = 0, cycle_max = 0;
	struct mc_writer w[WRITERS39];
	int i, pad, ok = 0, s;
	unsigned long errors = 0;
	struct outcome o;
	char path[160];
	const char *g;

	pad = mc_pad_key(f);
	mc_stop = 0;
	mc_total = 0;
	set_phase(f, "mcflood");
	t0 = now_ms();
	for (i = 0; i < WRITERS39; i++) {
		memset(&w[i], 0, sizeof(w[i]));
		w[i].f = f;
		w[i].id = i;
		if (pthread_create(&w[i].thread, NULL, mc_write, &w[i]))
			die("pthread_create");
	}
	/* Half of it on the connection as it is, then the reconnects. */
	while (now_ms() - t0 < max_ms / 2 &&
	       (now_ms() - t0 < MIN39_MS / 2 ||
		__atomic_load_n(&mc_total, __ATOMIC_RELAXED) < limit / 2))
		serve(f, 100);
	for (i = 0; i < RECONNECTS39; i++) {
		tc = now_ms();
		f->connected = 0;
		fe_state(f, XenbusStateClosing);
		s = be_wait_fast(f, XenbusStateClosing,
				 1u << XenbusStateClosed, 30000);
		if (now_ms() - tc > closing_max)
			closing_max = now_ms() - tc;
		if (s != XenbusStateClosing && s != XenbusStateClosed)
			break;
		if (fe_reset(f) || fe_connect(f, &honest))
			break;
		g = play(f, chain_even(f, 1, 60), &o);
		if (now_ms() - tc > cycle_max)
			cycle_max = now_ms() - tc;
		if (strcmp(g, "ok"))
			break;
		ok++;
	}
	while (!flood_done(limit, t0, max_ms))
		serve(f, 100);
	__atomic_store_n(&mc_stop, 1, __ATOMIC_RELAXED);
	for (i = 0; i < WRITERS39; i++) {
		pthread_join(w[i].thread, NULL);
		errors += w[i].errors;
	}
	ms = now_ms() - t0;
	end_phase(f, t0);
	report(39, "a", "ok", errors ? "errors" : "ok",
	       "%lu writes below the key (its value %d bytes) in %ld ms (%ld us a write), %lu failed",
	       mc_total, pad, ms, mc_total ? ms * 1000 / (long)mc_total : 0,
	       errors);
	report(39, "b", "ok", ok < RECONNECTS39 ? "stuck" :
	       closing_max > CLOSING39_MS ? "slow" : "ok",
	       "%d of %d reconnects during the flood carried a frame; Closing answered within %ld ms at most (%d ms allowed), a cycle took %ld ms at most",
	       ok, RECONNECTS39, closing_max, CLOSING39_MS, cycle_max);
	if (!f->connected) {
		if (fe_reset(f))
			die("reset after the flood: backend state %d",
			    be_state(f));
		if (connect_or_die(f, &honest, 39))
			return END_REFUSED;
	}

	/* The last write of the key must take effect: filter on, one
	 * group listed, dom0 sends to it and to another (hostile.sh).
	 */
	xs_put(f, "request-multicast-control", "1");
	serve(f, 500);
	memcpy(f->mc_a, "\x01\x00\x5e\x00\x00\xfb", 6);
	memcpy(f->mc_b, "\x01\x00\x5e\x00\x00\xfc", 6);
	mcast_req(f, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, 0, f->mc_a, &o);
	mcast_listen(f, "mcast-on");
	set_phase(f, "-");
	report(39, "c", "filtered",
	       mcast_filtered(f),
	       "request-multicast-control=1 after the flood: listed %lu, not listed %lu",
	       f->rx_mc_a, f->rx_mc_b);

	for (i = 0; i < WRITERS39; i++) {
		snprintf(path, sizeof(path), "%s/request-multicast-control/w%d",
			 f->fp, i);
		xs_rm(f->xs, XBT_NULL, path);
	}
	xs_put(f, "request-multicast-control", "0");
	check(f, 39, "d", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* ---- 45: a loop of connects that succeed -------------------------------- */

#define CYCLES45	200
/* The loop stops asking for more after this, on a one-queue connection
 * (one more cycle when the last had more queues).
 */
#define LOOP45_MS	30000
/* The phases before and after the loop, on a one-queue connection each:
 * dom0 takes its samples of slab, threads and interrupts in them.
 */
#define SETTLE45_MS	3000
/* The backend's reconnect back-off (XNB_RECONNECT_*): 2 quick reconnects
 * free, then holds of 1, 2, 4, then 8 s from the last connect.  From the
 * start of a run at the connect before the loop, LOOP45_MS lets the loop
 * have the 2 free ones, 3 held less than 8 s, and one per 8 s after them
 * (8 in all, the last on one queue); 3 more of slack.  Unthrottled, a
 * cycle takes a fraction of a second even under TCG.
 */
#define MAX45		(2 + 3 + LOOP45_MS / 8000 + 3)
/* A connect held at the cap waits 8 s less the cycle's own time. */
#define HELD45_MS	4000

/* 45: Initialising -> Connected in a loop with rings that work,
 * alternating one queue and the most the backend offers, as fast as
 * the backend lets it: each cycle costs dom0 a whole connect and
 * disconnect.  (a) Every cycle connects.  (b) The backend holds the
 * loop back: a bounded number of cycles within LOOP45_MS, and at
 * least one connect held for most of the 8 s cap.  dom0 checks g1's
 * ping during the loop (phase reconn) and that its slab, threads and
 * interrupts are back where they were (phases reconn-base and
 * reconn-after).  (c) The last connection carries a frame.
 */
enum hostile_end case_reconnect_loop(struct fe *f)
{
	int max = backend_feature(f, "multi-queue-max-queues");
	int i, nq = 1, cycles = 0, refused = 0, stuck = 0, held = 0;
	long t0, tc, w, ms, w_max = 0, w_first[2] = { -1, -1 };
	struct conn_opts o;

	if (max < 1)
		max = 1;
	if (max > FE_MAXQ)
		max = FE_MAXQ;
	if (connect_or_die(f, &honest, 45))
		return END_REFUSED;
	set_phase(f, "reconn-base");
	serve(f, SETTLE45_MS);
	set_phase(f, "reconn");
	t0 = now_ms();
	for (i = 0; i < CYCLES45; i++) {
		if (now_ms() - t0 >= LOOP45_MS && nq == 1)
			break;
		if (fe_restart(f)) {
			stuck++;
			break;
		}
		nq = i % 2 ? 1 : max;
		o = honest;
		if (nq > 1) {
			o.nq = nq;
			o.nq_keys = nq;
			o.mq_rings = 1;
		}
		tc = now_ms();
		if (fe_connect(f, &o)) {
			refused++;
			break;
		}
		w = now_ms() - tc;
		if (i < 2)
			w_first[i] = w;
		if (w > w_max)
			w_max = w;
		if (w >= HELD45_MS)
			held++;
		cycles++;
	}
	ms = now_ms() - t0;
	if (f->connected && nq == 1) {
		set_phase(f, "reconn-after");
		serve(f, SETTLE45_MS);
	}
	set_phase(f, "-");
	report(45, "a", "ok", refused ? "refused" : stuck ? "stuck" : "ok",
	       "%d cycles of Initialising, Connected (1 and %d queues in turn) in %ld ms: %d refused, %d stuck",
	       cycles, max, ms, refused, stuck);
	report(45, "b", "bounded",
	       cycles <= MAX45 && w_max >= HELD45_MS ? "bounded" : "unbounded",
	       "%d cycles in %ld ms (at most %d), %d connects held %d ms or more, the longest %ld ms; the first two took %ld and %ld ms",
	       cycles, ms, MAX45, held, HELD45_MS, w_max, w_first[0],
	       w_first[1]);
	if (!f->connected)
		return END_REFUSED;
	check(f, 45, "c", "ok", chain_even(f, 1, 60));
	return END_UP;
}
