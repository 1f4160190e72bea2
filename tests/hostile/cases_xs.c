// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: floods of xenstore writes that the backend reacts to.  Each
 * flood runs in a phase of its own (data/hostile-phase: xsflood,
 * badconn) during which dom0 samples its kernel log, its slab and g1's
 * ping (scenarios/hostile.sh).  The lab's counts are scaled
 * down to take seconds under TCG; --full gives the issue's.
 */
#define _GNU_SOURCE
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

static void set_phase(struct fe *f, const char *ph)
{
	xs_write(f->xs, XBT_NULL, "data/hostile-phase", ph, strlen(ph));
}

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
