// SPDX-License-Identifier: GPL-2.0
/*
 * A group's pass, bounded (xnb_pass_*, xnb_turn_*): the account of its work, when
 * it starts no further turn, and what its poll does next (the handoff
 * decision and NAPI's return value), as tables of cases of the pure
 * helpers.  The pass itself, modelled (its bound and its fairness over
 * many vifs), is in test_pass_model.c.
 */
#include <stdio.h>

#include "unit.h"

static void test_pass_may_serve(void **state)
{
	static const struct {
		u32 napi, cap, tx, slots;
		bool may;
		u8 stopped;
	} c[] = {
		{ 64, 256, 0, 0, true, XNB_PASS_GO },
		{ 64, 256, 63, 255, true, XNB_PASS_GO },
		{ 64, 256, 64, 0, false, XNB_PASS_STOP_NAPI },
		{ 64, 256, 0, 256, false, XNB_PASS_STOP_CAP },
		{ 64, 256, 10, 1000, false, XNB_PASS_STOP_CAP }, /* a big turn */
		{ 64, 256, 64, 256, false, XNB_PASS_STOP_NAPI }, /* NAPI first */
		{ 64, 256, 70, 0, false, XNB_PASS_STOP_NAPI },
		{ 1, 256, 0, 0, true, XNB_PASS_GO },
		{ 1, 256, 1, 0, false, XNB_PASS_STOP_NAPI },
		{ 64, 1, 0, 1, false, XNB_PASS_STOP_CAP },
		{ 64, 0, 0, 0, false, XNB_PASS_STOP_CAP },
	};
	struct xnb_pass_acct a;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		print_message("napi %u cap %u tx %u slots %u\n", c[i].napi,
			      c[i].cap, c[i].tx, c[i].slots);
		xnb_pass_begin(&a, c[i].napi, c[i].cap);
		assert_int_equal(a.stopped, XNB_PASS_GO);
		assert_false(a.requeued);
		xnb_pass_charge(&a, c[i].tx, c[i].slots);
		assert_int_equal(xnb_pass_may_serve(&a), c[i].may);
		assert_int_equal(a.stopped, c[i].stopped);
	}
}

/* A turn gets what is left of the cap, one slot at least. */
static void test_pass_turn_slots(void **state)
{
	static const struct {
		u32 cap, slots, share, want;
	} c[] = {
		{ 256, 0, 64, 64 },
		{ 256, 0, 1024, 256 },	/* budget=1024: clipped to the cap */
		{ 256, 200, 64, 56 },	/* clipped to what is left */
		{ 256, 192, 64, 64 },	/* exactly what is left */
		{ 256, 255, 64, 1 },
		{ 256, 256, 64, 1 },	/* TX after RX took the rest */
		{ 256, 300, 1024, 1 },	/* RX crossed it: never wraps */
		{ 256, 0, 1, 1 },
		{ 1, 0, 64, 1 },
		{ ~0u, 0, 1024, 1024 },	/* no cap: the share */
	};
	struct xnb_pass_acct a;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		print_message("cap %u slots %u share %u\n", c[i].cap,
			      c[i].slots, c[i].share);
		xnb_pass_begin(&a, 64, c[i].cap);
		xnb_pass_charge(&a, 0, c[i].slots);
		assert_int_equal(xnb_pass_turn_slots(&a, c[i].share),
				 c[i].want);
	}
}

/* RX leaves waiting TX its part of a clipped turn, at most half. */
static void test_pass_rx_slots(void **state)
{
	static const struct {
		u32 napi, tx, slots, turn, tx_turn, want;
	} c[] = {
		{ 64, 0, 0, 64, 64, 64 },	/* fits twice: whole */
		{ 64, 0, 0, 64, 0, 64 },
		{ 64, 0, 0, 256, 0, 256 },	/* no TX: all of it */
		{ 64, 0, 0, 256, 256, 128 },	/* 64 packets: half at most */
		{ 16, 0, 0, 256, 256, 256 - 16 * XNB_TX_PKT_SLOTS },
		{ 300, 0, 0, 256, 256, 128 },	/* at most half */
		/* NAPI has 4 packets left: XNB_TX_PKT_SLOTS each for TX. */
		{ 64, 60, 0, 256, 256, 256 - 4 * XNB_TX_PKT_SLOTS },
		{ 64, 0, 136, 120, 120, 60 },
		{ 64, 0, 200, 56, 56, 28 },
		{ 64, 0, 255, 1, 1, 1 },	/* one at least */
		{ 64, 0, 255, 1, 0, 1 },
		/* A cut turn: each way has its own rest. */
		{ 300, 0, 0, 256, 20, 236 },	/* TX has 20 left */
		{ 300, 0, 0, 30, 256, 30 },	/* RX has 30 left */
		{ 64, 0, 0, 0, 256, 0 },	/* RX is done: none */
		{ 64, 0, 255, 0, 1, 0 },
	};
	struct xnb_pass_acct a;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		print_message("napi %u tx %u slots %u turn %u tx_turn %u\n",
			      c[i].napi, c[i].tx, c[i].slots, c[i].turn,
			      c[i].tx_turn);
		xnb_pass_begin(&a, c[i].napi, XNB_PASS_SLOTS);
		xnb_pass_charge(&a, c[i].tx, c[i].slots);
		assert_int_equal(xnb_pass_rx_slots(&a, c[i].turn,
						   c[i].tx_turn), c[i].want);
	}
}

/* Where RX's slots do not depend on TX waiting, the split says so;
 * and it is no wider than needed: a turn more than half of what is left
 * (rounded up) may be split.
 */
static void test_pass_rx_split(void **state)
{
	static const u32 napis[] = { 1, 4, 64, 300 };
	struct xnb_pass_acct a;
	u32 n, slots, turn, tx_turn, left, differ = 0;

	(void)state;
	for (n = 0; n < ARRAY_SIZE(napis); n++)
	for (slots = 0; slots <= XNB_PASS_SLOTS + 20; slots++)
	for (turn = 0; turn <= XNB_PASS_SLOTS + 20; turn++) {
		xnb_pass_begin(&a, napis[n], XNB_PASS_SLOTS);
		xnb_pass_charge(&a, 0, slots);
		left = slots < XNB_PASS_SLOTS ? XNB_PASS_SLOTS - slots : 0;
		for (tx_turn = 1; tx_turn <= XNB_PASS_SLOTS; tx_turn *= 2)
			if (xnb_pass_rx_slots(&a, turn, tx_turn) !=
			    xnb_pass_rx_slots(&a, turn, 0)) {
				assert_true(xnb_pass_rx_split(&a, turn));
				differ++;
			}
		assert_int_equal(xnb_pass_rx_split(&a, turn),
				 turn > (left + 1) / 2);
	}
	assert_true(differ > 0);
	/* The table's: a turn that fits twice is not split. */
	xnb_pass_begin(&a, 64, XNB_PASS_SLOTS);
	assert_false(xnb_pass_rx_split(&a, 64));
	assert_false(xnb_pass_rx_split(&a, 128));
	assert_true(xnb_pass_rx_split(&a, 129));
	xnb_pass_charge(&a, 0, 255);
	assert_true(xnb_pass_rx_split(&a, 2));
	assert_false(xnb_pass_rx_split(&a, 1));
}

/* One turn as xnb_group_serve() runs it (xnb_turn_*): whether TX's ring
 * is read, RX's and TX's limits, and what a cut turn has left or an
 * overspent one owes.  NAPI's budget 64, the cap XNB_PASS_SLOTS.
 */
static void test_pass_turn(void **state)
{
	static const struct {
		u32 slots0, tx0;		/* the pass so far */
		struct xnb_pass_ways way;
		u32 turn;
		bool waits;
		u32 rx_used, tx_pkts, tx_used;
		bool peek;
		u32 rx_limit, tx_limit;
		struct xnb_pass_ways left, debt;
	} c[] = {
		/* Fits twice: no peek, each way its share. */
		{ 0, 0, { 64, 64 }, 64, true, 64, 4, 64,
		  false, 64, 64, { 0, 0 }, { 0, 0 } },
		/* The cap's worth with TX waiting: half each, both cut. */
		{ 0, 0, { 256, 256 }, 256, true, 128, 32, 128,
		  true, 128, 128, { 128, 128 }, { 0, 0 } },
		/* The same, no TX waiting: RX takes the cap, TX its slot. */
		{ 0, 0, { 256, 256 }, 256, false, 256, 0, 0,
		  true, 256, 1, { 0, 0 }, { 0, 0 } },
		/* NAPI's budget spent: TX gets nothing, nothing is cut. */
		{ 0, 64, { 64, 64 }, 64, true, 64, 0, 0,
		  false, 64, 0, { 0, 0 }, { 0, 0 } },
		/* Packets past the share: owed each way. */
		{ 0, 0, { 16, 16 }, 16, false, 20, 1, 18,
		  false, 16, 16, { 0, 0 }, { 4, 2 } },
		/* Late in the pass: the cap's rest split, both ways cut. */
		{ 200, 0, { 64, 64 }, 56, true, 28, 7, 28,
		  true, 28, 28, { 36, 36 }, { 0, 0 } },
		/* The debt took TX: no peek, RX whole. */
		{ 0, 0, { 64, 0 }, 64, true, 64, 0, 0,
		  false, 64, 0, { 0, 0 }, { 0, 0 } },
		/* The debt took both. */
		{ 0, 0, { 0, 0 }, 0, true, 0, 0, 0,
		  false, 0, 0, { 0, 0 }, { 0, 0 } },
	};
	struct xnb_pass_ways left, debt;
	struct xnb_pass_acct a;
	struct xnb_turn t;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		print_message("case %u\n", i);
		xnb_pass_begin(&a, 64, XNB_PASS_SLOTS);
		xnb_pass_charge(&a, c[i].tx0, c[i].slots0);
		t = (struct xnb_turn){ .way = c[i].way, .slots = c[i].turn };
		debt = (struct xnb_pass_ways){};
		assert_int_equal(xnb_turn_peek(&a, &t), c[i].peek);
		assert_int_equal(xnb_turn_rx(&a, &t, c[i].waits),
				 c[i].rx_limit);
		assert_int_equal(xnb_turn_tx(&a, &t, c[i].rx_used),
				 c[i].tx_limit);
		assert_int_equal(a.slots, c[i].slots0 + c[i].rx_used);
		xnb_turn_end(&a, &t, c[i].rx_used, c[i].tx_pkts, c[i].tx_used,
			     &left, &debt);
		assert_int_equal(a.slots,
				 c[i].slots0 + c[i].rx_used + c[i].tx_used);
		assert_int_equal(a.tx_packets, c[i].tx0 + c[i].tx_pkts);
		assert_int_equal(left.rx, c[i].left.rx);
		assert_int_equal(left.tx, c[i].left.tx);
		assert_int_equal(debt.rx, c[i].debt.rx);
		assert_int_equal(debt.tx, c[i].debt.tx);
	}
}

/* A new turn has the share each way, less what the queue owes that way;
 * a cut one what each way has left, the share at most, a way done
 * sitting it out, the debt untouched; a queue alone a new one, owing
 * nothing.
 */
static void test_pass_turn_share(void **state)
{
	static const struct {
		u32 left_rx, left_tx, share;
		bool alone;
		u32 debt_rx, debt_tx;	/* owed before */
		u32 rx, tx, want;
		u32 owe_rx, owe_tx;	/* owed after */
	} c[] = {
		{ 0, 0, 64, false, 0, 0, 64, 64, 64, 0, 0 },	/* a new turn */
		{ 0, 0, 8, false, 0, 0, 8, 8, 8, 0, 0 },
		{ 820, 0, 1024, false, 0, 0, 820, 0, 820, 0, 0 },	/* RX goes on, TX done */
		{ 0, 44, 64, false, 0, 0, 0, 44, 44, 0, 0 },	/* TX goes on, RX done */
		{ 30, 100, 1024, false, 0, 0, 30, 100, 100, 0, 0 },	/* both go on */
		{ 820, 0, 200, false, 0, 0, 200, 0, 200, 0, 0 },	/* the vif's share less */
		{ 30, 100, 50, false, 0, 0, 30, 50, 50, 0, 0 },
		{ 1, 0, 1, false, 0, 0, 1, 0, 1, 0, 0 },
		/* Alone: a new turn, cut or not, owing nothing. */
		{ 0, 0, 64, true, 0, 0, 64, 64, 64, 0, 0 },
		{ 0, 764, 1024, true, 0, 0, 1024, 1024, 1024, 0, 0 },
		{ 820, 0, 1024, true, 0, 0, 1024, 1024, 1024, 0, 0 },
		{ 30, 100, 50, true, 0, 0, 50, 50, 50, 0, 0 },
		{ 1, 0, 1, true, 0, 0, 1, 1, 1, 0, 0 },
		{ 0, 0, 64, true, 107, 4, 64, 64, 64, 0, 0 },
		{ 0, 30, 64, true, 0, 256, 64, 64, 64, 0, 0 },
		/* A new turn pays what is owed, each way alone. */
		{ 0, 0, 64, false, 0, 4, 64, 60, 64, 0, 0 },
		{ 0, 0, 64, false, 19, 0, 45, 64, 64, 0, 0 },
		/* a 48-byte-segment GSO packet (171) past a share of 64 */
		{ 0, 0, 64, false, 0, 107, 64, 0, 64, 0, 43 },
		{ 0, 0, 64, false, 0, 43, 64, 21, 64, 0, 0 },
		{ 0, 0, 64, false, 0, 64, 64, 0, 64, 0, 0 },	/* paid exactly */
		/* both ways owe a share or more: the turn moves nothing */
		{ 0, 0, 64, false, 64, 107, 0, 0, 0, 0, 43 },
		{ 0, 0, 8, false, 256, 163, 0, 0, 0, 248, 155 },
		{ 0, 0, 1, false, 1, 1, 0, 0, 0, 0, 0 },
		/* A cut turn goes on; its debt waits for the next new turn. */
		{ 0, 44, 64, false, 10, 0, 0, 44, 44, 10, 0 },
		{ 30, 0, 64, false, 0, 107, 30, 0, 30, 0, 107 },
	};
	struct xnb_pass_ways left, debt, way;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		print_message("left %u/%u share %u alone %d debt %u/%u\n",
			      c[i].left_rx, c[i].left_tx, c[i].share,
			      c[i].alone, c[i].debt_rx, c[i].debt_tx);
		left.rx = c[i].left_rx;
		left.tx = c[i].left_tx;
		debt.rx = c[i].debt_rx;
		debt.tx = c[i].debt_tx;
		assert_int_equal(xnb_pass_turn_share(&left, c[i].share,
						     c[i].alone, &debt, &way),
				 c[i].want);
		assert_int_equal(way.rx, c[i].rx);
		assert_int_equal(way.tx, c[i].tx);
		assert_int_equal(debt.rx, c[i].owe_rx);
		assert_int_equal(debt.tx, c[i].owe_tx);
	}
}

/* What a way used past its share is owed, up to XNB_PASS_DEBT_MAX. */
static void test_pass_debt(void **state)
{
	static const struct {
		u32 debt, share, used, want;
	} c[] = {
		{ 0, 64, 64, 0 },	/* the share, no more */
		{ 0, 64, 10, 0 },	/* less: nothing owed, nothing gained */
		{ 0, 64, 68, 4 },	/* four 17-slot packets */
		{ 0, 64, 171, 107 },	/* a 48-byte-segment GSO packet */
		{ 0, 21, 171, 150 },	/* the same after paying 43 */
		{ 5, 64, 64, 5 },	/* a cut turn's piece: still owed */
		{ 10, 44, 50, 16 },
		{ 0, 8, 171, 163 },	/* at the share floor */
		{ 163, 8, 171, XNB_PASS_DEBT_MAX },	/* capped */
		{ 0, 1, 1024, XNB_PASS_DEBT_MAX },	/* gso_max_segs raised */
		{ XNB_PASS_DEBT_MAX, 64, 171, XNB_PASS_DEBT_MAX },
		{ XNB_PASS_DEBT_MAX + 5, 64, 0, XNB_PASS_DEBT_MAX },
		{ 0, 0, 0, 0 },		/* a way its debt took moves nothing */
		{ 0, 0xffffffffu, 0xffffffffu, 0 },
		{ 0, 0, 0xffffffffu, XNB_PASS_DEBT_MAX },	/* no overflow */
		{ 100, 0, 0xffffffffu, XNB_PASS_DEBT_MAX },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		print_message("debt %u share %u used %u\n", c[i].debt,
			      c[i].share, c[i].used);
		assert_int_equal(xnb_pass_debt(c[i].debt, c[i].share,
					       c[i].used), c[i].want);
	}
}

/* A queue sending packets charged many times its share gets, over its
 * turns, its share and no more: the packet crossing a turn's share
 * goes, and the next turns are shorter or empty until the excess is
 * paid.  A queue owing the most moves again within
 * ceil(XNB_PASS_DEBT_MAX / share) turns.
 */
static void test_pass_debt_turns(void **state)
{
	static const struct {
		u32 share, pkt, turns;
	} c[] = {
		{ 64, 171, 300 },	/* 1365 segments of 48 bytes */
		{ 64, 17, 300 },	/* honest 64 KiB packets */
		{ 64, 1, 300 },
		{ 8, 171, 900 },	/* the share floor */
		{ 16, 20, 300 },
		{ 1024, 171, 300 },	/* a share larger than a packet */
		{ 1, 1024, 4000 },	/* past the cap: excess forgiven */
	};
	struct xnb_pass_ways left = { 0, 0 }, debt, way;
	u32 t, used, idle, idle_max, bound;
	unsigned int i;
	u64 got;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		debt = (struct xnb_pass_ways){ 0, 0 };
		got = 0;
		idle = idle_max = 0;
		for (t = 0; t < c[i].turns; t++) {
			xnb_pass_turn_share(&left, c[i].share, false, &debt,
					    &way);
			/* Whole packets while below the limit. */
			used = way.tx ? (way.tx + c[i].pkt - 1) / c[i].pkt *
					c[i].pkt : 0;
			debt.tx = xnb_pass_debt(debt.tx, way.tx, used);
			assert_true(debt.tx <= XNB_PASS_DEBT_MAX);
			got += used;
			idle = used ? 0 : idle + 1;
			if (idle > idle_max)
				idle_max = idle;
		}
		bound = (XNB_PASS_DEBT_MAX + c[i].share - 1) / c[i].share;
		print_message("share %u pkt %u: %llu slots in %u turns, at most %u empty in a row (bound %u)\n",
			      c[i].share, c[i].pkt, (unsigned long long)got,
			      c[i].turns, idle_max, bound);
		assert_true(idle_max <= bound);
		if (c[i].pkt - 1 <= XNB_PASS_DEBT_MAX) {
			/* The share a turn, within one packet's excess. */
			assert_true(got <= (u64)c[i].turns * c[i].share +
					   c[i].pkt);
			assert_true(got + c[i].pkt >= (u64)c[i].turns *
							c[i].share);
		} else {
			/* The cap forgave the rest: a packet every so
			 * many turns, never none.
			 */
			assert_true(got >= (u64)c[i].pkt *
					   (c[i].turns / (bound + 1)));
		}
	}
}

/* A way cut goes on with its share less what it used; each way alone. */
static void test_pass_turn_left(void **state)
{
	static const struct {
		u32 share, limit, used, want;
	} c[] = {
		{ 64, 64, 68, 0 },	/* not cut */
		{ 64, 64, 10, 0 },	/* ran out: over */
		{ 1024, 192, 204, 820 },	/* cut by the cap: the rest */
		{ 1024, 256, 256, 768 },
		{ 128, 26, 34, 94 },	/* the crossing packet counts */
		{ 64, 60, 60, 4 },	/* RX split near the cap: cut */
		{ 1024, 192, 100, 0 },	/* ran out: over */
		{ 64, 20, 20, 44 },	/* TX: NAPI's last 20 packets */
		{ 64, 20, 30, 34 },	/* crossing packet counts */
		{ 64, 20, 5, 0 },	/* TX held for credit: over */
		/* A limit of 0 cut nothing: the rest would never shrink. */
		{ 64, 0, 0, 0 },	/* TX once NAPI's budget is spent */
		{ 0, 0, 0, 0 },		/* a way done in a cut turn */
		/* The share used: done. */
		{ 76, 26, 80, 0 },
		{ 76, 26, 76, 0 },
		{ 64, 1, 1, 63 },
		{ 64, 1, 0, 0 },	/* an empty turn: over */
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		print_message("share %u limit %u used %u\n", c[i].share,
			      c[i].limit, c[i].used);
		assert_int_equal(xnb_pass_turn_left(c[i].share, c[i].limit,
						    c[i].used), c[i].want);
	}
}

/* A turn that used no slot is charged one; so a pass over many queues
 * that each use none (disabled, blocked for buffers, held for credit)
 * stops after XNB_PASS_SLOTS turns, with the rest for the next poll.
 */
static void test_pass_turn_end(void **state)
{
	static const struct {
		u32 slots, used, want;
	} c[] = {
		{ 0, 0, 1 },
		{ 0, 1, 1 },
		{ 0, 17, 17 },
		{ 100, 0, 101 },
		{ 255, 0, 256 },
		{ 255, 40, 295 },
	};
	struct xnb_pass_acct a;
	unsigned int i, turns;
	u32 start;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		xnb_pass_begin(&a, 64, XNB_PASS_SLOTS);
		xnb_pass_charge(&a, 0, c[i].slots);
		start = a.slots;
		xnb_pass_charge(&a, 0, c[i].used);
		xnb_pass_turn_end(&a, start);
		assert_int_equal(a.slots, c[i].want);
	}

	xnb_pass_begin(&a, 64, XNB_PASS_SLOTS);
	for (turns = 0; turns < 10000 && xnb_pass_may_serve(&a); turns++) {
		start = a.slots;
		xnb_pass_charge(&a, 0, 0);
		xnb_pass_turn_end(&a, start);
	}
	assert_int_equal(turns, XNB_PASS_SLOTS);
	assert_int_equal(a.stopped, XNB_PASS_STOP_CAP);
}

static void test_pass_tx_slots(void **state)
{
	static const struct {
		u32 napi, tx, slots, share, want;
	} c[] = {
		{ 64, 0, 0, 64, 64 },
		/* XNB_TX_PKT_SLOTS a packet NAPI's budget has left, at most. */
		{ 64, 0, 0, 1024, 64 * XNB_TX_PKT_SLOTS },
		{ 64, 60, 60, 64, 4 * XNB_TX_PKT_SLOTS },
		{ 64, 63, 63, 8, XNB_TX_PKT_SLOTS },
		{ 64, 64, 64, 8, 0 },
		{ 64, 70, 70, 8, 0 },	/* never wraps */
		{ 300, 0, 0, 8, 8 },
		{ 64, 0, 0, 0, 0 },
		/* The turn's RX charged: TX gets what it left of the cap. */
		{ 64, 0, 250, 64, 6 },
		{ 300, 10, 100, 1024, 156 },
		{ 64, 0, 256, 64, 1 },	/* RX took the rest: a packet */
		{ 64, 0, 275, 1024, 1 },	/* RX crossed the cap */
		{ 64, 64, 275, 1024, 0 },	/* NAPI's budget still first */
	};
	struct xnb_pass_acct a;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		print_message("napi %u tx %u slots %u share %u\n", c[i].napi,
			      c[i].tx, c[i].slots, c[i].share);
		xnb_pass_begin(&a, c[i].napi, XNB_PASS_SLOTS);
		xnb_pass_charge(&a, c[i].tx, c[i].slots);
		assert_int_equal(xnb_pass_tx_slots(&a, c[i].share), c[i].want);
	}
}

enum { L = 1, M = 0 };	/* light or main context */
#define C XNB_NEXT_COMPLETE
#define A XNB_NEXT_AGAIN
#define H XNB_NEXT_HANDOFF

/* The poll after its passes: TX and requeues, the cap counting both
 * ways, the passes a poll runs, and NAPI's return rules.
 */
static void test_pass_decide(void **state)
{
	static const struct {
		u8 light;
		u32 tx, slots;
		u8 stopped;
		bool requeued, active;
		u32 passes;
		u8 next, reason;
		u32 ret;
	} c[] = {
		/* Light: idle, a lone packet, passes for kicks meanwhile. */
		{ L, 0, 0, XNB_PASS_GO, false, false, 1, C, 0, 0 },
		{ L, 1, 1, XNB_PASS_GO, false, false, 1, C, 0, 1 },
		{ L, 3, 3, XNB_PASS_GO, false, false, 4, C, 0, 3 },
		{ L, 3, 3, XNB_PASS_GO, false, true, 4, H,
		  XNB_HANDOFF_PASSES, 3 },
		/* Light: queues left short of the passes: never completes
		 * with a queue active (its kick scheduled nothing).
		 */
		{ L, 1, 1, XNB_PASS_GO, false, true, 1, A, 0, 64 },
		/* Light: NAPI's budget used; NAPI wants less back. */
		{ L, 64, 64, XNB_PASS_STOP_NAPI, false, true, 1, H,
		  XNB_HANDOFF_BUDGET, 63 },
		{ L, 64, 64, XNB_PASS_GO, false, false, 1, H,
		  XNB_HANDOFF_BUDGET, 63 },
		/* Light: RX alone reaches the cap with queues left. */
		{ L, 0, 300, XNB_PASS_STOP_CAP, false, true, 1, H,
		  XNB_HANDOFF_CAP, 0 },
		{ L, 10, 260, XNB_PASS_STOP_CAP, true, true, 2, H,
		  XNB_HANDOFF_CAP, 10 },
		/* Light: the cap reached by the last queue, none left. */
		{ L, 0, 300, XNB_PASS_GO, false, false, 1, C, 0, 0 },
		/* Light: a queue put back. */
		{ L, 5, 80, XNB_PASS_GO, true, true, 1, H,
		  XNB_HANDOFF_REQUEUED, 5 },
		/* Main: again while anything is left, complete once idle. */
		{ M, 64, 64, XNB_PASS_STOP_NAPI, false, true, 1, A, 0, 64 },
		{ M, 64, 64, XNB_PASS_GO, false, false, 1, A, 0, 64 },
		{ M, 0, 300, XNB_PASS_STOP_CAP, false, true, 1, A, 0, 64 },
		{ M, 0, 300, XNB_PASS_STOP_CAP, false, false, 2, A, 0, 64 },
		{ M, 3, 3, XNB_PASS_GO, true, true, 1, A, 0, 64 },
		{ M, 3, 3, XNB_PASS_GO, false, true, 4, A, 0, 64 },
		{ M, 3, 3, XNB_PASS_GO, false, false, 4, C, 0, 3 },
		{ M, 0, 0, XNB_PASS_GO, false, false, 1, C, 0, 0 },
	};
	struct xnb_pass_verdict v;
	struct xnb_pass_acct a;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		print_message("case %u\n", i);
		xnb_pass_begin(&a, 64, XNB_PASS_SLOTS);
		xnb_pass_charge(&a, c[i].tx, c[i].slots);
		a.stopped = c[i].stopped;
		a.requeued = c[i].requeued;
		xnb_pass_decide(&a, c[i].light, c[i].active, c[i].passes, &v);
		assert_int_equal(v.next, c[i].next);
		if (v.next == XNB_NEXT_HANDOFF)
			assert_int_equal(v.reason, c[i].reason);
		assert_int_equal(v.ret, c[i].ret);
	}
}

/* NAPI's rules over every combination: never more than the budget;
 * exactly the budget to be polled again, less once completed; never
 * completed with a queue active; the main context never hands off and
 * completes only with nothing left behind; the light one hands off
 * under sustained load.
 */
static void test_pass_decide_napi_rules(void **state)
{
	static const u32 budgets[] = { 0, 1, 2, 8, 64, 300 };
	u32 b, tx, slots, st, rq, act, light, passes;
	struct xnb_pass_verdict v;
	struct xnb_pass_acct a;

	(void)state;
	for (b = 0; b < ARRAY_SIZE(budgets); b++)
	for (tx = 0; tx <= budgets[b] + 1; tx++)
	for (slots = 0; slots <= 2 * XNB_PASS_SLOTS; slots += 64)
	for (st = XNB_PASS_GO; st <= XNB_PASS_STOP_CAP; st++)
	for (rq = 0; rq < 2; rq++)
	for (act = 0; act < 2; act++)
	for (light = 0; light < 2; light++)
	for (passes = 1; passes <= XNB_POLL_PASSES + 1; passes++) {
		bool sustained;

		/* Stopped for NAPI means its budget was used. */
		if (st == XNB_PASS_STOP_NAPI && tx < budgets[b])
			continue;
		xnb_pass_begin(&a, budgets[b], XNB_PASS_SLOTS);
		xnb_pass_charge(&a, tx, slots);
		a.stopped = st;
		a.requeued = rq;
		xnb_pass_decide(&a, light, act, passes, &v);
		assert_true(v.ret <= budgets[b]);
		if (!budgets[b]) {
			assert_int_equal(v.next, XNB_NEXT_COMPLETE);
			continue;
		}
		if (v.next == XNB_NEXT_AGAIN)
			assert_int_equal(v.ret, budgets[b]);
		else
			assert_true(v.ret < budgets[b]);
		if (act)
			assert_int_not_equal(v.next, XNB_NEXT_COMPLETE);
		sustained = st == XNB_PASS_STOP_CAP || tx >= budgets[b];
		if (light) {
			if (sustained || rq ||
			    (act && passes >= XNB_POLL_PASSES))
				assert_int_equal(v.next, XNB_NEXT_HANDOFF);
		} else {
			assert_int_not_equal(v.next, XNB_NEXT_HANDOFF);
			if (act || sustained)
				assert_int_equal(v.next, XNB_NEXT_AGAIN);
			else
				assert_int_equal(v.next, XNB_NEXT_COMPLETE);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pass_may_serve),
		cmocka_unit_test(test_pass_turn_slots),
		cmocka_unit_test(test_pass_rx_slots),
		cmocka_unit_test(test_pass_rx_split),
		cmocka_unit_test(test_pass_turn_share),
		cmocka_unit_test(test_pass_turn_left),
		cmocka_unit_test(test_pass_debt),
		cmocka_unit_test(test_pass_debt_turns),
		cmocka_unit_test(test_pass_turn_end),
		cmocka_unit_test(test_pass_turn),
		cmocka_unit_test(test_pass_tx_slots),
		cmocka_unit_test(test_pass_decide),
		cmocka_unit_test(test_pass_decide_napi_rules),
	};

	return cmocka_run_group_tests_name("pass", tests, NULL, NULL);
}
