/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hostile frontend (fe.c): xenstore keys, shared rings and data pages,
 * connect/reset, TX requests and responses; and the verdict helpers the
 * cases share (verdict.c).
 */
#ifndef HOSTILE_FE_H
#define HOSTILE_FE_H

#include <stdint.h>
#include <sys/types.h>

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
#define CTR __CONST_RING_SIZE(xen_netif_ctrl, 4096)
#define FE_MAXQ 8		/* queues with rings of their own */

/* Queue 1.. of a multi-queue connection with rings of its own
 * (conn_opts.mq_rings); queue 0 is struct fe's own rings.
 */
struct fe_q {
	netif_tx_sring_t *txs;
	netif_rx_sring_t *rxs;
	uint32_t tx_ref, rx_ref;
	int port;		/* one channel for both rings */
};

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
	int rx_manual;		/* a case serves the RX rings itself */
	uint32_t rx_bad_gref;	/* nonzero: post RX requests with this gref */
	/* counters */
	unsigned long n_ok, n_err, n_null, n_other, n_resp;
	unsigned long rx_ok, rx_err;
	/* queues 1.. when connected with mq_rings */
	int nq;
	struct fe_q mq[FE_MAXQ];
	/* control ring (conn_opts.ctrl) and a page for keys and mappings */
	xen_netif_ctrl_sring_t *cs;
	uint32_t ctrl_ref;
	int pctrl;
	RING_IDX ctrl_prod, ctrl_cons;
	uint8_t *cdata;
	uint32_t cdata_ref;
	/* RX data responses: the largest offset and offset + status seen */
	unsigned int rx_off_max, rx_end_max;
	/* RX packets to two multicast addresses (case 15's filter check) */
	uint8_t mc_a[6], mc_b[6];
	unsigned long rx_mc_a, rx_mc_b;
	int rx_in_pkt;		/* the last data response had more_data */
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
	int ctrl;		/* share a control ring with its own channel */
	RING_IDX ctrl_req_prod;	/* its initial producer index */
	int mq_rings;		/* queues 1.. get rings of their own */
	int timeout_ms;
};

extern const struct conn_opts honest;
extern int verbose;

long now_ms(void);
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* xenstore */
char *xs_get(struct fe *f, const char *path);
int xs_int(struct fe *f, const char *path, int dflt);
void xs_put(struct fe *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void set_phase(struct fe *f, const char *ph);
int xs_is(struct fe *f, const char *path, const char *val);
int xs_mac(struct fe *f, const char *path, uint8_t *mac);
int be_state(struct fe *f);
void fe_state(struct fe *f, int st);

/* connection */
void fe_open(struct fe *f, int devid);
int fe_connect(struct fe *f, const struct conn_opts *o);
int fe_reset(struct fe *f);
int fe_restart(struct fe *f);
void takeover(struct fe *f);
void linger(struct fe *f, int seconds);
void notify_rx(struct fe *f);
void post_rx(struct fe *f);
void service_rx(struct fe *f);
void wait_event(struct fe *f, int ms);

/* control ring: one request, its response (status, *data); -1 when
 * none came within @ms.
 */
int ctrl_call(struct fe *f, uint16_t type, uint32_t d0, uint32_t d1,
	      uint32_t d2, uint32_t *data, int ms);
void ctrl_notify(struct fe *f);

/* TX requests and responses */
void put(struct fe *f, uint32_t gref, uint16_t off, uint16_t flags,
	 uint16_t id, uint16_t size);
void put_extra(struct fe *f, uint8_t type, uint8_t flags, uint16_t a,
	       uint8_t b);
void put_mcast(struct fe *f, uint8_t type, uint8_t flags,
	       const uint8_t *addr);
void push(struct fe *f);
int collect(struct fe *f, int want, int ms);
void frame(struct fe *f, int pg, unsigned int off, unsigned int len);
int send_probe(struct fe *f);

/* ---- verdicts and packets (verdict.c) ---------------------------------- */

struct outcome {
	int got;		/* responses to the crafted packets */
	int ok, err, null, other;
	int probe;		/* 1 OK, 0 none, -1 error */
};

extern int failures;

void tally(struct fe *f, struct outcome *o, int from, int to);
const char *play(struct fe *f, int nslots, struct outcome *o);
int report(int cs, const char *sub, const char *expect, const char *got,
	   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
const char *check(struct fe *f, int cs, const char *sub, const char *expect,
		  int nslots);
int chain(struct fe *f, int n, unsigned int total, const uint16_t *sz,
	  uint16_t first_flags);
int chain_even(struct fe *f, int n, unsigned int per);
unsigned int tcp_frame(struct fe *f, unsigned int len, int broken);
void arp_request(struct fe *f);
int backend_feature(struct fe *f, const char *k);
int connect_or_die(struct fe *f, const struct conn_opts *o, int cs);

#endif
