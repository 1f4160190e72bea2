// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: connect time, xenstore and event channel cases.  The ones that
 * connect in their own way start from InitWait and end with an honest
 * connect that must work after the refusals.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* netif.h's reference Toeplitz, to check the backend's hashes with. */
#define XEN_NETIF_DEFINE_TOEPLITZ
#include "cases.h"
#include "../common/rss_key.h"

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

/* Case @cs, check @sub: the connect of @o must work (detail @what).
 * Returns fe_connect()'s result.
 */
static int connected(struct fe *f, const struct conn_opts *o, int cs,
		     const char *sub, const char *what)
{
	int s = fe_connect(f, o);

	report(cs, sub, "connected", s ? "refused" : "connected", "%s", what);
	return s;
}

/* After the refusals, checks @sub and @sub + 1: an honest connect
 * (detail @what), and a packet on it.
 */
enum hostile_end honest_after(struct fe *f, int cs, char sub,
			      const char *what)
{
	char a[2] = { sub, 0 }, b[2] = { sub + 1, 0 };

	if (connected(f, &honest, cs, a, what))
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

/* ---- control ring ------------------------------------------------------ */

#define CT_OK XEN_NETIF_CTRL_STATUS_SUCCESS
#define CT_NS XEN_NETIF_CTRL_STATUS_NOT_SUPPORTED
#define CT_INV XEN_NETIF_CTRL_STATUS_INVALID_PARAMETER

static const char *status_name(int st)
{
	switch (st) {
	case CT_OK: return "ok";
	case CT_NS: return "not-supported";
	case CT_INV: return "invalid";
	case XEN_NETIF_CTRL_STATUS_BUFFER_OVERFLOW: return "overflow";
	case -1: return "no-response";
	case -2: return "wrong-id";
	default: return "other";
	}
}

/* One control request, checked: @expect a status name. */
static int ctrl_check(struct fe *f, int cs, const char *sub,
		      const char *expect, uint16_t type, uint32_t d0,
		      uint32_t d1, uint32_t d2, uint32_t *data,
		      const char *what)
{
	uint32_t v = 0;
	int st = ctrl_call(f, type, d0, d1, d2, &v, 5000);

	if (data)
		*data = v;
	return report(cs, sub, expect, status_name(st), "%s (data %u)", what,
		      v);
}

/* Toeplitz on, IPv4 and IPv4+TCP, the RSS key, a table of @size
 * entries (@map, NULL: all 0).  Checks @sub0.. in order; returns the
 * number of failed checks.
 */
static int hash_setup(struct fe *f, int cs, char sub0, uint32_t flags,
		      uint32_t size, const uint32_t *map)
{
	char sb[8];
	uint32_t v, i;
	int bad = 0;

#define SUB() (snprintf(sb, sizeof(sb), "%c", sub0++), sb)
	bad += ctrl_check(f, cs, SUB(), "ok",
			  XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM,
			  XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ, 0, 0, NULL,
			  "SET_HASH_ALGORITHM toeplitz");
	bad += ctrl_check(f, cs, SUB(), "ok",
			  XEN_NETIF_CTRL_TYPE_GET_HASH_FLAGS, 0, 0, 0, &v,
			  "GET_HASH_FLAGS");
	if (v != 0xf)
		bad += report(cs, sb, "0xf", "other", "supported flags 0x%x",
			      v);
	bad += ctrl_check(f, cs, SUB(), "ok",
			  XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS, flags, 0, 0,
			  NULL, "SET_HASH_FLAGS");
	memcpy(f->cdata, xnb_rss_key, sizeof(xnb_rss_key));
	bad += ctrl_check(f, cs, SUB(), "ok", XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
			  f->cdata_ref, sizeof(xnb_rss_key), 0, NULL,
			  "SET_HASH_KEY 40 octets");
	bad += ctrl_check(f, cs, SUB(), "ok",
			  XEN_NETIF_CTRL_TYPE_GET_HASH_MAPPING_SIZE, 0, 0, 0,
			  &v, "GET_HASH_MAPPING_SIZE");
	if (v != 128)
		bad += report(cs, sb, "128", "other", "mapping size %u", v);
	bad += ctrl_check(f, cs, SUB(), "ok",
			  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE, size, 0, 0,
			  NULL, "SET_HASH_MAPPING_SIZE");
	for (i = 0; i < size; i++)
		((uint32_t *)f->cdata)[i] = map ? map[i] : 0;
	bad += ctrl_check(f, cs, SUB(), "ok",
			  XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING, f->cdata_ref,
			  size, 0, NULL, "SET_HASH_MAPPING whole table");
#undef SUB
	return bad;
}

/* 21: control ring offered; honest hash setup, then traffic */
enum hostile_end case_ctrl_ring(struct fe *f)
{
	struct conn_opts o = honest;
	int s = backend_feature(f, "feature-ctrl-ring");

	report(21, "a", "1", s == 1 ? "1" : "other", "feature-ctrl-ring=%d", s);
	o.ctrl = 1;
	if (connected(f, &o, 21, "b", "with a control ring"))
		return END_REFUSED;
	hash_setup(f, 21, 'c', XEN_NETIF_CTRL_HASH_TYPE_IPV4 |
		   XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP, 4, NULL);
	check(f, 21, "j", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* 22: control ring with req_prod far ahead at connect: refused, as
 * stock does, then an honest reconnect with a control ring.
 */
enum hostile_end case_ctrl_ring_far(struct fe *f)
{
	struct conn_opts o = honest;

	o.ctrl = 1;
	o.ctrl_req_prod = 0x7fffffff;
	refused(f, &o, 22, "a", "ctrl req_prod=0x7fffffff rsp_prod=0", " ");
	if (fe_reset(f))
		die("reset");
	o.ctrl_req_prod = 0;
	if (connected(f, &o, 22, "b", "honest reconnect with a control ring"))
		return END_REFUSED;
	ctrl_check(f, 22, "c", "ok", XEN_NETIF_CTRL_TYPE_GET_HASH_MAPPING_SIZE,
		   0, 0, 0, NULL, "a request on the new ring");
	check(f, 22, "d", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* 32: bad control requests: each refused with stock's status, the
 * configuration and the vif unharmed.
 */
enum hostile_end case_ctrl_requests(struct fe *f)
{
	static uint32_t self_ref;
	static void *self_page;
	struct conn_opts o = honest;
	uint32_t nq;

	o.ctrl = 1;
	if (connected(f, &o, 32, "a", "with a control ring"))
		return END_REFUSED;
	nq = 1;
	ctrl_check(f, 32, "b", "not-supported", 99, 0, 0, 0, NULL,
		   "unknown request type 99");
	ctrl_check(f, 32, "c", "not-supported", XEN_NETIF_CTRL_TYPE_INVALID,
		   0, 0, 0, NULL, "request type 0 (INVALID)");
	ctrl_check(f, 32, "d", "invalid", XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS,
		   XEN_NETIF_CTRL_HASH_TYPE_IPV4, 0, 0, NULL,
		   "SET_HASH_FLAGS before an algorithm");
	ctrl_check(f, 32, "e", "invalid",
		   XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM, 7, 0, 0, NULL,
		   "SET_HASH_ALGORITHM 7");
	ctrl_check(f, 32, "f", "ok", XEN_NETIF_CTRL_TYPE_SET_HASH_ALGORITHM,
		   XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ, 0, 0, NULL,
		   "SET_HASH_ALGORITHM toeplitz");
	ctrl_check(f, 32, "g", "invalid", XEN_NETIF_CTRL_TYPE_SET_HASH_FLAGS,
		   0x10, 0, 0, NULL, "SET_HASH_FLAGS unknown bit 0x10");
	ctrl_check(f, 32, "h", "invalid", XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
		   f->cdata_ref, 41, 0, NULL, "SET_HASH_KEY 41 octets");
	ctrl_check(f, 32, "i", "invalid", XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
		   f->cdata_ref, 0xffffffffu, 0, NULL,
		   "SET_HASH_KEY 2^32-1 octets");
	/* A grant that is not ours to give (never granted to dom0). */
	ctrl_check(f, 32, "j", "invalid", XEN_NETIF_CTRL_TYPE_SET_HASH_KEY,
		   0x0ffffff0u, 40, 0, NULL, "SET_HASH_KEY from gref 0x0ffffff0");
	/* A real grant of ours, given to ourselves, not to dom0. */
	if (!self_page)
		self_page = xengntshr_share_pages(f->gs, f->self, 1, &self_ref,
						  0);
	if (self_page)
		ctrl_check(f, 32, "k", "invalid",
			   XEN_NETIF_CTRL_TYPE_SET_HASH_KEY, self_ref, 40, 0,
			   NULL, "SET_HASH_KEY from a grant given to ourselves");
	else
		report(32, "k", "skipped", "skipped", "cannot grant to self");
	ctrl_check(f, 32, "l", "invalid",
		   XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE, 129, 0, 0, NULL,
		   "SET_HASH_MAPPING_SIZE 129");
	ctrl_check(f, 32, "m", "ok", XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE,
		   0, 0, 0, NULL, "SET_HASH_MAPPING_SIZE 0");
	((uint32_t *)f->cdata)[0] = 0;
	ctrl_check(f, 32, "n", "invalid", XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
		   f->cdata_ref, 1, 0, NULL, "SET_HASH_MAPPING into a table of 0");
	ctrl_check(f, 32, "o", "ok", XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE,
		   8, 0, 0, NULL, "SET_HASH_MAPPING_SIZE 8");
	memset(f->cdata, 0, 8 * 4);
	((uint32_t *)f->cdata)[3] = nq;
	ctrl_check(f, 32, "p", "invalid", XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
		   f->cdata_ref, 8, 0, NULL, "an entry = queue count (1)");
	((uint32_t *)f->cdata)[3] = 0xffffffffu;
	ctrl_check(f, 32, "q", "invalid", XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
		   f->cdata_ref, 8, 0, NULL, "an entry = 2^32-1");
	ctrl_check(f, 32, "r", "invalid", XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
		   f->cdata_ref, 2, 7, NULL, "offset 7 + 2 entries past 8");
	ctrl_check(f, 32, "s", "invalid", XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
		   f->cdata_ref, 1, 0xffffffffu, NULL, "offset 2^32-1");
	ctrl_check(f, 32, "t", "invalid", XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING,
		   0x0ffffff0u, 8, 0, NULL, "mapping from a gref not ours");
	/* The honest setup still works on the same ring. */
	hash_setup(f, 32, 'A', XEN_NETIF_CTRL_HASH_TYPE_IPV4, 8, NULL);
	check(f, 32, "z", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* Case @cs, checks a and b: a connect with a control ring, and an
 * honest request answered on it.  Returns 1 when the connect failed.
 */
static int ctrl_connected(struct fe *f, int cs)
{
	struct conn_opts o = honest;

	o.ctrl = 1;
	if (connected(f, &o, cs, "a", "with a control ring"))
		return 1;
	ctrl_check(f, cs, "b", "ok", XEN_NETIF_CTRL_TYPE_GET_HASH_MAPPING_SIZE,
		   0, 0, 0, NULL, "an honest request first");
	return 0;
}

/* Kill the control ring: its producer index a ring and one past our
 * responses, notified.  The backend serves it no more.
 */
static void ctrl_kill(struct fe *f)
{
	f->cs->req_prod = f->ctrl_prod + CTR + 1;
	xen_mb();
	ctrl_notify(f);
	usleep(500000);
}

/* 33: the control producer index a ring ahead after connect: the vif
 * is disabled (dom0 checks the log line and carrier); dom0 and other
 * vifs carry on.
 */
enum hostile_end case_ctrl_overflow(struct fe *f)
{
	int s;

	if (ctrl_connected(f, 33))
		return END_REFUSED;
	ctrl_kill(f);
	/* Storm the channel a little: each event must stay cheap. */
	for (s = 0; s < 2000; s++)
		ctrl_notify(f);
	usleep(500000);
	report(33, "c", "no-response", f->cs->rsp_prod == f->ctrl_cons ?
	       "no-response" : "responded", "req_prod %u past %u",
	       f->cs->req_prod, f->ctrl_cons);
	return END_FATAL;
}

/* ---- 37, 38: storms on the control channel ----------------------------- */

#define CTRL_STORM_MS 8000

/* Check c of case @cs: notify the control channel in a tight loop for
 * CTRL_STORM_MS, RX buffers recycled between bursts, with dom0's
 * sampler told the phase (data/hostile-phase "ctrl-storm": it counts
 * the interrupts of the vif's "-ctrl" irq from its last sample before
 * the phase to its first after).
 */
static void ctrl_storm(struct fe *f, int cs)
{
	long t0, k = 0;
	int i;

	/* dom0 samples every half second: let it see the channel's
	 * count before the storm, past the connect that bound it.
	 */
	usleep(1200000);
	t0 = now_ms();
	set_phase(f, "ctrl-storm");
	while (now_ms() - t0 < CTRL_STORM_MS) {
		for (i = 0; i < 1000; i++)
			ctrl_notify(f);
		k += 1000;
		service_rx(f);
	}
	set_phase(f, "-");
	report(cs, "c", "ok", "ok", "%ld notifications in %ld ms", k,
	       now_ms() - t0);
}

/* 37: a storm on a live control ring with nothing on it.  Each event
 * finds no request: the backend must hold the channel back as it does
 * a data channel's (dom0 counts the interrupts), then still answer a
 * request, and the data path must work.
 */
enum hostile_end case_ctrl_storm(struct fe *f)
{
	if (ctrl_connected(f, 37))
		return END_REFUSED;
	ctrl_storm(f, 37);
	ctrl_check(f, 37, "d", "ok", XEN_NETIF_CTRL_TYPE_GET_HASH_MAPPING_SIZE,
		   0, 0, 0, NULL, "a request after the storm");
	check(f, 37, "e", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* 38: the same storm on a control ring killed first as case 33 kills
 * it: the backend serves it no more and must leave the channel masked
 * (dom0 counts the interrupts); the vif is disabled.
 */
enum hostile_end case_ctrl_storm_dead(struct fe *f)
{
	if (ctrl_connected(f, 38))
		return END_REFUSED;
	ctrl_kill(f);
	ctrl_storm(f, 38);
	report(38, "d", "no-response", f->cs->rsp_prod == f->ctrl_cons ?
	       "no-response" : "responded", "req_prod %u past %u",
	       f->cs->req_prod, f->ctrl_cons);
	return END_FATAL;
}

/* ---- 34: hash steering over several queues ------------------------------ */

#define ST_FLOWS_PER_Q 2
#define ST_BUFS 16		/* RX buffers per queue */
#define ST_SIZE 128		/* mapping table */
#define ST_DPORT 9		/* dom0's discard port: closed, answers RST */

static const uint8_t dom0_ip[4] = { 192, 0, 2, 1 };
static const uint8_t our_ip[4] = { 192, 0, 2, 99 };

struct steer {
	int nq;
	RING_IDX prod[FE_MAXQ], cons[FE_MAXQ];
	uint8_t dom0_mac[6];
	int have_mac;
	int nflows;
	uint16_t sport[FE_MAXQ * ST_FLOWS_PER_Q];
	uint32_t hash[FE_MAXQ * ST_FLOWS_PER_Q];
	int want[FE_MAXQ * ST_FLOWS_PER_Q];
	int got[FE_MAXQ * ST_FLOWS_PER_Q][FE_MAXQ];
	int hash_bad, no_extra, others[FE_MAXQ];
};

static netif_rx_sring_t *rxs_of(struct fe *f, int q)
{
	return q ? f->mq[q].rxs : f->rxs;
}

static void rx_post_q(struct fe *f, struct steer *st, int q)
{
	netif_rx_sring_t *r = rxs_of(f, q);

	while (st->prod[q] - st->cons[q] < ST_BUFS) {
		netif_rx_request_t *req = &r->ring[st->prod[q] % RXR].req;
		int b = st->prod[q] % ST_BUFS;

		req->id = b;
		req->gref = f->rxref[q * ST_BUFS + b];
		st->prod[q]++;
	}
	xen_wmb();
	r->req_prod = st->prod[q];
	xen_mb();
	xenevtchn_notify(f->xce, q ? f->mq[q].port : f->prx);
}

/* The hash of dom0's answer to flow @sport: netif.h's own Toeplitz. */
static uint32_t rst_hash(uint16_t sport)
{
	uint8_t in[12];

	memcpy(in, dom0_ip, 4);
	memcpy(in + 4, our_ip, 4);
	in[8] = 0;
	in[9] = ST_DPORT;
	in[10] = sport >> 8;
	in[11] = sport & 0xff;
	return xen_netif_toeplitz_hash(xnb_rss_key, sizeof(xnb_rss_key), in,
				       sizeof(in));
}

static void rx_one(struct steer *st, int q, const uint8_t *p,
		   unsigned int len, const netif_extra_info_t *hx)
{
	uint16_t sp, dp;
	int i;

	if (len >= 42 && p[12] == 0x08 && p[13] == 0x06 && p[21] == 2 &&
	    !memcmp(p + 28, dom0_ip, 4)) {
		memcpy(st->dom0_mac, p + 22, 6);
		st->have_mac = 1;
		return;
	}
	if (len < 54 || p[12] != 0x08 || p[13] != 0x00 || p[23] != 6 ||
	    memcmp(p + 26, dom0_ip, 4) || memcmp(p + 30, our_ip, 4)) {
		st->others[q]++;
		return;
	}
	sp = (p[14 + (p[14] & 15) * 4] << 8) | p[15 + (p[14] & 15) * 4];
	dp = (p[16 + (p[14] & 15) * 4] << 8) | p[17 + (p[14] & 15) * 4];
	for (i = 0; i < st->nflows; i++) {
		if (sp != ST_DPORT || dp != st->sport[i])
			continue;
		st->got[i][q]++;
		if (!hx) {
			st->no_extra++;
		} else {
			uint32_t v = hx->u.hash.value[0] |
				     hx->u.hash.value[1] << 8 |
				     hx->u.hash.value[2] << 16 |
				     (uint32_t)hx->u.hash.value[3] << 24;

			if (v != st->hash[i] || hx->u.hash.algorithm !=
			    XEN_NETIF_CTRL_HASH_ALGORITHM_TOEPLITZ ||
			    hx->u.hash.type != _XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP)
				st->hash_bad++;
		}
		return;
	}
	st->others[q]++;
}

/* Consume every queue's RX responses, repost. */
static void rx_poll(struct fe *f, struct steer *st)
{
	int q;

	for (q = 0; q < st->nq; q++) {
		netif_rx_sring_t *r = rxs_of(f, q);
		RING_IDX p = r->rsp_prod;

		xen_rmb();
		while (st->cons[q] != p) {
			netif_rx_response_t rsp = r->ring[st->cons[q] % RXR].rsp;
			const netif_extra_info_t *hx = NULL;
			netif_extra_info_t ex;
			int more = rsp.flags & NETRXF_extra_info;

			st->cons[q]++;
			while (more && st->cons[q] != p) {
				memcpy(&ex, &r->ring[st->cons[q] % RXR].rsp,
				       sizeof(ex));
				st->cons[q]++;
				if (ex.type == XEN_NETIF_EXTRA_TYPE_HASH) {
					static netif_extra_info_t keep;

					keep = ex;
					hx = &keep;
				}
				more = ex.flags & XEN_NETIF_EXTRA_FLAG_MORE;
			}
			if (rsp.status > 0 && rsp.id < ST_BUFS &&
			    rsp.offset < PAGE)
				rx_one(st, q, f->rx + (q * ST_BUFS + rsp.id) *
				       PAGE + rsp.offset,
				       (unsigned int)rsp.status, hx);
		}
		r->rsp_event = st->cons[q] + 1;
		rx_post_q(f, st, q);
	}
}

static uint16_t csum_fold(uint32_t sum)
{
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

static uint32_t csum_add(uint32_t sum, const uint8_t *p, unsigned int len)
{
	unsigned int i;

	for (i = 0; i + 1 < len; i += 2)
		sum += (p[i] << 8) | p[i + 1];
	if (len & 1)
		sum += p[len - 1] << 8;
	return sum;
}

/* A TCP SYN from our_ip:@sport to dom0:ST_DPORT in TX page @pg. */
static unsigned int syn_frame(struct fe *f, struct steer *st, int pg,
			      uint16_t sport)
{
	uint8_t *p = f->tx + pg * PAGE, *ip = p + 14, *th = ip + 20;
	uint8_t ph[12];
	uint16_t c;

	memcpy(p, st->dom0_mac, 6);
	memcpy(p + 6, f->mac, 6);
	p[12] = 0x08;
	p[13] = 0x00;
	memset(ip, 0, 40);
	ip[0] = 0x45;
	ip[3] = 40;
	ip[6] = 0x40;		/* DF */
	ip[8] = 64;
	ip[9] = 6;
	memcpy(ip + 12, our_ip, 4);
	memcpy(ip + 16, dom0_ip, 4);
	c = csum_fold(csum_add(0, ip, 20));
	ip[10] = c >> 8;
	ip[11] = c & 0xff;
	th[0] = sport >> 8;
	th[1] = sport & 0xff;
	th[3] = ST_DPORT;
	th[4] = 0x12;		/* sequence number */
	th[12] = 0x50;
	th[13] = 0x02;		/* SYN */
	th[14] = 0x20;		/* window */
	memcpy(ph, our_ip, 4);
	memcpy(ph + 4, dom0_ip, 4);
	ph[8] = 0;
	ph[9] = 6;
	ph[10] = 0;
	ph[11] = 20;
	c = csum_fold(csum_add(csum_add(0, ph, 12), th, 20));
	th[16] = c >> 8;
	th[17] = c & 0xff;
	return 54;
}

static void steer_wait(struct fe *f, struct steer *st, int ms)
{
	long end = now_ms() + ms;

	while (now_ms() < end) {
		collect(f, 0, 50);
		rx_poll(f, st);
	}
}

/* 34: the frontend's mapping steers dom0's flows to the queues it
 * chose: flow i to queue i % nq, which plain hash % queues would not
 * give.  Each flow's answers (dom0's TCP resets to our SYNs) must come
 * in on its queue only, with a hash extra equal to netif.h's Toeplitz
 * of the flow.
 */
enum hostile_end case_ctrl_steer(struct fe *f)
{
	static struct steer st;
	uint32_t map[ST_SIZE] = { 0 };
	int max = backend_feature(f, "multi-queue-max-queues");
	struct conn_opts o = honest;
	uint8_t used[ST_SIZE] = { 0 };
	int i, q, round, s, bad = 0;
	uint16_t port = 40000;
	char sub[8];

	memset(&st, 0, sizeof(st));
	st.nq = max < 4 ? max : 4;
	if (st.nq < 2) {
		report(34, "a", "skipped", "skipped", "backend offers %d queue(s)",
		       max);
		return honest_after(f, 34, 'b', "honest connect");
	}
	/* Flow i goes to queue i % nq through a table entry of its own. */
	st.nflows = st.nq * ST_FLOWS_PER_Q;
	for (i = 0; i < st.nflows; i++) {
		uint32_t b;

		do {
			st.sport[i] = ++port;
			st.hash[i] = rst_hash(port);
			b = st.hash[i] % ST_SIZE;
		} while (used[b] || b == 0 ||
			 (st.hash[i] % st.nq) == (uint32_t)(i % st.nq));
		used[b] = 1;
		st.want[i] = i % st.nq;
		map[b] = st.want[i];
	}

	f->rx_post = 0;
	f->rx_manual = 1;
	o.nq = st.nq;
	o.nq_keys = st.nq;
	o.mq_rings = 1;
	o.ctrl = 1;
	s = fe_connect(f, &o);
	report(34, "a", "connected", s ? "refused" : "connected",
	       "%d queues with rings of their own, a control ring", st.nq);
	if (s) {
		f->rx_manual = 0;
		f->rx_post = 1;
		return END_REFUSED;
	}
	st.prod[0] = f->rx_prod;
	st.cons[0] = f->rx_cons;
	for (q = 0; q < st.nq; q++)
		rx_post_q(f, &st, q);
	bad += hash_setup(f, 34, 'b', XEN_NETIF_CTRL_HASH_TYPE_IPV4 |
			  XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP, ST_SIZE, map);

	/* dom0's MAC, and dom0 learns ours. */
	for (round = 0; round < 10 && !st.have_mac; round++) {
		arp_request(f);
		put(f, f->txref[0], 0, 0, 0, 60);
		push(f);
		steer_wait(f, &st, 300);
	}
	report(34, "i", "mac", st.have_mac ? "mac" : "none",
	       "dom0 answered ARP: %02x:%02x:%02x:%02x:%02x:%02x",
	       st.dom0_mac[0], st.dom0_mac[1], st.dom0_mac[2],
	       st.dom0_mac[3], st.dom0_mac[4], st.dom0_mac[5]);
	if (!st.have_mac)
		goto out;

	for (round = 0; round < 3; round++) {
		for (i = 0; i < st.nflows; i++)
			put(f, f->txref[1 + i],
			    0, 0, (uint16_t)(1 + i),
			    (uint16_t)syn_frame(f, &st, 1 + i, st.sport[i]));
		push(f);
		steer_wait(f, &st, 400);
	}
	steer_wait(f, &st, 1000);

	for (i = 0; i < st.nflows; i++) {
		int on = st.got[i][st.want[i]], off = 0;
		char got[64] = "", *g = got;

		for (q = 0; q < st.nq; q++) {
			g += snprintf(g, got + sizeof(got) - g, "%s%d",
				      q ? "/" : "", st.got[i][q]);
			if (q != st.want[i])
				off += st.got[i][q];
		}
		snprintf(sub, sizeof(sub), "j%d", i);
		report(34, sub, "steered", on && !off ? "steered" : "astray",
		       "flow %u->9 hash 0x%08x entry %u: queue %d wanted, per-queue %s (hash %% %d = %u)",
		       st.sport[i], st.hash[i], st.hash[i] % ST_SIZE,
		       st.want[i], got, st.nq, st.hash[i] % st.nq);
	}
	report(34, "k", "0", st.hash_bad || st.no_extra ? "mismatch" : "0",
	       "hash extras: %d wrong, %d missing (others per queue %d/%d/%d/%d)",
	       st.hash_bad, st.no_extra, st.others[0], st.others[1],
	       st.others[2], st.others[3]);
out:
	(void)bad;
	f->rx_prod = st.prod[0];
	f->rx_cons = st.cons[0];
	f->rx_manual = 0;
	f->rx_post = 1;
	post_rx(f);
	check(f, 34, "l", "ok", chain_even(f, 1, 60));
	return END_UP;
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

	set_phase(f, "storm");
	while (now_ms() - t0 < 8000) {
		for (i = 0; i < 1000; i++) {
			xenevtchn_notify(f->xce, f->ptx);
			xenevtchn_notify(f->xce, f->prx);
		}
		k += 2000;
		service_rx(f);
	}
	set_phase(f, "-");
	report(26, "a", "ok", "ok", "%d notifications in %ld ms", k,
	       now_ms() - t0);
	check(f, 26, "b", "ok", chain_even(f, 1, 60));
	return END_UP;
}

/* ---- --ctrl-stream: hash updates for dom0's netconsole phase ---------- */

#define CS_BATCH 96		/* requests per push (the ring holds CTR) */
#define CS_TABLE 128		/* mapping entries, all 0: one queue */

/* Queue CS_BATCH requests that each rewrite the hash configuration:
 * SET_HASH_KEY (40 octets from @key_ref), SET_HASH_MAPPING_SIZE (the
 * table zero-filled) and SET_HASH_MAPPING (the whole table from the
 * cdata page) in turn, and push them.
 */
static void cs_push(struct fe *f, uint32_t key_ref)
{
	int i;

	for (i = 0; i < CS_BATCH; i++) {
		struct xen_netif_ctrl_request *r =
			&f->cs->ring[f->ctrl_prod % CTR].req;

		r->id = (uint16_t)f->ctrl_prod;
		r->data[2] = 0;
		switch (i % 3) {
		case 0:
			r->type = XEN_NETIF_CTRL_TYPE_SET_HASH_KEY;
			r->data[0] = key_ref;
			r->data[1] = 40;
			break;
		case 1:
			r->type = XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE;
			r->data[0] = CS_TABLE;
			r->data[1] = 0;
			break;
		default:
			r->type = XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING;
			r->data[0] = f->cdata_ref;
			r->data[1] = CS_TABLE;
			break;
		}
		f->ctrl_prod++;
	}
	xen_wmb();
	f->cs->req_prod = f->ctrl_prod;
	xen_mb();
	ctrl_notify(f);
}

/* Take the responses of the pushed requests, RX served meanwhile, for
 * @ms at most; counts them in *@ok and *@bad.  Returns the requests
 * left unanswered.
 */
static unsigned int cs_collect(struct fe *f, int ms, unsigned long *ok,
			       unsigned long *bad)
{
	long end = now_ms() + ms;

	while (f->ctrl_cons != f->ctrl_prod) {
		RING_IDX p = f->cs->rsp_prod;

		xen_rmb();
		while (f->ctrl_cons != p) {
			const struct xen_netif_ctrl_response *rsp =
				&f->cs->ring[f->ctrl_cons % CTR].rsp;

			if (rsp->status == CT_OK &&
			    rsp->id == (uint16_t)f->ctrl_cons)
				(*ok)++;
			else
				(*bad)++;
			f->ctrl_cons++;
		}
		if (f->ctrl_cons == f->ctrl_prod || now_ms() > end)
			break;
		service_rx(f);
		usleep(200);
	}
	return f->ctrl_prod - f->ctrl_cons;
}

/*
 * --ctrl-stream SECONDS: connect with a control ring, switch Toeplitz
 * hashing on (IPv4 and IPv4/TCP, so dom0 hashes every IPv4 packet for
 * us under its hash seqlock) and for @seconds keep rewriting the
 * configuration, CS_BATCH requests a push, a new key each push (each
 * request a write section of that seqlock), while RX buffers are
 * recycled so that dom0's packets keep being delivered.  dom0 floods
 * printk through its netconsole meanwhile (data/hostile-phase
 * "ctrl-stream").  Returns 0 when every request was answered ok and the
 * probe passed afterwards.
 */
int ctrl_stream(struct fe *f, int seconds)
{
	static uint8_t *key;
	static uint32_t key_ref;
	unsigned long ok = 0, bad = 0, batches = 0;
	struct conn_opts o = honest;
	unsigned int lost = 0;
	long t0;
	int i;

	o.ctrl = 1;
	if (connect_or_die(f, &o, 0))
		return 1;
	if (!key)
		key = xengntshr_share_pages(f->gs, f->bedom, 1, &key_ref, 1);
	if (!key)
		die("sharing the key page");
	hash_setup(f, 0, 'a', XEN_NETIF_CTRL_HASH_TYPE_IPV4 |
		   XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP, CS_TABLE, NULL);
	set_phase(f, "ctrl-stream");
	t0 = now_ms();
	while (now_ms() - t0 < seconds * 1000L) {
		for (i = 0; i < 40; i++)
			key[i] = (uint8_t)rand();
		cs_push(f, key_ref);
		batches++;
		lost = cs_collect(f, 5000, &ok, &bad);
		if (lost)
			break;
		service_rx(f);
	}
	set_phase(f, "-");
	f->cs->rsp_event = f->ctrl_cons + 1;
	printf("HOSTILE-CTRLSTREAM requests=%lu ok=%lu bad=%lu lost=%u batches=%lu ms=%ld rx_ok=%lu\n",
	       batches * CS_BATCH, ok, bad, lost, batches, now_ms() - t0,
	       f->rx_ok);
	report(0, "h", "ok", bad || lost ? "bad" : "ok",
	       "%lu hash updates answered ok, %lu not, %u unanswered", ok,
	       bad, lost);
	check(f, 0, "i", "ok", chain_even(f, 1, 60));
	return failures ? 1 : 0;
}

/* ---- 43: a steady stream of control requests ----------------------------- */

#define CF_MS 30000		/* the stream */
#define CF_PROBE_MS 2000	/* the vif's own data path, probed this often */
/* The driver's budget (include/xen/xnb_ctrl.h): a ring's worth at once,
 * then 64 requests a second.
 */
#define CF_BURST 128
#define CF_RATE 64

/* Fill every free slot of the control ring and push; returns the slots
 * pushed.  @valid: a fresh request in each, SET_HASH_MAPPING_SIZE (the
 * table zero-filled), SET_HASH_MAPPING of the whole table and
 * SET_HASH_KEY (40 octets) in turn from the case's first (@base), each
 * a write of the hash state, the last two a grant copy.  Else only
 * req_prod moves on, over slots that hold our last responses: each
 * reads as a request of the same type with its status (0) and data (0)
 * as data[0] and data[1], which is valid too.
 */
static unsigned int cf_fill(struct fe *f, uint32_t key_ref, int valid,
			    RING_IDX base)
{
	unsigned int n = 0;

	while (f->ctrl_prod - f->ctrl_cons < CTR) {
		struct xen_netif_ctrl_request *r =
			&f->cs->ring[f->ctrl_prod % CTR].req;

		if (valid) {
			r->id = (uint16_t)f->ctrl_prod;
			r->data[2] = 0;
			switch ((f->ctrl_prod - base) % 3) {
			case 0:
				r->type = XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING_SIZE;
				r->data[0] = CS_TABLE;
				r->data[1] = 0;
				break;
			case 1:
				r->type = XEN_NETIF_CTRL_TYPE_SET_HASH_MAPPING;
				r->data[0] = f->cdata_ref;
				r->data[1] = CS_TABLE;
				break;
			default:
				r->type = XEN_NETIF_CTRL_TYPE_SET_HASH_KEY;
				r->data[0] = key_ref;
				r->data[1] = 40;
				break;
			}
		}
		f->ctrl_prod++;
		n++;
	}
	if (n) {
		xen_wmb();
		f->cs->req_prod = f->ctrl_prod;
		xen_mb();
	}
	return n;
}

/* Take the control responses there are: *@ok with status ok, *@bad
 * others; *@extra counts responses beyond our requests (not taken).
 */
static void cf_collect(struct fe *f, unsigned long *ok, unsigned long *bad,
		       unsigned long *extra)
{
	RING_IDX p = f->cs->rsp_prod;

	xen_rmb();
	if (p - f->ctrl_cons > f->ctrl_prod - f->ctrl_cons) {
		(*extra)++;
		p = f->ctrl_prod;
	}
	while (f->ctrl_cons != p) {
		if (f->cs->ring[f->ctrl_cons % CTR].rsp.status == CT_OK)
			(*ok)++;
		else
			(*bad)++;
		f->ctrl_cons++;
	}
}

/*
 * 43: for 30 s the program keeps the control ring full and notifies its
 * channel in a loop: valid hash updates for the first half, then only
 * req_prod moved on over the old responses.  Toeplitz hashing is on
 * meanwhile (each update a write of the hash seqlock the data path
 * reads), and every 2 s a probe goes over the vif's own data path.  The
 * backend serves its budget and no more (a ring's worth, then 64 a
 * second); dom0 measures its kworkers' CPU time and g1's pings over the
 * phase (data/hostile-phase "ctrl-flood").  Then the ring drains, a
 * request is answered and the probe works.
 */
enum hostile_end case_ctrl_flood(struct fe *f)
{
	static uint8_t *key;
	static uint32_t key_ref;
	unsigned long ok = 0, bad = 0, extra = 0, served, most, least;
	unsigned long pushes = 0, notes = 0;
	int probes = 0, probes_ok = 0, i;
	long t0, t, next_probe, ms;
	struct outcome o;
	RING_IDX base;

	if (ctrl_connected(f, 43))
		return END_REFUSED;
	if (!key)
		key = xengntshr_share_pages(f->gs, f->bedom, 1, &key_ref, 1);
	if (!key)
		die("sharing the key page");
	memcpy(key, xnb_rss_key, sizeof(xnb_rss_key));
	hash_setup(f, 43, 'c', XEN_NETIF_CTRL_HASH_TYPE_IPV4 |
		   XEN_NETIF_CTRL_HASH_TYPE_IPV4_TCP, CS_TABLE, NULL);
	/* hash_setup left the table all 0: valid for any queue count. */
	base = f->ctrl_prod;
	set_phase(f, "ctrl-flood");
	t0 = now_ms();
	next_probe = t0 + CF_PROBE_MS;
	while ((t = now_ms()) - t0 < CF_MS) {
		cf_collect(f, &ok, &bad, &extra);
		if (cf_fill(f, key_ref, t - t0 < CF_MS / 2, base))
			pushes++;
		for (i = 0; i < 100; i++)
			ctrl_notify(f);
		notes += 100;
		if (t >= next_probe) {
			probes++;
			if (!strcmp(play(f, chain_even(f, 1, 60), &o), "ok"))
				probes_ok++;
			next_probe = now_ms() + CF_PROBE_MS;
		} else {
			service_rx(f);
			usleep(200);
		}
	}
	ms = now_ms() - t0;
	set_phase(f, "-");
	cf_collect(f, &ok, &bad, &extra);
	served = ok + bad;
	most = CF_BURST + CF_RATE * (ms / 1000 + 1);
	least = CF_RATE * (ms / 1000) / 2;
	printf("HOSTILE-CTRLFLOOD served=%lu ok=%lu bad=%lu extra=%lu ms=%ld pushes=%lu notifications=%lu probes=%d/%d\n",
	       served, ok, bad, extra, ms, pushes, notes, probes_ok, probes);
	report(43, "j", "ok", bad || extra ? "bad" : "ok",
	       "%lu requests answered ok, %lu not, %lu responses past our requests, in %ld ms",
	       ok, bad, extra, ms);
	report(43, "k", "budget",
	       served > most ? "over" : served < least ? "starved" : "budget",
	       "%lu served in %ld ms (%.1f a second): at most %lu, at least %lu",
	       served, ms, served * 1000.0 / (ms ? ms : 1), most, least);
	report(43, "l", "ok", probes && probes_ok == probes ? "ok" : "lost",
	       "%d of %d probes on the vif's data path answered during the stream",
	       probes_ok, probes);
	/* At most a ring is left: two seconds of the budget. */
	t0 = now_ms();
	while (f->ctrl_cons != f->ctrl_prod && now_ms() - t0 < 10000) {
		cf_collect(f, &ok, &bad, &extra);
		service_rx(f);
		usleep(10000);
	}
	report(43, "m", "drained", f->ctrl_cons == f->ctrl_prod ? "drained" :
	       "stuck", "%u requests unanswered after %ld ms",
	       f->ctrl_prod - f->ctrl_cons, now_ms() - t0);
	f->cs->rsp_event = f->ctrl_cons + 1;
	ctrl_check(f, 43, "n", "ok", XEN_NETIF_CTRL_TYPE_GET_HASH_MAPPING_SIZE,
		   0, 0, 0, NULL, "a request after the stream");
	check(f, 43, "o", "ok", chain_even(f, 1, 60));
	return END_UP;
}
