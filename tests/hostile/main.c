// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: a misbehaving netfront, run as a program inside a lab PV guest
 * that has no xen-netfront bound to the attacked vif.  It shares its own
 * ring and data pages (gntalloc), binds event channels (evtchn), writes the
 * frontend keys of device/vif/<devid> and then plays cases of
 * docs/hostile-catalogue.md against the backend in dom0.
 *
 *   hostile list                     the cases: id, expected final state,
 *                                    what they do
 *   hostile [--dev K] [--full] case N [N...]
 *                                    catalogue cases, in order; --full:
 *                                    the floods of 35, 36 and 39 at the
 *                                    issue's counts, not the lab's
 *   hostile [--dev K] --random SEED --count N
 *                                    seeded random/mutated/boundary TX
 *                                    requests, reconnecting after a fatal
 *   hostile [--dev K] --ctrl-stream SECONDS
 *                                    Toeplitz on, then hash key and mapping
 *                                    updates streamed on the control ring
 *                                    (hostile.sh's netconsole phase)
 *   hostile --grant-page SECONDS     (guest) grant dom0 one page holding
 *                                    FOREIGN_PATTERN; print its gref, keep
 *                                    it granted SECONDS in the background
 *   hostile --foreign-send DOMID GREF IP PORT PAGES
 *                                    (dom0) map that page (gntdev) and send
 *                                    it PAGES times over TCP to IP:PORT with
 *                                    MSG_ZEROCOPY: the skbs carry a foreign
 *                                    page to the backend's guest RX path
 *
 * Output, one line per check, and one per case:
 *   HOSTILE case=<n><sub> expect=<a|b> got=<ok|drop|fatal|refused|...> detail=...
 *   HOSTILE-END case=<n> result=PASS|FAIL final=<state> expect=<state> ...
 * "final" is what dom0 must find afterwards: up (carrier 1), fatal (the
 * "vif disabled" log line, carrier 0) or refused (never Connected);
 * "expect" is the state the case's table entry calls for (dom0 compares).
 *
 * After printing, the program forks: the parent exits (so dom0's command
 * channel returns) while the child keeps the connection alive, recycles RX
 * buffers and answers the toolstack's Closing with Closed, so that
 * `xl network-detach` completes without the forced-removal timeout.
 *
 * Many cases play on one vif: the child writes /run/hostile.<devid>.pid,
 * and the next invocation on that vif sends it SIGTERM; the child then
 * resets the connection (Closing, Closed, Initialising: the backend goes
 * back to InitWait), unshares its pages and exits, and the new invocation
 * connects afresh.  So dom0 can inspect a disabled vif (log line, carrier)
 * before the next case reconnects it.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cases.h"

#define C START_CONNECTED
#define I START_INITWAIT
#define L START_AS_LEFT

/* The catalogue, one case a line: id, function, expected final state, how
 * it starts, what it does.
 */
static const struct hostile_case cases[] = {
	{ 1, case_tx_overflow, END_FATAL, C, "TX producer more than a ring ahead" },
	{ 2, case_connect_indices, END_UP, I, "impossible ring indices at connect" },
	{ 3, case_chain_past_prod, END_FATAL, C, "more-data chain past req_prod" },
	{ 4, case_too_many_slots, END_FATAL, C, "too many slots: 19 drop, 21 fatal" },
	{ 5, case_runts, END_UP, C, "runt packets" },
	{ 6, case_slot_crosses_page, END_FATAL, C, "offset + size beyond the page" },
	{ 7, case_slot_too_large, END_UP, C, "later slot larger than what remains" },
	{ 8, case_zero_slots, END_UP, C, "zero-length slots" },
	{ 9, case_tiny_slots, END_UP, C, "headers in 1-byte slots" },
	{ 10, case_frag_boundary, END_UP, C, "the frag-array boundary" },
	{ 11, case_extra_no_slot, END_FATAL, C, "extra-info flag with no slot left" },
	{ 12, case_extra_types, END_FATAL, C, "repeated extra types, then type 0" },
	{ 13, case_gso, END_FATAL, C, "GSO without L4 header, GSO size 0" },
	{ 14, case_csum, END_UP, C, "checksum-blank on a malformed IP packet" },
	{ 15, case_mcast_extras, END_FATAL, C, "multicast requests, 64 bound, > 8 extras" },
	{ 16, case_bad_grefs, END_UP, C, "invalid and revoked TX grant refs" },
	{ 17, case_doublefetch, END_UP, C, "requests rewritten while read" },
	{ 18, case_ids, END_UP, C, "duplicate and random request ids" },
	{ 19, case_rx_nobuf, END_UP, C, "no RX buffers, then buffers again" },
	{ 20, case_rx_bad_grefs, END_UP, C, "RX requests with invalid grant refs" },
	{ 21, case_ctrl_ring, END_UP, I, "control ring: honest hash setup" },
	{ 22, case_ctrl_ring_far, END_UP, I, "control ring with req_prod far ahead" },
	{ 23, case_queues, END_UP, I, "queue count 0, above max, keys missing" },
	{ 24, case_feature_keys, END_UP, I, "feature keys and malformed values" },
	{ 25, case_xs_storm, END_UP, C, "watched-key storm, fast reconnects" },
	{ 26, case_evtchn_storm, END_UP, C, "event channel storm" },
	{ 27, case_rate, END_UP, C, "rate limit set before connect" },
	{ 28, case_rx_wiggle, END_FATAL, L, "RX req_prod wiggled, then a ring ahead" },
	{ 29, case_xdp_headroom, END_UP, C, "xdp-headroom beyond the limit, junk" },
	{ 32, case_ctrl_requests, END_UP, I, "bad control requests, foreign grants" },
	{ 33, case_ctrl_overflow, END_FATAL, I, "control req_prod a ring ahead" },
	{ 34, case_ctrl_steer, END_UP, I, "hash mapping steers flows to queues" },
	{ 35, case_state_flood, END_UP, C, "state 2, 8, 9+ written in a loop" },
	{ 36, case_bad_connects, END_UP, I, "connect loop with a bad tx-ring-ref" },
	{ 37, case_ctrl_storm, END_UP, I, "control channel storm, idle ring" },
	{ 38, case_ctrl_storm_dead, END_FATAL, I, "control channel storm, dead ring" },
	{ 39, case_mcast_flood, END_UP, C, "request-multicast-control flood, reconnects" },
	{ 40, case_gso_tiny, END_UP, C, "GSO size 1 on 64 KiB, segments over gso_max_segs" },
	{ 41, case_gso_not_tcp, END_UP, C, "TCPv4 GSO type on UDP, other non-TCP headers" },
	{ 42, case_gso_by_frags, END_FATAL, C, "GSO size 0xffff (GSO_BY_FRAGS)" },
	{ 43, case_ctrl_flood, END_UP, I, "control ring kept full for 30 s" },
	{ 44, case_gso_flood, END_UP, C, "64 KiB GSO of 1..48-byte segments beside a neighbour" },
	{ 45, case_reconnect_loop, END_UP, I, "connect loop with working rings, 1 and max queues" },
	{ 46, case_grant_alias, END_FATAL, I, "one grant as two rings, RX buffers on ring pages" },
	{ 47, case_ring_rewrite, END_UP, C, "rsp_prod, req_event, rsp_event rewritten under traffic" },
	{ 48, case_rx_flap, END_UP, I, "RX buffers withheld and posted, stall flapping" },
	{ 49, case_mcast_churn, END_UP, I, "multicast ADD/DEL churn at the bound for 20 s" },
	{ 50, case_state_garbage, END_UP, C, "own state deleted or no number while frames flow" },
	{ 51, case_fewer_queues, END_UP, I, "fewer queues at reconnect, mapping naming removed ones" },
	{ 52, case_udp_flood, END_UP, I, "valid 64 B UDP floods on every queue beside a neighbour" },
};

#undef C
#undef I
#undef L

int full_counts;

const char *end_name(enum hostile_end e)
{
	static const char *const name[] = {
		[END_NONE] = "n/a", [END_UP] = "up", [END_FATAL] = "fatal",
		[END_REFUSED] = "refused", [END_UNKNOWN] = "unknown",
	};

	return name[e];
}

static const struct hostile_case *find_case(int id)
{
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		if (cases[i].id == id)
			return &cases[i];
	return NULL;
}

static void list_cases(void)
{
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		printf("%d %s %s\n", cases[i].id, end_name(cases[i].expect),
		       cases[i].what);
}

/* One case on @f; returns its final state. */
static enum hostile_end run_case(struct fe *f, const struct hostile_case *c,
				 int cs)
{
	if (!c) {
		printf("HOSTILE case=%d n/a\n", cs);
		return END_NONE;
	}
	/* A case after an "up" one in the same invocation carries on
	 * with that connection (the ring is in step, buffers posted).
	 */
	if (c->start == START_CONNECTED && !f->connected &&
	    connect_or_die(f, &honest, cs))
		return END_REFUSED;
	return c->run(f);
}

static void print_end(const struct fe *f, int cs, int fail,
		      enum hostile_end final, enum hostile_end expect,
		      long takeover_ms, long ms)
{
	printf("HOSTILE-END case=%d result=%s final=%s expect=%s tx_responses=%lu ok=%lu err=%lu null=%lu rx_ok=%lu rx_err=%lu takeover_ms=%ld ms=%ld\n",
	       cs, fail ? "FAIL" : "PASS", end_name(final), end_name(expect),
	       f->n_resp, f->n_ok, f->n_err, f->n_null, f->rx_ok, f->rx_err,
	       takeover_ms, ms);
}

/* Several cases: each after an "up" one carries on with its connection;
 * the ones that connect in their own way or follow a fatal/refused one
 * start from InitWait.  Only the last case may leave the vif disabled:
 * dom0 checks that.  Returns 1 when a check failed.
 */
static int run_cases(struct fe *f, const int *ids, int n, long t_start,
		     long t_takeover)
{
	enum hostile_end final = END_NONE;
	int k, rc = 0;

	for (k = 0; k < n; k++) {
		const struct hostile_case *c = find_case(ids[k]);
		long t0 = now_ms();
		int cs = ids[k];

		if (k > 0 && ((c && c->start == START_INITWAIT) ||
			      !f->connected || final != END_UP)) {
			if (be_state(f) != XenbusStateInitWait || f->connected)
				if (fe_reset(f))
					die("reset before case %d: backend state %d",
					    cs, be_state(f));
		}
		failures = 0;
		/* Cases 19 and 20 judge by the RX counters. */
		f->rx_ok = f->rx_err = 0;
		srand(cs * 7919 + 1);
		final = run_case(f, c, cs);
		if (failures)
			rc = 1;
		print_end(f, cs, failures, final, c ? c->expect : END_NONE,
			  k ? 0 : t_takeover, now_ms() - (k ? t0 : t_start));
	}
	return rc;
}

static void usage(void)
{
	fprintf(stderr, "usage: hostile [-v] [--dev K] [--linger S] [--full] case N | --random SEED --count N | --ctrl-stream SECONDS\n"
		"       hostile list | --grant-page SECONDS | --foreign-send DOMID GREF IP PORT PAGES\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct fe f = { 0 };
	int devid = -1, cs = -1, lg = 1800, rc;
	int ids[64], nids = 0;
	unsigned long seed = 0, count = 100000;
	long t_start, t_takeover;
	int random = 0, stream = 0;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			verbose = 1;
		else if (!strcmp(argv[i], "list")) {
			list_cases();
			return 0;
		} else if (!strcmp(argv[i], "--dev") && i + 1 < argc)
			devid = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--full"))
			full_counts = 1;
		else if (!strcmp(argv[i], "--linger") && i + 1 < argc)
			lg = atoi(argv[++i]);
		else if (!strcmp(argv[i], "case") && i + 1 < argc) {
			while (i + 1 < argc && argv[i + 1][0] >= '0' &&
			       argv[i + 1][0] <= '9' && nids < 64)
				ids[nids++] = atoi(argv[++i]);
			cs = nids ? ids[0] : -1;
		} else if (!strcmp(argv[i], "--grant-page") && i + 1 < argc)
			return grant_page(atoi(argv[i + 1]));
		else if (!strcmp(argv[i], "--foreign-send") && i + 5 < argc)
			return foreign_send(atoi(argv[i + 1]),
					    strtoul(argv[i + 2], NULL, 0),
					    argv[i + 3], atoi(argv[i + 4]),
					    atoi(argv[i + 5]));
		else if (!strcmp(argv[i], "--random") && i + 1 < argc) {
			random = 1;
			seed = strtoul(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--count") && i + 1 < argc)
			count = strtoul(argv[++i], NULL, 0);
		else if (!strcmp(argv[i], "--ctrl-stream") && i + 1 < argc)
			stream = atoi(argv[++i]);
		else
			usage();
	}
	if (cs < 0 && !random && stream <= 0)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	srand(cs * 7919 + 1);
	t_start = now_ms();
	fe_open(&f, devid);
	takeover(&f);
	t_takeover = now_ms() - t_start;
	printf("HOSTILE-START dev=%u self=%u backend=%s %s\n", f.devid, f.self,
	       f.bp, random ? "random" : stream > 0 ? "ctrl-stream" : "case");

	if (random || stream > 0) {
		rc = random ? random_mode(&f, seed, count) :
			      ctrl_stream(&f, stream);
		print_end(&f, 0, rc, rc ? END_UNKNOWN : END_UP, END_UP,
			  t_takeover, now_ms() - t_start);
	} else {
		rc = run_cases(&f, ids, nids, t_start, t_takeover);
	}
	fflush(stdout);
	fflush(stderr);
	if (lg > 0 && fork() == 0) {
		freopen("/dev/null", "w", stdout);
		freopen("/dev/null", "w", stderr);
		setsid();
		linger(&f, lg);
		_exit(0);
	}
	return rc;
}
