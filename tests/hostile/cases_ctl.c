// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: connect time, xenstore and event channel cases.  The ones that
 * connect in their own way start from InitWait and end with an honest
 * connect that must work after the refusals.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cases.h"

/* Case @cs, check @sub: the backend refused the connect of @o.  The
 * detail is @what, then the backend state after @sep (none when NULL).
 */
static void refused(struct fe *f, const struct conn_opts *o, int cs,
		    const char *sub, const char *what, const char *sep)
{
	int s = fe_connect(f, o);

	if (sep)
		report(cs, sub, "refused", s ? "refused" : "connected",
		       "%s%sbackend state %d", what, sep, be_state(f));
	else
		report(cs, sub, "refused", s ? "refused" : "connected",
		       "%s", what);
}

/* After the refusals, checks @sub and @sub + 1: an honest connect
 * (detail @what), and a packet on it.
 */
static enum hostile_end honest_after(struct fe *f, int cs, char sub,
				     const char *what)
{
	char a[2] = { sub, 0 }, b[2] = { sub + 1, 0 };
	int s = fe_connect(f, &honest);

	report(cs, a, "connected", s ? "refused" : "connected", "%s", what);
	if (s)
		return END_REFUSED;
	check(f, cs, b, "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* 2: impossible indices at connect, TX then RX ring */
enum hostile_end case_connect_indices(struct fe *f)
{
	struct conn_opts o = honest;

	o.tx_req_prod = 1000;
	refused(f, &o, 2, "a", "tx req_prod=1000 rsp_prod=0", " ");
	if (fe_reset(f))
		die("reset");
	o = honest;
	o.rx_req_prod = 0x80000000u;
	refused(f, &o, 2, "b", "rx req_prod=2^31", " ");
	if (fe_reset(f))
		die("reset");
	return honest_after(f, 2, 'c', "honest reconnect after refusals");
}

/* 21, 22: control ring: not offered; a ctrl ref is ignored */
static enum hostile_end ctrl_ring(struct fe *f, int cs, RING_IDX req_prod)
{
	struct conn_opts o = honest;
	int s = backend_feature(f, "feature-ctrl-ring");

	report(cs, "a", "absent", s <= 0 ? "absent" : "present",
	       "feature-ctrl-ring=%d", s);
	o.ctrl = 1;
	o.ctrl_req_prod = req_prod;
	s = fe_connect(f, &o);
	report(cs, "b", "connected", s ? "refused" : "connected",
	       "ctrl-ring-ref written anyway (req_prod %u)", o.ctrl_req_prod);
	if (s)
		return END_REFUSED;
	check(f, cs, "c", "ok", chain_even(f, 1, 60));
	return END_UP;
}

enum hostile_end case_ctrl_ring(struct fe *f)
{
	return ctrl_ring(f, 21, 5);
}

enum hostile_end case_ctrl_ring_far(struct fe *f)
{
	return ctrl_ring(f, 22, 0x7fffffff);
}

/* 23: queue count */
enum hostile_end case_queues(struct fe *f)
{
	int max = backend_feature(f, "multi-queue-max-queues");
	struct conn_opts o = honest;
	char what[64];

	o.nq = 0;
	xs_put(f, "multi-queue-num-queues", "0");
	snprintf(what, sizeof(what), "multi-queue-num-queues=0 (max %d)", max);
	refused(f, &o, 23, "a", what, NULL);
	fe_reset(f);
	o.nq = (max > 0 ? max : 8) + 1;
	o.nq_keys = o.nq;
	snprintf(what, sizeof(what), "multi-queue-num-queues=%d", o.nq);
	refused(f, &o, 23, "b", what, NULL);
	fe_reset(f);
	if (max >= 2) {
		o.nq = 2;
		o.nq_keys = 1;
		refused(f, &o, 23, "c", "2 queues, queue-1 keys missing", NULL);
		fe_reset(f);
	} else {
		report(23, "c", "skipped", "skipped",
		       "backend offers %d queue(s)", max);
	}
	return honest_after(f, 23, 'd', "honest connect after refusals");
}

/* 24: feature keys and malformed values */
enum hostile_end case_feature_keys(struct fe *f)
{
	static const struct {
		const char *what, *rxc, *rxn, *ref, *evt;
	} v[] = {
		{ "request-rx-copy=0", "0", "1", NULL, NULL },
		{ "feature-rx-notify absent", "1", NULL, NULL, NULL },
		{ "tx-ring-ref=junk", "1", "1", "junk", NULL },
		{ "tx-ring-ref=invalid gref", "1", "1", "268435455", NULL },
		{ "event-channel=junk", "1", "1", NULL, "x1" },
		{ "event-channel=unbound port", "1", "1", NULL, "4000" },
	};
	char sub[4];
	int i;

	for (i = 0; i < (int)(sizeof(v) / sizeof(v[0])); i++) {
		struct conn_opts o = honest;

		o.rx_copy = v[i].rxc;
		o.rx_notify = v[i].rxn;
		o.tx_ref_str = v[i].ref;
		o.evt_str = v[i].evt;
		if (v[i].evt)
			o.split = 0;
		o.timeout_ms = 15000;
		snprintf(sub, sizeof(sub), "%c", 'a' + i);
		refused(f, &o, 24, sub, v[i].what, ": ");
		if (fe_reset(f))
			die("reset after %s", v[i].what);
	}
	return honest_after(f, 24, 'g', "honest connect after refusals");
}

/* 25: watched-key storm; fast reconnect loops */
enum hostile_end case_xs_storm(struct fe *f)
{
	long t0 = now_ms();
	int i;

	for (i = 0; i < 3000; i++)
		fe_state(f, XenbusStateConnected);
	for (i = 0; i < 500; i++) {
		xs_put(f, "feature-sg", "%d", i & 1);
		xs_put(f, "tx-ring-ref", "%u", f->tx_ref);
	}
	xs_put(f, "feature-sg", "1");
	report(25, "a", "ok", "ok", "4000 key writes in %ld ms, backend state %d",
	       now_ms() - t0, be_state(f));
	check(f, 25, "b", "ok", chain_even(f, 1, 60));
	t0 = now_ms();
	for (i = 0; i < 5; i++) {
		if (fe_reset(f) || fe_connect(f, &honest))
			break;
		chain_even(f, 1, 60);
		push(f);
		collect(f, 1, 3000);
	}
	report(25, "c", "ok", i == 5 ? "ok" : "stuck",
	       "%d reconnect cycles in %ld ms", i, now_ms() - t0);
	if (i == 5)
		check(f, 25, "d", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* 26: event channel storm */
enum hostile_end case_evtchn_storm(struct fe *f)
{
	long t0 = now_ms();
	int i, k = 0;

	xs_write(f->xs, XBT_NULL, "data/hostile-phase", "storm", 5);
	while (now_ms() - t0 < 8000) {
		for (i = 0; i < 1000; i++) {
			xenevtchn_notify(f->xce, f->ptx);
			xenevtchn_notify(f->xce, f->prx);
		}
		k += 2000;
		service_rx(f);
	}
	xs_write(f->xs, XBT_NULL, "data/hostile-phase", "-", 1);
	report(26, "a", "ok", "ok", "%d notifications in %ld ms", k,
	       now_ms() - t0);
	check(f, 26, "b", "ok", chain_even(f, 1, 60));
	return END_UP;
}
