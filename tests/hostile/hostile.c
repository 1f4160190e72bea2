// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: a misbehaving netfront, run as a program inside a lab PV guest
 * that has no xen-netfront bound to the attacked vif.  It shares its own
 * ring and data pages (gntalloc), binds event channels (evtchn), writes the
 * frontend keys of device/vif/<devid> and then plays one case of
 * docs/hostile-catalogue.md against the backend in dom0.
 *
 *   hostile [--dev K] case N [N...]  catalogue cases (1..28), in order
 *   hostile [--dev K] --random SEED --count N
 *                                    seeded random/mutated/boundary TX
 *                                    requests, reconnecting after a fatal
 *   hostile --grant-page SECONDS     (guest) grant dom0 one page holding
 *                                    FOREIGN_PATTERN; print its gref, keep
 *                                    it granted SECONDS in the background
 *   hostile --foreign-send DOMID GREF IP PORT PAGES
 *                                    (dom0) map that page (gntdev) and send
 *                                    it PAGES times over TCP to IP:PORT with
 *                                    MSG_ZEROCOPY: the skbs carry a foreign
 *                                    page to the backend's guest RX path
 *
 * Output, one line per check:
 *   HOSTILE case=<n><sub> expect=<a|b> got=<ok|drop|fatal|refused|...> detail=...
 *   HOSTILE-END case=<n> result=PASS|FAIL final=<up|fatal|refused>
 * "final" is what dom0 must find afterwards: up (carrier 1), fatal (the
 * "vif disabled" log line, carrier 0) or refused (never Connected).
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
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <linux/errqueue.h>

#include <xenstore.h>
#include <xengnttab.h>
#include <xenevtchn.h>

/* ring.h expects the toolstack's barrier macros (x86-64; older
 * interface versions spell them mb/rmb/wmb).
 */
#define mb()  __asm__ __volatile__("mfence" ::: "memory")
#define rmb() __asm__ __volatile__("" ::: "memory")
#define wmb() __asm__ __volatile__("" ::: "memory")
#define xen_mb() mb()
#define xen_rmb() rmb()
#define xen_wmb() wmb()
#include <xen/xen.h>
#include <xen/io/netif.h>
#include <xen/io/xenbus.h>

#define PAGE 4096u
#define NTX 64			/* TX data pages */
#define NRX 64			/* RX buffer pages */
#define TXR __CONST_RING_SIZE(netif_tx, 4096)	/* 256 */
#define RXR __CONST_RING_SIZE(netif_rx, 4096)

struct fe {
	struct xs_handle *xs;
	xengntshr_handle *gs;
	xenevtchn_handle *xce;
	unsigned int self, devid, bedom;
	char fp[64], bp[160];
	uint8_t mac[6];
	/* rings */
	netif_tx_sring_t *txs;
	netif_rx_sring_t *rxs;
	uint32_t tx_ref, rx_ref;
	int ptx, prx;		/* local ports, equal when not split */
	RING_IDX tx_prod, tx_cons, rx_prod, rx_cons;
	int connected;
	/* data */
	uint8_t *tx;		/* NTX pages */
	uint32_t txref[NTX];
	uint8_t *rx;		/* NRX pages */
	uint32_t rxref[NRX];
	int rx_post;		/* keep RX buffers posted */
	uint32_t rx_bad_gref;	/* nonzero: post RX requests with this gref */
	/* counters */
	unsigned long n_ok, n_err, n_null, n_other, n_resp;
	unsigned long rx_ok, rx_err;
	/* last collected responses */
	int nlast;
	netif_tx_response_t last[1024];
};

struct conn_opts {
	int split;		/* separate event channels */
	int nq;			/* write multi-queue-num-queues (0: do not) */
	int nq_keys;		/* queues whose keys are written (multi-queue) */
	const char *rx_copy;	/* NULL: omit */
	const char *rx_notify;	/* NULL: omit */
	const char *tx_ref_str;	/* override tx-ring-ref value */
	const char *evt_str;	/* override event channel value */
	RING_IDX tx_req_prod, rx_req_prod;	/* initial producer indices */
	int ctrl;		/* also write a ctrl-ring-ref (ignored by us) */
	RING_IDX ctrl_req_prod;
	int timeout_ms;
};

static const struct conn_opts honest = {
	.split = 1, .rx_copy = "1", .rx_notify = "1", .timeout_ms = 30000,
};

static int verbose;
static int failures;

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

static void die(const char *fmt, ...)
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

static char *xs_get(struct fe *f, const char *path)
{
	unsigned int len;

	return xs_read(f->xs, XBT_NULL, path, &len);
}

static int xs_int(struct fe *f, const char *path, int dflt)
{
	char *s = xs_get(f, path);
	int v = dflt;

	if (s) {
		v = atoi(s);
		free(s);
	}
	return v;
}

static void xs_put(struct fe *f, const char *key, const char *fmt, ...)
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

static void xs_del(struct fe *f, const char *key)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", f->fp, key);
	xs_rm(f->xs, XBT_NULL, path);
}

static int be_state(struct fe *f)
{
	char path[200];

	snprintf(path, sizeof(path), "%s/state", f->bp);
	return xs_int(f, path, -1);
}

static void fe_state(struct fe *f, int st)
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

static void fe_open(struct fe *f, int devid)
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
	if (!f->tx || !f->rx)
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
}

static void notify_tx(struct fe *f)
{
	xenevtchn_notify(f->xce, f->ptx);
}

static void notify_rx(struct fe *f)
{
	xenevtchn_notify(f->xce, f->prx);
}

static void post_rx(struct fe *f)
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
static void service_rx(struct fe *f)
{
	RING_IDX p;
	int extra = 0;

	if (!f->connected)
		return;
	p = f->rxs->rsp_prod;
	xen_rmb();
	while (f->rx_cons != p) {
		netif_rx_response_t *r = &f->rxs->ring[f->rx_cons % RXR].rsp;

		if (extra) {
			extra = ((netif_extra_info_t *)r)->flags &
				XEN_NETIF_EXTRA_FLAG_MORE;
		} else {
			if (r->status < 0)
				f->rx_err++;
			else
				f->rx_ok++;
			extra = r->flags & NETRXF_extra_info;
		}
		f->rx_cons++;
	}
	f->rxs->rsp_event = f->rx_cons + 1;
	xen_mb();
	post_rx(f);
}

/* Wait up to @ms for an event on any of our ports. */
static void wait_event(struct fe *f, int ms)
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
static int fe_connect(struct fe *f, const struct conn_opts *o)
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
	for (q = 0; q < nq; q++) {
		char pre[32] = "";

		if (o->nq > 1)
			snprintf(pre, sizeof(pre), "queue-%d/", q);
#define KEY(k) (snprintf(key, sizeof(key), "%s%s", pre, k), key)
		char key[64];

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
		uint32_t cref;
		uint32_t *cp = xengntshr_share_pages(f->gs, f->bedom, 1, &cref, 1);

		if (!cp)
			die("sharing ctrl page");
		memset(cp, 0, PAGE);
		cp[0] = o->ctrl_req_prod;	/* req_prod far ahead */
		xs_put(f, "ctrl-ring-ref", "%u", cref);
		xs_put(f, "event-channel-ctrl", "%d", f->ptx);
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

/* Start over as a frontend would after a reset: Closing, Closed,
 * Initialising; the backend must come back to InitWait.
 */
static int fe_reset(struct fe *f)
{
	static const char *const keys[] = {
		"tx-ring-ref", "rx-ring-ref", "event-channel", "event-channel-tx",
		"event-channel-rx", "multi-queue-num-queues", "queue-0",
		"queue-1", "ctrl-ring-ref", "event-channel-ctrl",
		"request-rx-copy", "feature-rx-notify",
	};
	unsigned int i;
	int s;

	f->connected = 0;
	fe_state(f, XenbusStateClosing);
	wait_be(f, XenbusStateClosing, 1u << XenbusStateClosed, 10000);
	fe_state(f, XenbusStateClosed);
	s = wait_be(f, XenbusStateClosed, 0, 10000);
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		xs_del(f, keys[i]);
	fe_drop_rings(f);
	fe_state(f, XenbusStateInitialising);
	s = wait_be(f, XenbusStateInitWait, 0, 20000);
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
static void takeover(struct fe *f)
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

static void put(struct fe *f, uint32_t gref, uint16_t off, uint16_t flags,
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

static void put_extra(struct fe *f, uint8_t type, uint8_t flags, uint16_t a,
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

static void push(struct fe *f)
{
	xen_wmb();
	f->txs->req_prod = f->tx_prod;
	xen_mb();
	notify_tx(f);
}

/* Collect TX responses until @want arrived or @ms passed; returns count. */
static int collect(struct fe *f, int want, int ms)
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
static void frame(struct fe *f, int pg, unsigned int off, unsigned int len)
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

static int send_probe(struct fe *f)
{
	frame(f, 0, 0, 60);
	put(f, f->txref[0], 0, 0, 0x7ead, 60);
	push(f);
	return 1;
}

/* ---- verdicts ---------------------------------------------------------- */

struct outcome {
	int got;		/* responses to the crafted packets */
	int ok, err, null, other;
	int probe;		/* 1 OK, 0 none, -1 error */
};

static void tally(struct fe *f, struct outcome *o, int from, int to)
{
	int i;

	for (i = from; i < to && i < f->nlast; i++) {
		int st = f->last[i].status;

		if (st == NETIF_RSP_OKAY)
			o->ok++;
		else if (st == NETIF_RSP_NULL)
			o->null++;
		else if (st == NETIF_RSP_ERROR || st == NETIF_RSP_DROPPED)
			o->err++;
		else
			o->other++;
	}
}

/* Push what the case queued (@nslots slots), then a probe; classify. */
static const char *play(struct fe *f, int nslots, struct outcome *o)
{
	int n;

	memset(o, 0, sizeof(*o));
	push(f);
	n = collect(f, nslots, 3000);
	o->got = n;
	tally(f, o, 0, n);
	send_probe(f);
	n = collect(f, nslots - o->got + 1, 3000);
	if (o->got < nslots) {
		int more = n < nslots - o->got ? n : nslots - o->got;

		tally(f, o, 0, more);
		o->got += more;
		if (n > more)
			o->probe = f->last[more].status == NETIF_RSP_OKAY ? 1 : -1;
	} else if (n >= 1) {
		o->probe = f->last[0].status == NETIF_RSP_OKAY ? 1 : -1;
	}
	if (o->probe == 0 && o->got < nslots)
		return "fatal";
	if (o->probe == 0)
		return "stalled";	/* answered the bad packet, not the probe */
	if (o->got < nslots)
		return "partial";
	if (o->probe < 0)
		return "probe-error";
	if (o->other)
		return "bad-status";
	if (o->err)
		return "drop";
	return "ok";
}

static int matches(const char *expect, const char *got)
{
	char buf[64], *t, *save;

	snprintf(buf, sizeof(buf), "%s", expect);
	for (t = strtok_r(buf, "|", &save); t; t = strtok_r(NULL, "|", &save))
		if (!strcmp(t, got))
			return 1;
	return 0;
}

static int report(int cs, const char *sub, const char *expect, const char *got,
		  const char *fmt, ...)
{
	char detail[256];
	va_list ap;
	int ok = matches(expect, got);

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	printf("HOSTILE case=%d%s expect=%s got=%s %s detail=%s\n", cs, sub,
	       expect, got, ok ? "pass" : "FAIL", detail);
	fflush(stdout);
	if (!ok)
		failures++;
	return ok;
}

static const char *check(struct fe *f, int cs, const char *sub,
			 const char *expect, int nslots)
{
	struct outcome o;
	const char *g = play(f, nslots, &o);

	report(cs, sub, expect, g, "slots=%d responses=%d ok=%d err=%d null=%d other=%d probe=%d",
	       nslots, o.got, o.ok, o.err, o.null, o.other, o.probe);
	return g;
}

/* ---- cases ------------------------------------------------------------- */

/* A chain of @n data slots carrying @total bytes: slot sizes @sz[1..n-1],
 * the first slot's data is the rest.  Each slot on its own TX page.
 */
static int chain(struct fe *f, int n, unsigned int total, const uint16_t *sz,
		 uint16_t first_flags)
{
	int i;

	frame(f, 0, 0, total < PAGE ? total : PAGE);
	put(f, f->txref[0], 0, first_flags | (n > 1 ? NETTXF_more_data : 0), 1,
	    total);
	for (i = 1; i < n; i++)
		put(f, f->txref[i % NTX], 0, i < n - 1 ? NETTXF_more_data : 0,
		    (uint16_t)(1 + i), sz[i]);
	return n;
}

static int chain_even(struct fe *f, int n, unsigned int per)
{
	uint16_t sz[64];
	int i;

	for (i = 0; i < n && i < 64; i++)
		sz[i] = per;
	return chain(f, n, per * n, sz, 0);
}

/* An IPv4/TCP frame in TX page 0 for GSO and checksum cases. */
static unsigned int tcp_frame(struct fe *f, unsigned int len, int broken)
{
	uint8_t *p = f->tx;

	frame(f, 0, 0, len);
	p[12] = 0x08;
	p[13] = 0x00;
	memset(p + 14, 0, 40);
	p[14] = broken ? 0x4f : 0x45;	/* ihl 15 (60 bytes) on a short packet */
	p[16] = (len - 14) >> 8;
	p[17] = (len - 14) & 0xff;
	if (broken) {
		p[16] = 0xff;		/* total length beyond the frame */
		p[17] = 0xff;
	}
	p[22] = 64;
	p[23] = 6;			/* TCP */
	p[26] = 192; p[27] = 0; p[28] = 2; p[29] = 99;
	p[30] = 192; p[31] = 0; p[32] = 2; p[33] = 98;
	p[34 + 12] = 0x50;		/* data offset 5 */
	return len;
}

/* 19, 28: ARP "who has 192.0.2.1" from our MAC in TX page 0, so dom0 answers. */
static void arp_request(struct fe *f)
{
	uint8_t *p = f->tx;

	memset(p, 0xff, 6);
	memcpy(p + 6, f->mac, 6);
	p[12] = 0x08; p[13] = 0x06;
	memcpy(p + 14, "\x00\x01\x08\x00\x06\x04\x00\x01", 8);
	memcpy(p + 22, f->mac, 6);
	memcpy(p + 28, "\xc0\x00\x02\x63", 4);	/* 192.0.2.99 */
	memset(p + 32, 0, 6);
	memcpy(p + 38, "\xc0\x00\x02\x01", 4);	/* 192.0.2.1 */
}

static int backend_feature(struct fe *f, const char *k)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", f->bp, k);
	return xs_int(f, path, -1);
}

static int connect_or_die(struct fe *f, const struct conn_opts *o, int cs)
{
	if (fe_connect(f, o)) {
		report(cs, "", "connected", "refused", "backend state %d",
		       be_state(f));
		return -1;
	}
	return 0;
}

/* Each case: returns the final vif state dom0 must see. */
static const char *run_case(struct fe *f, int cs)
{
	struct conn_opts o = honest;
	struct outcome oc;
	uint16_t sz[64];
	int i, s, n;

	switch (cs) {
	case 2:
	case 23:
	case 24:
		break;
	default:
		/* A case after an "up" one in the same invocation goes on on
		 * the same connection (the ring is in step, buffers posted).
		 */
		if (!f->connected && connect_or_die(f, &o, cs))
			return "refused";
	}

	switch (cs) {
	case 1:	/* producer more than a ring ahead */
		put(f, f->txref[0], 0, 0, 1, 60);
		f->tx_prod += TXR + 40;
		check(f, 1, "", "fatal", 1);
		return "fatal";

	case 2:	/* impossible indices at connect, TX then RX ring */
		o.tx_req_prod = 1000;
		s = fe_connect(f, &o);
		report(2, "a", "refused", s ? "refused" : "connected",
		       "tx req_prod=1000 rsp_prod=0 backend state %d", be_state(f));
		if (fe_reset(f))
			die("reset");
		o = honest;
		o.rx_req_prod = 0x80000000u;
		s = fe_connect(f, &o);
		report(2, "b", "refused", s ? "refused" : "connected",
		       "rx req_prod=2^31 backend state %d", be_state(f));
		if (fe_reset(f))
			die("reset");
		o = honest;
		s = fe_connect(f, &o);
		report(2, "c", "connected", s ? "refused" : "connected",
		       "honest reconnect after refusals");
		if (!s)
			check(f, 2, "d", "ok", chain_even(f, 1, 60));
		return s ? "refused" : "up";

	case 3:	/* more-data chain running past req_prod */
		frame(f, 0, 0, 200);
		put(f, f->txref[0], 0, NETTXF_more_data, 1, 200);
		check(f, 3, "", "fatal", 1);
		return "fatal";

	case 4:	/* 19 data slots: drop; first + 20 further: fatal */
		check(f, 4, "a", "drop", chain_even(f, 19, 100));
		check(f, 4, "b", "fatal", chain_even(f, 21, 100));
		return "fatal";

	case 5:	/* runts */
		check(f, 5, "a", "drop", chain_even(f, 1, 13));
		sz[1] = 4;
		check(f, 5, "b", "drop", chain(f, 2, 10, sz, 0));
		check(f, 5, "c", "drop", chain_even(f, 1, 0));
		return "up";

	case 6:	/* offset + size beyond the page in a later slot */
		put(f, f->txref[0], 0, NETTXF_more_data, 1, 160);
		frame(f, 0, 0, 60);
		put(f, f->txref[1], 4050, 0, 2, 100);
		check(f, 6, "", "fatal", 2);
		return "fatal";

	case 7:	/* later slot larger than what remains */
		/* 100 bytes in all, 120 in the second slot (80 would be a
		 * valid packet: 20 bytes in the first slot, 80 after).
		 */
		sz[1] = 120;
		check(f, 7, "a", "drop", chain(f, 2, 100, sz, 0));
		/* 65535 total, 17 x 4096 after the first: beyond 64 KiB */
		for (i = 1; i < 18; i++)
			sz[i] = 4096;
		check(f, 7, "b", "drop", chain(f, 18, 65535, sz, 0));
		/* 64 KiB - 1: 4095 bytes in the first slot, 15 full pages */
		for (i = 1; i < 16; i++)
			sz[i] = 4096;
		check(f, 7, "c", "ok", chain(f, 16, 65535, sz, 0));
		return "up";

	case 8:	/* zero-length slots */
		sz[1] = 0; sz[2] = 100;
		check(f, 8, "a", "ok|drop", chain(f, 3, 200, sz, 0));
		for (i = 1; i < 6; i++)
			sz[i] = 0;
		check(f, 8, "b", "ok|drop", chain(f, 6, 100, sz, 0));
		for (i = 1; i < 18; i++)
			sz[i] = 0;
		check(f, 8, "c", "ok|drop", chain(f, 18, 60, sz, 0));
		return "up";

	case 9:	/* headers in 1-byte slots */
		for (i = 1; i < 18; i++)
			sz[i] = 1;
		check(f, 9, "a", "ok", chain(f, 18, 60, sz, 0));
		check(f, 9, "b", "ok", chain(f, 18, 18, sz, 0));
		for (i = 1; i < 19; i++)
			sz[i] = 1;
		check(f, 9, "c", "drop", chain(f, 19, 128, sz, 0));
		return "up";

	case 10:	/* the frag-array boundary */
		check(f, 10, "a", "ok", chain_even(f, 17, 1000));
		check(f, 10, "b", "ok", chain_even(f, 18, 1000));
		check(f, 10, "c", "drop", chain_even(f, 19, 1000));
		return "up";

	case 11:	/* extra-info flag with no slot left */
		frame(f, 0, 0, 60);
		put(f, f->txref[0], 0, NETTXF_extra_info, 1, 60);
		check(f, 11, "", "fatal", 1);
		return "fatal";

	case 12:	/* repeated types (last wins), then type 0 */
		n = tcp_frame(f, 1000, 0);
		put(f, f->txref[0], 0, NETTXF_extra_info | NETTXF_csum_blank, 1, n);
		put_extra(f, XEN_NETIF_EXTRA_TYPE_GSO, XEN_NETIF_EXTRA_FLAG_MORE,
			  1, XEN_NETIF_GSO_TYPE_TCPV4);
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
		return "fatal";

	case 13:	/* GSO without L4 header: drop; GSO size 0: fatal */
		frame(f, 0, 0, 60);
		put(f, f->txref[0], 0, NETTXF_extra_info, 1, 60);
		put_extra(f, XEN_NETIF_EXTRA_TYPE_GSO, 0, 1400,
			  XEN_NETIF_GSO_TYPE_TCPV4);
		check(f, 13, "a", "drop", 2);
		put(f, f->txref[0], 0, NETTXF_extra_info, 1, 60);
		put_extra(f, XEN_NETIF_EXTRA_TYPE_GSO, 0, 0,
			  XEN_NETIF_GSO_TYPE_TCPV4);
		check(f, 13, "b", "fatal", 2);
		return "fatal";

	case 14:	/* checksum-blank on a malformed IP packet */
		n = tcp_frame(f, 40, 1);
		put(f, f->txref[0], 0, NETTXF_csum_blank, 1, n);
		check(f, 14, "a", "drop", 1);
		/* ihl 15 (74 bytes of headers) in 70: skb_checksum_setup()
		 * cannot reach the L4 header.  (At 100 bytes the headers fit
		 * and a bad IP total length is not its business: OK, rightly.)
		 */
		n = tcp_frame(f, 70, 1);
		put(f, f->txref[0], 0, NETTXF_csum_blank | NETTXF_data_validated, 1, n);
		check(f, 14, "b", "drop", 1);
		return "up";

	case 15:	/* multicast extras: not offered -> drop; > 8 extras fatal */
		s = backend_feature(f, "feature-multicast-control");
		report(15, "a", "absent", s < 0 ? "absent" : "present",
		       "feature-multicast-control=%d", s);
		frame(f, 0, 0, 60);
		put(f, f->txref[0], 0, NETTXF_extra_info, 1, 60);
		put_extra(f, XEN_NETIF_EXTRA_TYPE_MCAST_ADD, 0, 0x0001, 0x5e);
		check(f, 15, "b", "drop", 2);
		put(f, f->txref[0], 0, NETTXF_extra_info, 1, 60);
		put_extra(f, XEN_NETIF_EXTRA_TYPE_MCAST_DEL, 0, 0x0001, 0x5e);
		check(f, 15, "c", "drop", 2);
		put(f, f->txref[0], 0, NETTXF_extra_info, 1, 60);
		for (i = 0; i < 65; i++)
			put_extra(f, XEN_NETIF_EXTRA_TYPE_MCAST_ADD,
				  i < 64 ? XEN_NETIF_EXTRA_FLAG_MORE : 0, 0x0001, i);
		check(f, 15, "d", "fatal", 66);
		return "fatal";

	case 16: {	/* invalid and revoked grant refs */
		uint32_t rref;
		uint8_t *rp;

		frame(f, 0, 0, 60);
		put(f, 0x0fffffff, 0, 0, 1, 60);
		check(f, 16, "a", "drop", 1);
		sz[1] = 100;
		put(f, f->txref[0], 0, NETTXF_more_data, 1, 160);
		put(f, 0x00ffff00, 0, 0, 2, 100);
		check(f, 16, "b", "drop", 2);
		/* mixed batch: good, bad, good */
		put(f, f->txref[0], 0, 0, 1, 60);
		put(f, 0x0ffffffe, 0, 0, 2, 60);
		put(f, f->txref[0], 0, 0, 3, 60);
		push(f);
		memset(&oc, 0, sizeof(oc));
		n = collect(f, 3, 3000);
		tally(f, &oc, 0, n);
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
		push(f);
		n = collect(f, 200, 5000);
		memset(&oc, 0, sizeof(oc));
		tally(f, &oc, 0, n);
		report(16, "e", "drop", n == 200 && oc.err == 200 ? "drop" : "other",
		       "responses=%d err=%d", n, oc.err);
		check(f, 16, "f", "ok", chain_even(f, 1, 60));
		return "up";
	}

	case 17:	/* double fetch: rewrite requests while the backend reads */
		return NULL;	/* handled by case_doublefetch() */

	case 18: {	/* duplicate and random request ids: echoed */
		int bad = 0;
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
		return "up";
	}

	case 19: {	/* no RX buffers, then buffers again */
		long t0;
		unsigned long before;

		/* Provoke dom0 into sending to us: ARP "who has 192.0.2.1"
		 * from our MAC, over and over, with no RX buffers posted.
		 */
		f->rx_post = 0;
		/* Take back what was posted at connect: reconnect without. */
		if (fe_reset(f))
			die("reset");
		if (connect_or_die(f, &o, 19))
			return "refused";
		arp_request(f);
		/* dom0 samples the carrier together with this phase key. */
		xs_write(f->xs, XBT_NULL, "data/hostile-phase", "nobuf", 5);
		t0 = now_ms();
		n = 0;
		while (now_ms() - t0 < 9000) {
			put(f, f->txref[0], 0, 0, n++, 60);
			push(f);
			collect(f, 1, 300);
			usleep(100000);
		}
		before = f->rx_ok;
		report(19, "a", "none", f->rx_ok ? "some" : "none",
		       "arp requests sent=%d rx packets=%lu", n, f->rx_ok);
		printf("HOSTILE-MARK case=19 phase=buffers\n");
		fflush(stdout);
		xs_write(f->xs, XBT_NULL, "data/hostile-phase", "buffers", 7);
		f->rx_post = 1;
		post_rx(f);
		t0 = now_ms();
		/* At least 2 s in this phase, so dom0's 0.5 s sampler sees
		 * the carrier back even when the first packet comes at once.
		 */
		while (now_ms() - t0 < 6000 &&
		       (f->rx_ok == before || now_ms() - t0 < 2000)) {
			put(f, f->txref[0], 0, 0, n++, 60);
			push(f);
			collect(f, 1, 300);
			usleep(100000);
		}
		report(19, "b", "rx", f->rx_ok > before ? "rx" : "none",
		       "rx packets after posting=%lu", f->rx_ok - before);
		xs_write(f->xs, XBT_NULL, "data/hostile-phase", "-", 1);
		check(f, 19, "c", "ok", chain_even(f, 1, 60));
		return "up";
	}

	case 20: {	/* RX requests with invalid grant refs */
		uint8_t *p = f->tx;
		unsigned long e0;

		f->rx_post = 0;
		if (fe_reset(f))
			die("reset");
		f->rx_post = 1;
		f->rx_bad_gref = 0x0ffffff0;
		if (connect_or_die(f, &o, 20))
			return "refused";
		memset(p, 0xff, 6);
		memcpy(p + 6, f->mac, 6);
		p[12] = 0x08; p[13] = 0x06;
		memcpy(p + 14, "\x00\x01\x08\x00\x06\x04\x00\x01", 8);
		memcpy(p + 22, f->mac, 6);
		memcpy(p + 28, "\xc0\x00\x02\x63", 4);
		memset(p + 32, 0, 6);
		memcpy(p + 38, "\xc0\x00\x02\x01", 4);
		e0 = f->rx_err;
		for (i = 0; i < 40 && f->rx_err - e0 < 3; i++) {
			put(f, f->txref[0], 0, 0, i, 60);
			push(f);
			collect(f, 1, 300);
			usleep(100000);
		}
		report(20, "a", "rx-error", f->rx_err > e0 && !f->rx_ok ? "rx-error" :
		       f->rx_ok ? "rx-ok" : "none", "rx errors=%lu ok=%lu",
		       f->rx_err - e0, f->rx_ok);
		/* Good buffers again: the ring must keep working.  The bad ones
		 * still posted (up to NRX) are answered first, one per reply.
		 */
		f->rx_bad_gref = 0;
		for (i = 0; i < NRX + 60 && !f->rx_ok; i++) {
			put(f, f->txref[0], 0, 0, i, 60);
			push(f);
			collect(f, 1, 300);
			usleep(100000);
		}
		report(20, "b", "rx", f->rx_ok ? "rx" : "none",
		       "rx ok=%lu err=%lu", f->rx_ok, f->rx_err);
		check(f, 20, "c", "ok", chain_even(f, 1, 60));
		return "up";
	}

	case 21:	/* control ring: not offered; a ctrl ref is ignored */
	case 22:
		return NULL;	/* handled with a special connect below */

	case 23: {	/* queue count */
		int max = backend_feature(f, "multi-queue-max-queues");

		o.nq = 0;
		xs_put(f, "multi-queue-num-queues", "0");
		s = fe_connect(f, &o);
		report(23, "a", "refused", s ? "refused" : "connected",
		       "multi-queue-num-queues=0 (max %d)", max);
		fe_reset(f);
		o = honest;
		o.nq = (max > 0 ? max : 8) + 1;
		o.nq_keys = o.nq;
		s = fe_connect(f, &o);
		report(23, "b", "refused", s ? "refused" : "connected",
		       "multi-queue-num-queues=%d", o.nq);
		fe_reset(f);
		if (max >= 2) {
			o = honest;
			o.nq = 2;
			o.nq_keys = 1;
			s = fe_connect(f, &o);
			report(23, "c", "refused", s ? "refused" : "connected",
			       "2 queues, queue-1 keys missing");
			fe_reset(f);
		} else {
			report(23, "c", "skipped", "skipped",
			       "backend offers %d queue(s)", max);
		}
		o = honest;
		s = fe_connect(f, &o);
		report(23, "d", "connected", s ? "refused" : "connected",
		       "honest connect after refusals");
		if (!s)
			check(f, 23, "e", "ok", chain_even(f, 1, 60));
		return s ? "refused" : "up";
	}

	case 24: {	/* feature keys and malformed values */
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

		for (i = 0; i < (int)(sizeof(v) / sizeof(v[0])); i++) {
			o = honest;
			o.rx_copy = v[i].rxc;
			o.rx_notify = v[i].rxn;
			o.tx_ref_str = v[i].ref;
			o.evt_str = v[i].evt;
			if (v[i].evt)
				o.split = 0;
			o.timeout_ms = 15000;
			s = fe_connect(f, &o);
			snprintf(sub, sizeof(sub), "%c", 'a' + i);
			report(24, sub, "refused", s ? "refused" : "connected",
			       "%s: backend state %d", v[i].what, be_state(f));
			if (fe_reset(f))
				die("reset after %s", v[i].what);
		}
		o = honest;
		s = fe_connect(f, &o);
		report(24, "g", "connected", s ? "refused" : "connected",
		       "honest connect after refusals");
		if (!s)
			check(f, 24, "h", "ok", chain_even(f, 1, 60));
		return s ? "refused" : "up";
	}

	case 25: {	/* watched-key storm; fast reconnect loops */
		long t0 = now_ms();

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
			if (fe_reset(f) || fe_connect(f, &o))
				break;
			chain_even(f, 1, 60);
			push(f);
			collect(f, 1, 3000);
		}
		report(25, "c", "ok", i == 5 ? "ok" : "stuck",
		       "%d reconnect cycles in %ld ms", i, now_ms() - t0);
		if (i == 5)
			check(f, 25, "d", "ok", chain_even(f, 1, 60));
		return "up";
	}

	case 26: {	/* event channel storm */
		long t0 = now_ms();
		int k = 0;

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
		return "up";
	}

	case 27: {	/* rate: dom0 set a small credit before we connected */
		long t0 = now_ms();
		int got;

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
		return "up";
	}
	}
	return NULL;
}

static void phase(struct fe *f, const char *ph)
{
	xs_write(f->xs, XBT_NULL, "data/hostile-phase", ph, strlen(ph));
	printf("HOSTILE-MARK case=28 phase=%s\n", ph);
	fflush(stdout);
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
	phase(f, provoke);
	t0 = now_ms();
	while (now_ms() - t0 < 1000) {
		put(f, f->txref[0], 0, 0, n++, 60);
		push(f);
		collect(f, 1, 300);
		usleep(100000);
	}
	phase(f, drain);
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
static const char *case_rx_wiggle(struct fe *f)
{
	struct conn_opts o = honest;
	long t0;
	unsigned long k = 0;
	RING_IDX base;
	int i;

	f->rx_post = 0;
	/* Take back what was posted at connect: reconnect without. */
	if (fe_reset(f))
		die("reset");
	if (connect_or_die(f, &o, 28))
		return "refused";
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
	phase(f, "wiggle");
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
	phase(f, "overflow");
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
	phase(f, "after");
	report(28, "b", "ok", "ok", "%lu RX notifications with req_prod %u ahead in %ld ms",
	       k, RXR + 1000, now_ms() - t0);
	/* A disabled vif answers no TX request either. */
	check(f, 28, "c", "fatal", chain_even(f, 1, 60));
	return "fatal";
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

static const char *case_doublefetch(struct fe *f)
{
	struct flipper fl = { .f = f };
	pthread_t t;
	int i, n, total = 0, bad = 0;

	if (!f->connected && connect_or_die(f, &honest, 17))
		return "refused";
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
	return "up";
}

static const char *case_ctrl(struct fe *f, int cs)
{
	struct conn_opts o = honest;
	int s = backend_feature(f, "feature-ctrl-ring");

	report(cs, "a", "absent", s <= 0 ? "absent" : "present",
	       "feature-ctrl-ring=%d", s);
	o.ctrl = 1;
	o.ctrl_req_prod = cs == 22 ? 0x7fffffff : 5;
	s = fe_connect(f, &o);
	report(cs, "b", "connected", s ? "refused" : "connected",
	       "ctrl-ring-ref written anyway (req_prod %u)", o.ctrl_req_prod);
	if (s)
		return "refused";
	check(f, cs, "c", "ok", chain_even(f, 1, 60));
	return "up";
}

/* ---- random mode -------------------------------------------------------- */

static uint64_t rng;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

static uint16_t pick_size(void)
{
	static const uint16_t edge[] = {
		0, 1, 13, 14, 15, 59, 60, 61, 1500, 1514, 2048, 4095, 4096, 4097,
		9000, 32768, 65535,
	};

	switch (rnd() % 4) {
	case 0:
		return edge[rnd() % (sizeof(edge) / sizeof(edge[0]))];
	case 1:
		return rnd() % 4097;
	case 2:
		return 14 + rnd() % 200;
	default:
		return rnd();
	}
}

static uint32_t pick_gref(struct fe *f)
{
	switch (rnd() % 16) {
	case 0:
		return rnd();			/* almost surely invalid */
	case 1:
		return f->tx_ref;		/* our own ring page */
	case 2:
		return 0;
	default:
		return f->txref[rnd() % NTX];
	}
}

static unsigned int total_rest(const unsigned int *sizes, int k)
{
	unsigned int t = 0;
	int i;

	for (i = 1; i < k; i++)
		t += sizes[i];
	return t;
}

/* One random packet at the producer; returns slots used.  Plausible
 * packets are mutated only in ways that draw error responses (sizes,
 * invalid grefs, checksum flags, extras of valid types); with @evil the
 * packet may be raw garbage that can disable the vif.
 */
static int random_packet(struct fe *f, int evil)
{
	int kind = rnd() % 100, n = 1, i, extras = 0;
	uint16_t flags, off;

	if (kind < 40) {		/* plausible single slot */
		uint16_t s = rnd() % 8 ? 14 + rnd() % 1500 : pick_size() % 4097;

		put(f, rnd() % 32 ? f->txref[rnd() % NTX] : pick_gref(f),
		    rnd() % (PAGE - s + 1), rnd() % 8 ? 0 : NETTXF_csum_blank,
		    rnd(), s);
		return 1;
	}
	if (kind < 97 || !evil) {	/* plausible chain, mutated a little */
		int k = 1 + rnd() % 20;
		unsigned int total = 0, sizes[24];

		for (i = 1; i < k; i++) {
			sizes[i] = rnd() % 2 ? rnd() % 4097 : rnd() % 65;
			total += sizes[i];
		}
		total += 14 + rnd() % 100;
		if (rnd() % 8 == 0)
			total = pick_size();
		flags = k > 1 ? NETTXF_more_data : 0;
		if (rnd() % 6 == 0)
			flags |= NETTXF_csum_blank | NETTXF_data_validated;
		if (rnd() % 8 == 0) {
			flags |= NETTXF_extra_info;
			extras = 1 + rnd() % 3;
		}
		off = rnd() % 8 ? 0 : rnd() % 64;
		/* The first slot holds what the others do not: keep it inside
		 * its page (a crossing is fatal, and belongs to evil batches).
		 */
		if (total > total_rest(sizes, k) + PAGE - off)
			total = total_rest(sizes, k) + PAGE - off;
		put(f, pick_gref(f), off, flags, rnd(), (uint16_t)total);
		for (i = 0; i < extras; i++) {
			int t = rnd() % 10;

			put_extra(f, t < 6 ? XEN_NETIF_EXTRA_TYPE_GSO : t < 8 ?
				  XEN_NETIF_EXTRA_TYPE_HASH : XEN_NETIF_EXTRA_TYPE_MCAST_ADD,
				  i < extras - 1 ? XEN_NETIF_EXTRA_FLAG_MORE : 0,
				  1 + rnd() % 9000, 1 + rnd() % 2);
			n++;
		}
		for (i = 1; i < k; i++) {
			off = rnd() % (PAGE - sizes[i] + 1);
			put(f, pick_gref(f), off, i < k - 1 ? NETTXF_more_data : 0,
			    rnd(), sizes[i]);
			n++;
		}
		return n;
	}
	/* raw garbage slots; most chains still close before req_prod */
	n = 1 + rnd() % 24;
	for (i = 0; i < n; i++) {
		flags = rnd() & 0xf;
		if (i == n - 1 && rnd() % 4)
			flags &= ~(NETTXF_more_data | NETTXF_extra_info);
		put(f, pick_gref(f), rnd() % 3 ? rnd() % 4096 : rnd(), flags,
		    rnd(), pick_size());
	}
	return n;
}

static int random_mode(struct fe *f, unsigned long seed, unsigned long count)
{
	unsigned long consumed = 0, sent = 0, fatals = 0, reconnects = 0;
	unsigned long batches = 0, resp0 = f->n_resp;
	long t0 = now_ms();
	int i;

	rng = seed * 2654435761u + 0x9e3779b97f4a7c15ull;
	if (!rng)
		rng = 1;
	for (i = 0; i < NTX; i++)
		frame(f, i, 0, 1514);
	if (connect_or_die(f, &honest, 0))
		return 1;
	while (consumed < count) {
		int room = TXR - (f->tx_prod - f->tx_cons), used = 0, got;
		RING_IDX start = f->tx_prod;

		/* Fill most of the free ring; one batch in 40 may carry
		 * garbage, jump the index or cut the last chain short.
		 */
		int evil = rnd() % 40 == 0;

		while (room - used > 48) {
			used += random_packet(f, evil);
			if (rnd() % 64 == 0)
				break;
		}
		if (evil && rnd() % 8 == 0)
			f->tx_prod += TXR + rnd() % 1000;	/* overflow */
		else if (evil && rnd() % 8 == 0 && used > 1)
			f->tx_prod--;		/* cut the last chain short */
		sent += f->tx_prod - start;
		push(f);
		batches++;
		got = collect(f, f->tx_prod - f->tx_cons, 400);
		(void)got;
		if (f->tx_cons != f->tx_prod) {
			/* Unanswered: wait a little longer, then assume the
			 * vif was disabled and reconnect.
			 */
			collect(f, f->tx_prod - f->tx_cons, 1500);
			if (f->tx_cons != f->tx_prod) {
				fatals++;
				consumed = f->n_resp - resp0;
				if (fe_reset(f) || fe_connect(f, &honest)) {
					printf("HOSTILE-RANDOM reconnect failed after %lu fatals, backend state %d\n",
					       fatals, be_state(f));
					break;
				}
				reconnects++;
			}
		}
		consumed = f->n_resp - resp0;
		if (verbose && batches % 200 == 0)
			printf("HOSTILE-RANDOM progress consumed=%lu sent=%lu fatals=%lu ms=%ld\n",
			       consumed, sent, fatals, now_ms() - t0);
	}
	printf("HOSTILE-RANDOM seed=%lu requests_sent=%lu requests_consumed=%lu ok=%lu error=%lu null=%lu other=%lu fatals=%lu reconnects=%lu ms=%ld\n",
	       seed, sent, consumed, f->n_ok, f->n_err, f->n_null, f->n_other,
	       fatals, reconnects, now_ms() - t0);
	/* Leave an honest, working connection behind. */
	if (!f->connected && (fe_reset(f) || fe_connect(f, &honest)))
		return 1;
	chain_even(f, 1, 60);
	i = !strcmp(play(f, 1, &(struct outcome){ 0 }), "ok");
	if (!i) {
		/* The last random batch may have disabled it: start over. */
		if (fe_reset(f) || fe_connect(f, &honest))
			return 1;
		chain_even(f, 1, 60);
		i = !strcmp(play(f, 1, &(struct outcome){ 0 }), "ok");
	}
	printf("HOSTILE case=random expect=ok got=%s %s detail=consumed=%lu\n",
	       i ? "ok" : "fatal", i && consumed >= count ? "pass" : "FAIL",
	       consumed);
	return !(i && consumed >= count);
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

static void linger(struct fe *f, int seconds)
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

/* ---- foreign pages: a guest's granted page sent by dom0 ----------------- */

#define FOREIGN_PATTERN "XNB-FOREIGN-PAG\n"	/* 16 bytes, as `yes` prints it */

static int grant_page(int seconds)
{
	struct xs_handle *xs = xs_open(0);
	xengntshr_handle *gs = xengntshr_open(NULL, 0);
	uint32_t ref;
	char buf[16];
	char *p;
	unsigned int i;

	if (!xs || !gs)
		die("xs_open/xengntshr_open (is xen-gntalloc loaded?)");
	p = xengntshr_share_pages(gs, 0, 1, &ref, 0);	/* dom0 reads only */
	if (!p)
		die("sharing a page with dom0");
	for (i = 0; i < PAGE; i += 16)
		memcpy(p + i, FOREIGN_PATTERN, 16);
	snprintf(buf, sizeof(buf), "%u", ref);
	xs_write(xs, XBT_NULL, "data/foreign-gref", buf, strlen(buf));
	printf("HOSTILE-GRANT gref=%u\n", ref);
	fflush(stdout);
	if (fork() == 0) {
		freopen("/dev/null", "w", stdout);
		freopen("/dev/null", "w", stderr);
		setsid();
		sleep(seconds);
		xengntshr_unshare(gs, p, 1);
		_exit(0);
	}
	return 0;
}

/* Zerocopy completions: the highest notification id seen so far, and
 * whether the kernel had to copy (then no foreign page reached the vif).
 */
static void zc_reap(int fd, int64_t *hi, int *copied, int ms)
{
	char ctl[256];
	struct pollfd pfd = { .fd = fd, .events = 0 };

	while (poll(&pfd, 1, ms) > 0 && (pfd.revents & POLLERR)) {
		struct msghdr mh = { .msg_control = ctl,
				     .msg_controllen = sizeof(ctl) };
		struct cmsghdr *c;

		if (recvmsg(fd, &mh, MSG_ERRQUEUE) < 0)
			break;
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			struct sock_extended_err *e = (void *)CMSG_DATA(c);

			if (e->ee_origin != SO_EE_ORIGIN_ZEROCOPY)
				continue;
			if ((int64_t)e->ee_data > *hi)
				*hi = e->ee_data;
			if (e->ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
				*copied = 1;
		}
	}
}

static int foreign_send(int domid, uint32_t gref, const char *ip, int port,
			int pages)
{
	xengnttab_handle *gt = xengnttab_open(NULL, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int fd, one = 1, i, copied = 0, sent = 0;
	int64_t hi = -1;
	long t0;
	char *p;

	if (!gt)
		die("xengnttab_open (is xen-gntdev loaded?)");
	p = xengnttab_map_grant_ref(gt, domid, gref, PROT_READ);
	if (!p)
		die("mapping gref %u of domain %d", gref, domid);
	if (memcmp(p, FOREIGN_PATTERN, 16))
		die("mapped page does not hold the pattern");
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || inet_pton(AF_INET, ip, &sa.sin_addr) != 1)
		die("socket/address %s", ip);
	if (setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
		die("SO_ZEROCOPY");
	if (connect(fd, (void *)&sa, sizeof(sa)))
		die("connect %s:%d", ip, port);
	{
		struct timeval tv = { .tv_sec = 2 };

		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	}
	t0 = now_ms();
	for (i = 0; i < pages && now_ms() - t0 < 40000; i++) {
		ssize_t n = send(fd, p, PAGE, MSG_ZEROCOPY);

		if (n < 0 && errno == EAGAIN) {		/* stalled: try on */
			zc_reap(fd, &hi, &copied, 0);
			i--;
			continue;
		}
		if (n < 0 && errno == ENOBUFS) {	/* optmem full: reap, retry */
			zc_reap(fd, &hi, &copied, 100);
			i--;
			continue;
		}
		if (n != (ssize_t)PAGE)
			die("send returned %zd after %d pages", n, i);
		sent += n;
		zc_reap(fd, &hi, &copied, 0);
	}
	shutdown(fd, SHUT_WR);
	/* The page stays mapped until the stack let go of every send. */
	while (hi < pages - 1 && now_ms() - t0 < 50000)
		zc_reap(fd, &hi, &copied, 500);
	printf("HOSTILE-FOREIGN sent=%d completions=%lld copied=%d ms=%ld\n",
	       sent, (long long)hi + 1, copied, now_ms() - t0);
	fflush(stdout);
	if (hi < pages - 1) {
		/* The stack still holds the page: abort the connection (RST
		 * purges what waits to be sent) and give it time to let go
		 * before exit unmaps the page.
		 */
		struct linger lg = { .l_onoff = 1, .l_linger = 0 };

		setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		close(fd);
		sleep(3);
		return 1;
	}
	close(fd);
	xengnttab_unmap(gt, p, 1);
	return copied ? 3 : 0;
}

static void usage(void)
{
	fprintf(stderr, "usage: hostile [-v] [--dev K] [--linger S] case N | --random SEED --count N\n"
		"       hostile --grant-page SECONDS | --foreign-send DOMID GREF IP PORT PAGES\n");
	exit(2);
}

int main(int argc, char **argv)
{
	struct fe f = { 0 };
	int devid = -1, cs = -1, lg = 1800, rc;
	int cases[64], ncases = 0, k;
	unsigned long seed = 0, count = 100000;
	long t_start, t_takeover;
	int random = 0;
	const char *final = NULL;
	int i;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-v"))
			verbose = 1;
		else if (!strcmp(argv[i], "--dev") && i + 1 < argc)
			devid = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--linger") && i + 1 < argc)
			lg = atoi(argv[++i]);
		else if (!strcmp(argv[i], "case") && i + 1 < argc) {
			while (i + 1 < argc && argv[i + 1][0] >= '0' &&
			       argv[i + 1][0] <= '9' && ncases < 64)
				cases[ncases++] = atoi(argv[++i]);
			cs = ncases ? cases[0] : -1;
		}
		else if (!strcmp(argv[i], "--grant-page") && i + 1 < argc)
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
		else
			usage();
	}
	if (cs < 0 && !random)
		usage();
	setvbuf(stdout, NULL, _IOLBF, 0);
	srand(cs * 7919 + 1);
	t_start = now_ms();
	fe_open(&f, devid);
	takeover(&f);
	t_takeover = now_ms() - t_start;
	printf("HOSTILE-START dev=%u self=%u backend=%s %s\n", f.devid, f.self,
	       f.bp, random ? "random" : "case");

	if (random) {
		rc = random_mode(&f, seed, count);
		final = rc ? "unknown" : "up";
		cs = 0;
		printf("HOSTILE-END case=%d result=%s final=%s tx_responses=%lu ok=%lu err=%lu null=%lu rx_ok=%lu rx_err=%lu takeover_ms=%ld ms=%ld\n",
		       cs, rc ? "FAIL" : "PASS", final, f.n_resp, f.n_ok, f.n_err,
		       f.n_null, f.rx_ok, f.rx_err, t_takeover, now_ms() - t_start);
	} else {
		/* Several cases: each after an "up" one goes on on the same
		 * connection; the ones that connect in their own way (2, 21-24)
		 * or follow a fatal/refused one start from InitWait.  Only the
		 * last case may leave the vif disabled: dom0 checks that.
		 */
		rc = 0;
		for (k = 0; k < ncases; k++) {
			long t0 = now_ms();
			int own = cases[k] == 2 || (cases[k] >= 21 && cases[k] <= 24);

			cs = cases[k];
			if (k > 0 && (own || !f.connected || strcmp(final, "up"))) {
				if (be_state(&f) != XenbusStateInitWait || f.connected)
					if (fe_reset(&f))
						die("reset before case %d: backend state %d",
						    cs, be_state(&f));
			}
			failures = 0;
			/* Cases 19 and 20 judge by the RX counters. */
			f.rx_ok = f.rx_err = 0;
			srand(cs * 7919 + 1);
			if (cs == 17)
				final = case_doublefetch(&f);
			else if (cs == 21 || cs == 22)
				final = case_ctrl(&f, cs);
			else if (cs == 28)
				final = case_rx_wiggle(&f);
			else
				final = run_case(&f, cs);
			if (!final) {
				printf("HOSTILE case=%d n/a\n", cs);
				final = "n/a";
			}
			if (failures)
				rc = 1;
			printf("HOSTILE-END case=%d result=%s final=%s tx_responses=%lu ok=%lu err=%lu null=%lu rx_ok=%lu rx_err=%lu takeover_ms=%ld ms=%ld\n",
			       cs, failures ? "FAIL" : "PASS", final, f.n_resp,
			       f.n_ok, f.n_err, f.n_null, f.rx_ok, f.rx_err,
			       k ? 0 : t_takeover, now_ms() - (k ? t0 : t_start));
		}
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
