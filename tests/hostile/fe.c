// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: the frontend half of a netfront, enough to misbehave with.  It
 * shares its own ring and data pages (gntalloc), binds event channels
 * (evtchn), writes the frontend keys of device/vif/<devid>, connects,
 * resets, queues TX requests and collects their responses, keeps RX
 * buffers posted, and hands the vif over between invocations (see
 * main.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fe.h"

const struct conn_opts honest = {
	.split = 1, .rx_copy = "1", .rx_notify = "1", .timeout_ms = 30000,
};

int verbose;

long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	printf("HOSTILE-ERROR ");
	vprintf(fmt, ap);
	printf(" (errno %d %s)\n", errno, strerror(errno));
	va_end(ap);
	fflush(stdout);
	exit(2);
}

/* ---- xenstore ---------------------------------------------------------- */

char *xs_get(struct fe *f, const char *path)
{
	unsigned int len;

	return xs_read(f->xs, XBT_NULL, path, &len);
}

int xs_int(struct fe *f, const char *path, int dflt)
{
	char *s = xs_get(f, path);
	int v = dflt;

	if (s) {
		v = atoi(s);
		free(s);
	}
	return v;
}

void xs_put(struct fe *f, const char *key, const char *fmt, ...)
{
	char path[256], val[128];
	va_list ap;

	snprintf(path, sizeof(path), "%s/%s", f->fp, key);
	va_start(ap, fmt);
	vsnprintf(val, sizeof(val), fmt, ap);
	va_end(ap);
	if (!xs_write(f->xs, XBT_NULL, path, val, strlen(val)))
		die("xs_write %s", path);
}

/* Tell dom0's side of the case (hostile.sh) which phase we are in. */
void set_phase(struct fe *f, const char *ph)
{
	xs_write(f->xs, XBT_NULL, "data/hostile-phase", ph, strlen(ph));
}

/* @path holds exactly @val (dom0's answer to a phase of ours). */
int xs_is(struct fe *f, const char *path, const char *val)
{
	char *s = xs_get(f, path);
	int is = s && !strcmp(s, val);

	free(s);
	return is;
}

/* The MAC that @path holds, "xx:xx:xx:xx:xx:xx", into @mac; 0 if none. */
int xs_mac(struct fe *f, const char *path, uint8_t *mac)
{
	char *s = xs_get(f, path);
	unsigned int b[6];
	int i, ok;

	ok = s && sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3],
			 &b[4], &b[5]) == 6;
	free(s);
	for (i = 0; ok && i < 6; i++)
		mac[i] = (uint8_t)b[i];
	return ok;
}

static void xs_del(struct fe *f, const char *key)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", f->fp, key);
	xs_rm(f->xs, XBT_NULL, path);
}

int be_state(struct fe *f)
{
	char path[200];

	snprintf(path, sizeof(path), "%s/state", f->bp);
	return xs_int(f, path, -1);
}

void fe_state(struct fe *f, int st)
{
	xs_put(f, "state", "%d", st);
}

/* Wait until the backend is in @want (returns it), or in a state of
 * @bad_mask, or the time runs out (returns the last state seen).
 */
static int wait_be(struct fe *f, int want, unsigned int bad_mask, int ms)
{
	long end = now_ms() + ms;
	int s;

	for (;;) {
		s = be_state(f);
		if (s == want || (s >= 0 && (bad_mask & (1u << s))))
			return s;
		if (now_ms() > end)
			return s;
		usleep(20000);
	}
}

/* ---- setup ------------------------------------------------------------- */

void fe_open(struct fe *f, int devid)
{
	char path[128], *s;
	unsigned int n, i;
	char **l;

	f->xs = xs_open(0);
	if (!f->xs)
		die("xs_open");
	f->gs = xengntshr_open(NULL, 0);
	if (!f->gs)
		die("xengntshr_open (is xen-gntalloc loaded?)");
	f->xce = xenevtchn_open(NULL, 0);
	if (!f->xce)
		die("xenevtchn_open (is xen-evtchn loaded?)");
	f->self = xs_int(f, "domid", -1);
	if (devid < 0) {
		/* The newest vif waiting for a frontend. */
		l = xs_directory(f->xs, XBT_NULL, "device/vif", &n);
		for (i = 0; l && i < n; i++) {
			int d = atoi(l[i]);

			snprintf(path, sizeof(path), "device/vif/%d/state", d);
			if (xs_int(f, path, -1) == XenbusStateInitialising &&
			    d > devid)
				devid = d;
		}
		free(l);
		if (devid < 0)
			die("no device/vif waiting for a frontend");
	}
	f->devid = devid;
	snprintf(f->fp, sizeof(f->fp), "device/vif/%d", devid);
	snprintf(path, sizeof(path), "%s/backend", f->fp);
	s = xs_get(f, path);
	if (!s)
		die("no %s", path);
	snprintf(f->bp, sizeof(f->bp), "%s", s);
	free(s);
	snprintf(path, sizeof(path), "%s/backend-id", f->fp);
	f->bedom = xs_int(f, path, 0);
	snprintf(path, sizeof(path), "%s/mac", f->fp);
	s = xs_get(f, path);
	if (!s || sscanf(s, "%hhx:%hhx:%hhx:%hhx:%hhx:%hhx", &f->mac[0],
			 &f->mac[1], &f->mac[2], &f->mac[3], &f->mac[4],
			 &f->mac[5]) != 6)
		die("bad mac");
	free(s);

	f->tx = xengntshr_share_pages(f->gs, f->bedom, NTX, f->txref, 1);
	f->rx = xengntshr_share_pages(f->gs, f->bedom, NRX, f->rxref, 1);
	f->cdata = xengntshr_share_pages(f->gs, f->bedom, 1, &f->cdata_ref, 1);
	if (!f->tx || !f->rx || !f->cdata)
		die("sharing data pages");
	f->rx_post = 1;
}

static void fe_share_rings(struct fe *f, const struct conn_opts *o)
{
	f->txs = xengntshr_share_pages(f->gs, f->bedom, 1, &f->tx_ref, 1);
	f->rxs = xengntshr_share_pages(f->gs, f->bedom, 1, &f->rx_ref, 1);
	if (!f->txs || !f->rxs)
		die("sharing ring pages");
	memset(f->txs, 0, PAGE);
	memset(f->rxs, 0, PAGE);
	SHARED_RING_INIT(f->txs);
	SHARED_RING_INIT(f->rxs);
	f->txs->req_prod = o->tx_req_prod;
	f->rxs->req_prod = o->rx_req_prod;
	f->tx_prod = f->tx_cons = 0;
	f->rx_prod = f->rx_cons = 0;
	f->txs->rsp_event = 1;
	f->rxs->rsp_event = 1;
}

static void fe_drop_rings(struct fe *f)
{
	int q;

	if (f->ptx > 0)
		xenevtchn_unbind(f->xce, f->ptx);
	if (f->prx > 0 && f->prx != f->ptx)
		xenevtchn_unbind(f->xce, f->prx);
	f->ptx = f->prx = 0;
	if (f->txs)
		xengntshr_unshare(f->gs, f->txs, 1);
	if (f->rxs)
		xengntshr_unshare(f->gs, f->rxs, 1);
	f->txs = NULL;
	f->rxs = NULL;
	f->connected = 0;
	for (q = 1; q < FE_MAXQ; q++) {
		struct fe_q *m = &f->mq[q];

		if (m->port > 0)
			xenevtchn_unbind(f->xce, m->port);
		if (m->txs)
			xengntshr_unshare(f->gs, m->txs, 1);
		if (m->rxs)
			xengntshr_unshare(f->gs, m->rxs, 1);
		memset(m, 0, sizeof(*m));
	}
	f->nq = 1;
	if (f->pctrl > 0)
		xenevtchn_unbind(f->xce, f->pctrl);
	if (f->cs)
		xengntshr_unshare(f->gs, f->cs, 1);
	f->pctrl = 0;
	f->cs = NULL;
}

/* Rings and a channel for queue 1.. (no buffers posted: the case does). */
static void fe_share_queue(struct fe *f, struct fe_q *m)
{
	m->txs = xengntshr_share_pages(f->gs, f->bedom, 1, &m->tx_ref, 1);
	m->rxs = xengntshr_share_pages(f->gs, f->bedom, 1, &m->rx_ref, 1);
	m->port = xenevtchn_bind_unbound_port(f->xce, f->bedom);
	if (!m->txs || !m->rxs || m->port < 0)
		die("sharing queue rings");
	memset(m->txs, 0, PAGE);
	memset(m->rxs, 0, PAGE);
	SHARED_RING_INIT(m->txs);
	SHARED_RING_INIT(m->rxs);
	m->txs->rsp_event = 1;
	m->rxs->rsp_event = 1;
}

static void notify_tx(struct fe *f)
{
	xenevtchn_notify(f->xce, f->ptx);
}

void notify_rx(struct fe *f)
{
	xenevtchn_notify(f->xce, f->prx);
}

void post_rx(struct fe *f)
{
	int posted = 0;

	if (!f->connected || !f->rx_post)
		return;
	while (f->rx_prod - f->rx_cons < NRX) {
		netif_rx_request_t *r = &f->rxs->ring[f->rx_prod % RXR].req;

		r->id = f->rx_prod % NRX;
		r->gref = f->rx_bad_gref ? f->rx_bad_gref : f->rxref[f->rx_prod % NRX];
		f->rx_prod++;
		posted = 1;
	}
	if (posted) {
		xen_wmb();
		f->rxs->req_prod = f->rx_prod;
		xen_mb();
		notify_rx(f);
	}
}

/* Consume RX responses (buffers the backend filled) and repost. */
void service_rx(struct fe *f)
{
	RING_IDX p;
	int extra = 0;

	if (!f->connected || f->rx_manual)
		return;
	p = f->rxs->rsp_prod;
	xen_rmb();
	while (f->rx_cons != p) {
		netif_rx_response_t *r = &f->rxs->ring[f->rx_cons % RXR].rsp;

		if (extra) {
			extra = ((netif_extra_info_t *)r)->flags &
				XEN_NETIF_EXTRA_FLAG_MORE;
		} else {
			if (r->status < 0) {
				f->rx_err++;
			} else {
				const uint8_t *d = f->rx + (r->id % NRX) * PAGE +
						   r->offset;

				if (!f->rx_in_pkt && r->status >= 14 &&
				    r->offset <= PAGE - 14) {
					if (!memcmp(d, f->mc_a, 6))
						f->rx_mc_a++;
					else if (!memcmp(d, f->mc_b, 6))
						f->rx_mc_b++;
				}
				f->rx_ok++;
				if (r->offset > f->rx_off_max)
					f->rx_off_max = r->offset;
				if (r->offset + (unsigned int)r->status >
				    f->rx_end_max)
					f->rx_end_max = r->offset + r->status;
			}
			extra = r->flags & NETRXF_extra_info;
			f->rx_in_pkt = !!(r->flags & NETRXF_more_data);
		}
		f->rx_cons++;
	}
	f->rxs->rsp_event = f->rx_cons + 1;
	xen_mb();
	post_rx(f);
}

/* Wait up to @ms for an event on any of our ports. */
void wait_event(struct fe *f, int ms)
{
	struct pollfd pfd = { .fd = xenevtchn_fd(f->xce), .events = POLLIN };
	int port;

	if (poll(&pfd, 1, ms) > 0) {
		port = xenevtchn_pending(f->xce);
		if (port >= 0)
			xenevtchn_unmask(f->xce, port);
	}
}

/* Write our keys and go Connected.  Returns 0 when the backend reached
 * Connected, 1 when it refused (Closing/Closed or never Connected).
 */
int fe_connect(struct fe *f, const struct conn_opts *o)
{
	int s, q, nq;

	s = wait_be(f, XenbusStateInitWait, 0, 60000);
	if (s != XenbusStateInitWait)
		die("backend state %d, not InitWait", s);
	fe_share_rings(f, o);
	f->ptx = xenevtchn_bind_unbound_port(f->xce, f->bedom);
	f->prx = o->split ? xenevtchn_bind_unbound_port(f->xce, f->bedom) : f->ptx;
	if (f->ptx < 0 || f->prx < 0)
		die("binding event channels");

	nq = o->nq > 1 ? o->nq_keys : 1;
	f->nq = o->mq_rings ? nq : 1;
	for (q = 0; q < nq; q++) {
		char pre[32] = "";

		if (o->nq > 1)
			snprintf(pre, sizeof(pre), "queue-%d/", q);
#define KEY(k) (snprintf(key, sizeof(key), "%s%s", pre, k), key)
		char key[64];

		if (o->mq_rings && q > 0 && q < FE_MAXQ) {
			fe_share_queue(f, &f->mq[q]);
			xs_put(f, KEY("tx-ring-ref"), "%u", f->mq[q].tx_ref);
			xs_put(f, KEY("rx-ring-ref"), "%u", f->mq[q].rx_ref);
			xs_put(f, KEY("event-channel"), "%d", f->mq[q].port);
			continue;
		}
		if (o->tx_ref_str)
			xs_put(f, KEY("tx-ring-ref"), "%s", o->tx_ref_str);
		else
			xs_put(f, KEY("tx-ring-ref"), "%u", f->tx_ref);
		xs_put(f, KEY("rx-ring-ref"), "%u", f->rx_ref);
		if (o->evt_str) {
			xs_put(f, KEY("event-channel"), "%s", o->evt_str);
		} else if (o->split) {
			xs_put(f, KEY("event-channel-tx"), "%d", f->ptx);
			xs_put(f, KEY("event-channel-rx"), "%d", f->prx);
		} else {
			xs_put(f, KEY("event-channel"), "%d", f->ptx);
		}
#undef KEY
	}
	if (o->nq)
		xs_put(f, "multi-queue-num-queues", "%d", o->nq);
	if (o->rx_copy)
		xs_put(f, "request-rx-copy", "%s", o->rx_copy);
	if (o->rx_notify)
		xs_put(f, "feature-rx-notify", "%s", o->rx_notify);
	xs_put(f, "feature-sg", "1");
	xs_put(f, "feature-gso-tcpv4", "1");
	if (o->ctrl) {
		f->cs = xengntshr_share_pages(f->gs, f->bedom, 1, &f->ctrl_ref, 1);
		f->pctrl = xenevtchn_bind_unbound_port(f->xce, f->bedom);
		if (!f->cs || f->pctrl < 0)
			die("sharing the control ring");
		memset(f->cs, 0, PAGE);
		SHARED_RING_INIT(f->cs);
		f->cs->req_prod = o->ctrl_req_prod;
		f->cs->rsp_event = 1;
		f->ctrl_prod = f->ctrl_cons = 0;
		xs_put(f, "ctrl-ring-ref", "%u", f->ctrl_ref);
		xs_put(f, "event-channel-ctrl", "%d", f->pctrl);
	}
	fe_state(f, XenbusStateConnected);
	s = wait_be(f, XenbusStateConnected,
		    (1u << XenbusStateClosing) | (1u << XenbusStateClosed),
		    o->timeout_ms ? o->timeout_ms : 30000);
	if (s != XenbusStateConnected)
		return 1;
	f->connected = 1;
	post_rx(f);
	return 0;
}

void ctrl_notify(struct fe *f)
{
	xenevtchn_notify(f->xce, f->pctrl);
}

int ctrl_call(struct fe *f, uint16_t type, uint32_t d0, uint32_t d1,
	      uint32_t d2, uint32_t *data, int ms)
{
	struct xen_netif_ctrl_request *r;
	long end = now_ms() + ms;
	uint16_t id;

	if (!f->cs)
		die("no control ring");
	id = (uint16_t)f->ctrl_prod;
	r = &f->cs->ring[f->ctrl_prod % CTR].req;
	r->id = id;
	r->type = type;
	r->data[0] = d0;
	r->data[1] = d1;
	r->data[2] = d2;
	f->ctrl_prod++;
	xen_wmb();
	f->cs->req_prod = f->ctrl_prod;
	xen_mb();
	ctrl_notify(f);
	while (now_ms() < end) {
		if (f->cs->rsp_prod != f->ctrl_cons) {
			struct xen_netif_ctrl_response *p;

			xen_rmb();
			p = &f->cs->ring[f->ctrl_cons % CTR].rsp;
			f->ctrl_cons++;
			f->cs->rsp_event = f->ctrl_cons + 1;
			if (p->id != id)
				return -2;
			if (data)
				*data = p->data;
			return (int)p->status;
		}
		wait_event(f, 50);
	}
	return -1;
}

/* The connection's keys and rings, once the backend let go of them. */
static void fe_forget(struct fe *f)
{
	static const char *const keys[] = {
		"tx-ring-ref", "rx-ring-ref", "event-channel", "event-channel-tx",
		"event-channel-rx", "multi-queue-num-queues", "queue-0",
		"queue-1", "queue-2", "queue-3", "queue-4", "queue-5",
		"queue-6", "queue-7", "ctrl-ring-ref", "event-channel-ctrl",
		"request-rx-copy", "feature-rx-notify",
	};
	unsigned int i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		xs_del(f, keys[i]);
	fe_drop_rings(f);
}

/* Start over as a frontend would after a reset: Closing, Closed,
 * Initialising; the backend must come back to InitWait.
 */
int fe_reset(struct fe *f)
{
	int s;

	f->connected = 0;
	fe_state(f, XenbusStateClosing);
	wait_be(f, XenbusStateClosing, 1u << XenbusStateClosed, 10000);
	fe_state(f, XenbusStateClosed);
	s = wait_be(f, XenbusStateClosed, 0, 10000);
	fe_forget(f);
	fe_state(f, XenbusStateInitialising);
	s = wait_be(f, XenbusStateInitWait, 0, 20000);
	return s == XenbusStateInitWait ? 0 : -1;
}

/* Start over straight from a connection, as a netfront that reloads
 * without closing would: Initialising, and the backend disconnects and
 * comes back to InitWait (Closing on the way); then the keys and rings
 * go.  0 when it did.
 */
int fe_restart(struct fe *f)
{
	int s;

	f->connected = 0;
	fe_state(f, XenbusStateInitialising);
	s = wait_be(f, XenbusStateInitWait, 0, 20000);
	fe_forget(f);
	return s == XenbusStateInitWait ? 0 : -1;
}

/* ---- sharing one vif between invocations ------------------------------- */

static void pidfile(const struct fe *f, char *buf, size_t len)
{
	snprintf(buf, len, "/run/hostile.%u.pid", f->devid);
}

static int alive(pid_t pid)
{
	char path[64], st = 0;
	FILE *fp;

	if (kill(pid, 0))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fp = fopen(path, "r");
	if (!fp)
		return 0;
	if (fscanf(fp, "%*d %*s %c", &st) != 1)
		st = 0;
	fclose(fp);
	return st && st != 'Z';
}

/* The previous invocation's lingering child on this vif resets the
 * connection and exits; then make sure the backend waits for us.
 */
void takeover(struct fe *f)
{
	char path[64], fs_path[128];
	long t0 = now_ms();
	FILE *fp;
	int pid = 0, fs, bs;

	pidfile(f, path, sizeof(path));
	fp = fopen(path, "r");
	if (fp) {
		if (fscanf(fp, "%d", &pid) != 1)
			pid = 0;
		fclose(fp);
	}
	if (pid > 1 && alive(pid)) {
		kill(pid, SIGTERM);
		while (alive(pid) && now_ms() - t0 < 45000)
			usleep(20000);
		if (alive(pid)) {
			printf("HOSTILE-WARN previous instance %d ignored SIGTERM\n", pid);
			kill(pid, SIGKILL);
			usleep(200000);
		}
	}
	unlink(path);
	snprintf(fs_path, sizeof(fs_path), "%s/state", f->fp);
	fs = xs_int(f, fs_path, -1);
	bs = be_state(f);
	if (fs == XenbusStateInitialising && bs == XenbusStateInitWait)
		return;
	if (fs == XenbusStateClosed || fs == XenbusStateInitialising) {
		fe_state(f, XenbusStateInitialising);
		if (wait_be(f, XenbusStateInitWait, 0, 20000) == XenbusStateInitWait)
			return;
	}
	if (fe_reset(f))
		die("takeover: backend state %d, not InitWait (frontend was %d, backend %d)",
		    be_state(f), fs, bs);
	if (verbose)
		printf("HOSTILE-TAKEOVER frontend %d backend %d -> reset in %ld ms\n",
		       fs, bs, now_ms() - t0);
}

/* ---- TX requests ------------------------------------------------------- */

void put(struct fe *f, uint32_t gref, uint16_t off, uint16_t flags,
		uint16_t id, uint16_t size)
{
	netif_tx_request_t *r = &f->txs->ring[f->tx_prod % TXR].req;

	r->gref = gref;
	r->offset = off;
	r->flags = flags;
	r->id = id;
	r->size = size;
	f->tx_prod++;
}

void put_extra(struct fe *f, uint8_t type, uint8_t flags, uint16_t a,
		      uint8_t b)
{
	netif_extra_info_t *e = (void *)&f->txs->ring[f->tx_prod % TXR].req;

	memset(e, 0, sizeof(*e));
	e->type = type;
	e->flags = flags;
	e->u.gso.size = a;
	e->u.gso.type = b;
	e->u.gso.features = 0;
	f->tx_prod++;
}

/* A multicast extra with a whole address (u.mcast.addr). */
void put_mcast(struct fe *f, uint8_t type, uint8_t flags,
	       const uint8_t *addr)
{
	netif_extra_info_t *e = (void *)&f->txs->ring[f->tx_prod % TXR].req;

	memset(e, 0, sizeof(*e));
	e->type = type;
	e->flags = flags;
	memcpy(e->u.mcast.addr, addr, 6);
	f->tx_prod++;
}

void push(struct fe *f)
{
	xen_wmb();
	f->txs->req_prod = f->tx_prod;
	xen_mb();
	notify_tx(f);
}

/* Collect TX responses until @want arrived or @ms passed; returns count. */
int collect(struct fe *f, int want, int ms)
{
	long end = now_ms() + ms;
	int got = 0;

	f->nlast = 0;
	for (;;) {
		RING_IDX p = f->txs->rsp_prod;

		xen_rmb();
		while (f->tx_cons != p) {
			netif_tx_response_t r = f->txs->ring[f->tx_cons % TXR].rsp;

			f->tx_cons++;
			got++;
			f->n_resp++;
			if (r.status == NETIF_RSP_OKAY)
				f->n_ok++;
			else if (r.status == NETIF_RSP_NULL)
				f->n_null++;
			else if (r.status == NETIF_RSP_ERROR ||
				 r.status == NETIF_RSP_DROPPED)
				f->n_err++;
			else
				f->n_other++;
			if (f->nlast < (int)(sizeof(f->last) / sizeof(f->last[0])))
				f->last[f->nlast++] = r;
		}
		f->txs->rsp_event = f->tx_cons + 1;
		xen_mb();
		service_rx(f);
		if (got >= want)
			return got;
		if (f->txs->rsp_prod != f->tx_cons)
			continue;
		if (now_ms() >= end)
			return got;
		wait_event(f, 50);
	}
}

/* A harmless frame: to our own MAC (the bridge never forwards it back),
 * local experimental ethertype.  Written at @off of TX page @pg.
 */
void frame(struct fe *f, int pg, unsigned int off, unsigned int len)
{
	uint8_t *p = f->tx + pg * PAGE + off;
	unsigned int i;

	memcpy(p, f->mac, 6);
	memcpy(p + 6, f->mac, 6);
	p[12] = 0x88;
	p[13] = 0xb5;
	for (i = 14; i < len && off + i < PAGE; i++)
		p[i] = (uint8_t)i;
}

int send_probe(struct fe *f)
{
	frame(f, 0, 0, 60);
	put(f, f->txref[0], 0, 0, 0x7ead, 60);
	push(f);
	return 1;
}

/* ---- lingering ----------------------------------------------------------- */

/* Keep the connection (RX buffers recycled) until the toolstack removes
 * the device; answer each Closing with Closed.
 */
static volatile sig_atomic_t handover;

static void on_term(int sig)
{
	(void)sig;
	handover = 1;
}

void linger(struct fe *f, int seconds)
{
	long end = now_ms() + seconds * 1000L, closed_at = 0;
	char path[64];
	FILE *fp;

	pidfile(f, path, sizeof(path));
	signal(SIGTERM, on_term);
	fp = fopen(path, "w");
	if (fp) {
		fprintf(fp, "%d\n", (int)getpid());
		fclose(fp);
	}
	for (;;) {
		int s = be_state(f);

		if (handover) {
			/* The next invocation wants the vif: leave it waiting
			 * for a frontend (InitWait), with nothing of ours mapped.
			 */
			if (s >= 0)
				fe_reset(f);
			break;
		}
		if (s < 0 || now_ms() > end)
			break;
		if (s == XenbusStateClosing && now_ms() - closed_at > 500) {
			f->connected = 0;
			fe_state(f, XenbusStateClosed);
			closed_at = now_ms();
		}
		if (f->connected) {
			service_rx(f);
			wait_event(f, 100);
		} else {
			usleep(100000);
		}
	}
	unlink(path);
}
