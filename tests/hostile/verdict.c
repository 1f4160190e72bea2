// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: verdicts (push what a case queued, then a probe; classify the
 * responses; print one HOSTILE line per check) and the packets the cases
 * build (chains, TCP and ARP frames).
 */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "fe.h"

int failures;

void tally(struct fe *f, struct outcome *o, int from, int to)
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
const char *play(struct fe *f, int nslots, struct outcome *o)
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

int report(int cs, const char *sub, const char *expect, const char *got,
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

const char *check(struct fe *f, int cs, const char *sub,
			 const char *expect, int nslots)
{
	struct outcome o;
	const char *g = play(f, nslots, &o);

	report(cs, sub, expect, g, "slots=%d responses=%d ok=%d err=%d null=%d other=%d probe=%d",
	       nslots, o.got, o.ok, o.err, o.null, o.other, o.probe);
	return g;
}

/* ---- packets the cases share --------------------------------------------- */

/* A chain of @n data slots carrying @total bytes: slot sizes @sz[1..n-1],
 * the first slot's data is the rest.  Each slot on its own TX page.
 */
int chain(struct fe *f, int n, unsigned int total, const uint16_t *sz,
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

int chain_even(struct fe *f, int n, unsigned int per)
{
	uint16_t sz[64];
	int i;

	for (i = 0; i < n && i < 64; i++)
		sz[i] = per;
	return chain(f, n, per * n, sz, 0);
}

/* An IPv4/TCP frame in TX page 0 for GSO and checksum cases. */
unsigned int tcp_frame(struct fe *f, unsigned int len, int broken)
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
void arp_request(struct fe *f)
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

int backend_feature(struct fe *f, const char *k)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", f->bp, k);
	return xs_int(f, path, -1);
}

int connect_or_die(struct fe *f, const struct conn_opts *o, int cs)
{
	if (fe_connect(f, o)) {
		report(cs, "", "connected", "refused", "backend state %d",
		       be_state(f));
		return -1;
	}
	return 0;
}
