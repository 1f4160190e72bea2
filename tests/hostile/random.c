// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: the seeded random run.  Batches of plausible, mutated,
 * boundary and (rarely) garbage TX requests; after a batch the backend
 * does not answer, the vif is taken as disabled and we reconnect.  It
 * must consume @count requests and leave an honest connection working.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cases.h"

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
				  8 + rnd() % 8993, 1 + rnd() % 2);
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

int random_mode(struct fe *f, unsigned long seed, unsigned long count)
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
