// SPDX-License-Identifier: GPL-2.0
/*
 * Guest RX notification moderation (xnb_rxmod_decide, xnb_rxmod_wanted):
 * a table of single decisions, then streams played against the rules
 * the driver relies on: a notification the guest asked for is never
 * lost and never waits longer than the hold, at most one goes per hold,
 * a lone packet after a quiet spell goes at once, and a guest that
 * polled every response away is not woken for nothing.
 */
#include "unit.h"

#define US	1000ull		/* ns */
#define T0	(1000000ull * US)	/* a clock well past 0 */

static const struct xnb_rxmod_limits lim_def = { 100, 64, 128 };

static void test_rxmod_decide_table(void **state)
{
	static const struct {
		const char *what;
		struct xnb_rxmod m;
		bool asked;
		u32 pkts, slots;
		bool starved;
		u64 now;
		struct xnb_rxmod_limits lim;
		enum xnb_rxmod_verdict want;
		bool owed_after;
		u64 due_after;		/* checked for DEFER only */
	} c[] = {
		{ "nothing asked, nothing owed",
		  { T0, 0, 0, 0, false, false }, false, 5, 5, false,
		  T0 + 10 * US, lim_def, XNB_RXMOD_NONE, false, 0 },
		{ "the first one ever goes at once",
		  { 0, 0, 0, 0, false, false }, true, 1, 1, false,
		  T0, lim_def, XNB_RXMOD_NOW, false, 0 },
		{ "quiet for the hold: at once",
		  { T0, 0, 0, 0, false, false }, true, 1, 1, false,
		  T0 + 100 * US, lim_def, XNB_RXMOD_NOW, false, 0 },
		{ "one went 10 us ago: waits for the hold's end",
		  { T0, 0, 0, 0, false, false }, true, 1, 1, false,
		  T0 + 10 * US, lim_def, XNB_RXMOD_DEFER, true, T0 + 100 * US },
		{ "owed: more packets, still below frames",
		  { T0, T0 + 100 * US, 10, 10, true, true }, false, 53, 53,
		  false, T0 + 20 * US, lim_def, XNB_RXMOD_DEFER, true,
		  T0 + 100 * US },
		{ "owed: frames reached",
		  { T0, T0 + 100 * US, 10, 10, true, true }, false, 54, 54,
		  false, T0 + 20 * US, lim_def, XNB_RXMOD_NOW, false, 0 },
		{ "owed: half the ring in slots (GSO packets)",
		  { T0, T0 + 100 * US, 7, 119, true, true }, false, 1, 17,
		  false, T0 + 20 * US, lim_def, XNB_RXMOD_NOW, false, 0 },
		{ "owed: the queue starves for buffers",
		  { T0, T0 + 100 * US, 1, 1, true, true }, false, 0, 0, true,
		  T0 + 20 * US, lim_def, XNB_RXMOD_NOW, false, 0 },
		{ "owed: the timer's look at its due time",
		  { T0, T0 + 100 * US, 3, 3, true, true }, false, 0, 0, false,
		  T0 + 100 * US, lim_def, XNB_RXMOD_NOW, false, 0 },
		{ "owed: a look before it is due re-arms",
		  { T0, T0 + 100 * US, 3, 3, true, true }, false, 0, 0, false,
		  T0 + 99 * US, lim_def, XNB_RXMOD_DEFER, true, T0 + 100 * US },
		{ "asked again while owed: the count goes on",
		  { T0, T0 + 100 * US, 60, 60, true, true }, true, 4, 4, false,
		  T0 + 30 * US, lim_def, XNB_RXMOD_NOW, false, 0 },
		{ "rx-usecs 0: no moderation",
		  { T0, 0, 0, 0, false, false }, true, 1, 1, false,
		  T0 + 1 * US, { 0, 64, 128 }, XNB_RXMOD_NOW, false, 0 },
		{ "rx-frames 1: no moderation",
		  { T0, 0, 0, 0, false, false }, true, 1, 1, false,
		  T0 + 1 * US, { 100, 1, 128 }, XNB_RXMOD_NOW, false, 0 },
		{ "rx-frames 0: no frame limit",
		  { T0, T0 + 100 * US, 1000, 100, true, true }, false, 1000,
		  10, false, T0 + 50 * US, { 100, 0, 128 }, XNB_RXMOD_DEFER,
		  true, T0 + 100 * US },
		{ "the hold shrank (adaptive) while owed: due earlier",
		  { T0, T0 + 256 * US, 1, 1, true, true }, false, 1, 1, false,
		  T0 + 5 * US, { 64, 256, 128 }, XNB_RXMOD_DEFER, true,
		  T0 + 64 * US },
		{ "the hold shrank below the time since the last: now",
		  { T0, T0 + 256 * US, 1, 1, true, true }, false, 1, 1, false,
		  T0 + 65 * US, { 64, 256, 128 }, XNB_RXMOD_NOW, false, 0 },
		{ "the hold grew while owed: keeps its first due time",
		  { T0, T0 + 64 * US, 1, 1, true, true }, false, 1, 1, false,
		  T0 + 5 * US, { 256, 256, 128 }, XNB_RXMOD_DEFER, true,
		  T0 + 64 * US },
		{ "the hold grew: goes at its first due time",
		  { T0, T0 + 64 * US, 1, 1, true, true }, false, 0, 0, false,
		  T0 + 64 * US, { 256, 256, 128 }, XNB_RXMOD_NOW, false, 0 },
		{ "a hold below the floor (dim's 8 us): none",
		  { T0, 0, 0, 0, false, false }, true, 1, 1, false,
		  T0 + 1 * US, { XNB_RXMOD_USECS_MIN - 1, 256, 128 },
		  XNB_RXMOD_NOW, false, 0 },
		{ "the floor itself holds",
		  { T0, 0, 0, 0, false, false }, true, 1, 1, false,
		  T0 + 1 * US, { XNB_RXMOD_USECS_MIN, 256, 128 },
		  XNB_RXMOD_DEFER, true, T0 + XNB_RXMOD_USECS_MIN * US },
		{ "a clock before the last one: now",
		  { T0, 0, 0, 0, false, false }, true, 1, 1, false,
		  T0 - 1, lim_def, XNB_RXMOD_NOW, false, 0 },
		{ "counts saturate",
		  { T0, T0 + 100 * US, 0xfffffff0u, 5, true, true }, false,
		  0x100, 0, false, T0 + 1 * US, { 100, 0, 128 },
		  XNB_RXMOD_DEFER, true, T0 + 100 * US },
		{ "the largest hold (10 ms)",
		  { T0, 0, 0, 0, false, false }, true, 1, 1, false,
		  T0 + 1 * US, { XNB_RXMOD_USECS_MAX, 0, 128 },
		  XNB_RXMOD_DEFER, true, T0 + XNB_RXMOD_USECS_MAX * US },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct xnb_rxmod m = c[i].m;
		enum xnb_rxmod_verdict v;

		print_message("%s\n", c[i].what);
		v = xnb_rxmod_decide(&m, c[i].asked, c[i].pkts, c[i].slots,
				     c[i].starved, c[i].now, &c[i].lim);
		assert_int_equal(v, c[i].want);
		assert_int_equal(m.owed, c[i].owed_after);
		/* Only xnb_rxmod_sent() moves the last one's time. */
		assert_true(m.last_ns == c[i].m.last_ns);
		if (v == XNB_RXMOD_DEFER) {
			assert_true(m.due_ns == c[i].due_after);
			assert_true(m.due_ns > c[i].now);
			assert_true(m.deferred);
		}
	}
}

/* A new debt starts its counts afresh and is not marked deferred yet. */
static void test_rxmod_new_debt(void **state)
{
	struct xnb_rxmod m = { T0, 0, 99, 99, false, true };

	(void)state;
	assert_int_equal(xnb_rxmod_decide(&m, true, 2, 3, false, T0 + US,
					  &lim_def), XNB_RXMOD_DEFER);
	assert_int_equal(m.pkts, 2);
	assert_int_equal(m.slots, 3);
	assert_true(m.deferred);
	/* Nothing new, not asked, not due: still owed, still the same. */
	assert_int_equal(xnb_rxmod_decide(&m, false, 0, 0, false, T0 + 2 * US,
					  &lim_def), XNB_RXMOD_DEFER);
	assert_int_equal(m.pkts, 2);
}

/* One found unneeded (the guest had polled) is not one sent: a lone
 * packet right after it still goes at once.
 */
static void test_rxmod_skipped_not_sent(void **state)
{
	struct xnb_rxmod m = { 0, 0, 0, 0, false, false };

	(void)state;
	assert_int_equal(xnb_rxmod_decide(&m, true, 1, 1, false, T0,
					  &lim_def), XNB_RXMOD_NOW);
	xnb_rxmod_sent(&m, T0);
	/* Owed 50 us later, due at T0 + 100 us, then not wanted. */
	assert_int_equal(xnb_rxmod_decide(&m, true, 1, 1, false, T0 + 50 * US,
					  &lim_def), XNB_RXMOD_DEFER);
	assert_int_equal(xnb_rxmod_decide(&m, false, 0, 0, false,
					  T0 + 100 * US, &lim_def),
			 XNB_RXMOD_NOW);
	/* Skipped: no xnb_rxmod_sent().  A packet 5 us later goes now. */
	assert_int_equal(xnb_rxmod_decide(&m, true, 1, 1, false,
					  T0 + 105 * US, &lim_def),
			 XNB_RXMOD_NOW);
}

static void test_rxmod_wanted(void **state)
{
	static const struct {
		u32 prod, event;
		bool want;
	} c[] = {
		{ 10, 11, false },	/* took all, re-armed: idle, done */
		{ 10, 10, true },	/* waits for the last one */
		{ 10, 5, true },	/* did not re-arm since: owed */
		{ 10, 12, false },	/* asks for later ones only */
		{ 10, 10 + 256, false },
		{ 10, 10 + 257, true },	/* nonsense: notify, harmless */
		{ 0xffffffffu, 0, false },	/* wrap: prod + 1 */
		{ 0xffffffffu, 0xffffffffu, true },
		{ 0, 0xffffffffu, true },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		print_message("prod %u event %u\n", c[i].prod, c[i].event);
		assert_int_equal(xnb_rxmod_wanted(c[i].prod, c[i].event, 256),
				 c[i].want);
	}
}

/* A stream being replayed against the rules. */
struct stream {
	const struct xnb_rxmod_limits *lim;
	struct xnb_rxmod m;
	u64 timer;		/* armed for then; 0: not armed */
	u64 oldest;		/* the first asked push not told yet */
	u64 last_sent;
	unsigned int sent;
	bool waiting;		/* an asked push is not told yet */
};

/* What one decision at @now did: a notification sent is within the
 * hold of the oldest push waiting for it, and, unless frames or slots
 * sent it, a hold after the one before; a deferred one is armed for a
 * time within the hold of the oldest push waiting.
 */
static void stream_verdict(struct stream *s, enum xnb_rxmod_verdict v, u64 now)
{
	u64 hold = s->lim->usecs * US;
	bool held = s->lim->usecs >= XNB_RXMOD_USECS_MIN && s->lim->frames != 1;
	bool by_count = (s->lim->frames && s->m.pkts >= s->lim->frames) ||
			s->m.slots >= s->lim->slots_max;

	if (v == XNB_RXMOD_NOW) {
		assert_true(s->waiting);
		assert_true(now - s->oldest <= (held ? hold : 0));
		if (s->sent && held && !by_count)
			assert_true(now - s->last_sent >= hold);
		xnb_rxmod_sent(&s->m, now);	/* the stream's guest waits */
		s->sent++;
		s->last_sent = now;
		s->waiting = false;
		s->timer = 0;
	} else if (v == XNB_RXMOD_DEFER) {
		assert_true(s->waiting);
		assert_true(s->m.due_ns > now);
		assert_true(s->m.due_ns - s->oldest <= hold);
		s->timer = s->m.due_ns;
	} else {
		assert_false(s->waiting);
	}
}

/* Replay a stream: a packet every @gap_us for @n packets, the guest
 * asking at each push (@asked_always), or only once told of the last
 * (netfront: it re-arms rsp_event after handling the event), with a
 * timer that fires at the due time it was given.  Every asked push is
 * told within the hold, at most one notification goes per hold (but for
 * those frames or slots send), none is lost at the end.
 * Return: the notifications sent.
 */
static unsigned int play(u32 gap_us, u32 n, const struct xnb_rxmod_limits *lim,
			 bool asked_always)
{
	struct stream s = { .lim = lim };
	u64 now = T0;
	unsigned int i;

	for (i = 0; i < n; i++, now += gap_us * US) {
		bool asked = asked_always || !s.m.owed;

		/* The timer fires first if it is due before this packet. */
		while (s.timer && s.timer <= now)
			stream_verdict(&s, xnb_rxmod_decide(&s.m, false, 0, 0,
							    false, s.timer,
							    lim), s.timer);
		if (asked && !s.waiting) {
			s.oldest = now;
			s.waiting = true;
		}
		stream_verdict(&s, xnb_rxmod_decide(&s.m, asked, 1, 1, false,
						    now, lim), now);
	}
	/* The end of the stream: the timer still sends what is owed. */
	while (s.timer)
		stream_verdict(&s, xnb_rxmod_decide(&s.m, false, 0, 0, false,
						    s.timer, lim), s.timer);
	assert_false(s.m.owed);
	assert_false(s.waiting);
	return s.sent;
}

static void test_rxmod_streams(void **state)
{
	static const struct xnb_rxmod_limits off = { 0, 0, 128 };
	static const struct xnb_rxmod_limits frames = { 1000, 8, 128 };
	static const struct xnb_rxmod_limits eqe[] = {
		{ 1, 256, 128 }, { 8, 256, 128 }, { 64, 256, 128 },
		{ 128, 256, 128 }, { 256, 256, 128 },
	};
	unsigned int i, sent;

	(void)state;
	/* No moderation: one notification per packet. */
	assert_int_equal(play(10, 1000, &off, true), 1000);
	/* Packets 10 us apart, 100 us hold: one per 100 us at most, so
	 * about a tenth (the first at once, then one per hold).
	 */
	sent = play(10, 1000, &lim_def, true);
	assert_true(sent >= 95 && sent <= 101);
	/* Packets 1 ms apart (a ping): every one at once. */
	assert_int_equal(play(1000, 50, &lim_def, true), 50);
	/* frames: 8 packets a notification at most. */
	sent = play(1, 800, &frames, true);
	assert_true(sent >= 100 && sent <= 101);
	/* A guest asked only once per notification (netfront: it re-arms
	 * after handling the event): the same bounds hold.
	 */
	sent = play(10, 1000, &lim_def, false);
	assert_true(sent >= 95 && sent <= 101);
	/* dim's EQE profiles, packets every 3 us. */
	for (i = 0; i < ARRAY_SIZE(eqe); i++)
		play(3, 2000, &eqe[i], i & 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rxmod_decide_table),
		cmocka_unit_test(test_rxmod_new_debt),
		cmocka_unit_test(test_rxmod_skipped_not_sent),
		cmocka_unit_test(test_rxmod_wanted),
		cmocka_unit_test(test_rxmod_streams),
	};

	return cmocka_run_group_tests_name("rxmod", tests, NULL, NULL);
}
