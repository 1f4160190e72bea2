// SPDX-License-Identifier: GPL-2.0
/*
 * Holding a queue's events after its turn (xnb_defer_hold_ns,
 * xnb_defer_mean, xnb_defer_mode, xnb_defer_keep): tables of single
 * decisions, then a queue's life played against the rules the driver
 * relies on: a lone packet is never held, a hold is bounded by the
 * parameter whatever the mean pass, and a held queue is let go by the
 * first turn that finds nothing.
 */
#include "unit.h"

#define US	1000ull		/* ns */
#define T0	(1000000ull * US)	/* a clock well past 0 */

static void test_defer_hold_table(void **state)
{
	static const struct {
		const char *what;
		u64 pass_ns;
		u32 max_usecs;
		u64 want;
	} c[] = {
		{ "parameter 0: no holding", 50 * US, 0, 0 },
		{ "the default: 8 passes of 20 us, capped", 20 * US,
		  XNB_DEFER_USECS_DEF, XNB_DEFER_USECS_DEF * US },
		{ "parameter 0, no mean yet: none either", 0, 0, 0 },
		{ "no mean yet: the floor", 0, 2000, XNB_DEFER_MIN_NS },
		{ "a fast host: 8 passes of 5 us", 5 * US, 2000, 40 * US },
		{ "below the floor: the floor", 1 * US, 2000, XNB_DEFER_MIN_NS },
		{ "a slow host: capped", 400 * US, 2000, 2000 * US },
		{ "just under the cap", 249 * US, 2000, 1992 * US },
		{ "cap below the floor: the cap wins", 5 * US, 5, 5 * US },
		{ "a huge mean saturates, capped", ~0ull / 2, 10000,
		  10000 * US },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		u64 got = xnb_defer_hold_ns(c[i].pass_ns, c[i].max_usecs);

		if (got != c[i].want)
			fail_msg("%s: %llu, want %llu", c[i].what,
				 (unsigned long long)got,
				 (unsigned long long)c[i].want);
	}
}

static void test_defer_mode_table(void **state)
{
	static const struct {
		const char *what;
		u64 hold_ns;
		bool held;
		u64 now, drained;
		bool want;
	} c[] = {
		{ "holding off", 0, true, T0, T0, false },
		{ "held: its timer's turn", 100 * US, true, T0, 0, true },
		{ "drained 50 us ago, holds of 100: streams", 100 * US, false,
		  T0 + 50 * US, T0, true },
		{ "drained exactly a hold ago: slower", 100 * US, false,
		  T0 + 100 * US, T0, false },
		{ "drained a second ago (a ping)", 100 * US, false,
		  T0 + 1000000 * US, T0, false },
		{ "never drained", 100 * US, false, T0, 0, false },
		{ "a clock gone back wraps large: quiet", 100 * US, false,
		  T0, T0 + 1 * US, false },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++)
		if (xnb_defer_mode(c[i].hold_ns, c[i].held, c[i].now,
				   c[i].drained) != c[i].want)
			fail_msg("%s", c[i].what);
}

static void test_defer_keep_table(void **state)
{
	static const struct {
		const char *what;
		unsigned int rx, tx;
		bool blocked, one;
		unsigned int want;
	} c[] = {
		{ "nothing moved: let go", 0, 0, false, false, 0 },
		{ "guest TX only", 0, 3, false, false, XNB_WAY_TX },
		{ "guest RX only", 1, 0, false, false, XNB_WAY_RX },
		{ "both ways", 2, 2, false, false, XNB_WAY_ALL },
		{ "RX blocked for buffers: not RX (its refill is heard)", 5,
		  0, true, false, 0 },
		{ "RX blocked, TX moved: TX alone", 5, 2, true, false,
		  XNB_WAY_TX },
		{ "one channel, TX moved: held", 0, 1, false, true,
		  XNB_WAY_TX },
		{ "one channel, both: held both", 1, 1, false, true,
		  XNB_WAY_ALL },
		{ "one channel, RX alone: not held (masks TX too)", 1, 0,
		  false, true, 0 },
		{ "one channel, RX blocked: not held (masks its refill)", 1,
		  1, true, true, 0 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		unsigned int got = xnb_defer_keep(c[i].rx, c[i].tx,
						  c[i].blocked, c[i].one);

		if (got != c[i].want)
			fail_msg("%s: %u, want %u", c[i].what, got,
				 c[i].want);
	}
	/* No queue is ever held for the ways of a timer's kick. */
	assert_int_equal(XNB_WAY_NOW & XNB_WAY_ALL, 0);
}

static void test_defer_mean(void **state)
{
	u64 m = 0;
	unsigned int i;

	(void)state;
	/* The first sample is the mean. */
	m = xnb_defer_mean(m, 400 * US);
	assert_int_equal(m, 400 * US);
	/* Constant samples keep it. */
	for (i = 0; i < 100; i++)
		m = xnb_defer_mean(m, 400 * US);
	assert_true(m >= 399 * US && m <= 400 * US);
	/* It follows a change, 1/8 a sample: halfway in ~6 samples. */
	for (i = 0; i < 6; i++)
		m = xnb_defer_mean(m, 0);
	assert_true(m > 150 * US && m < 250 * US);
	for (i = 0; i < 200; i++)
		m = xnb_defer_mean(m, 5 * US);
	assert_true(m >= 4 * US && m <= 6 * US);
	/* Large samples do not overflow. */
	m = xnb_defer_mean(~0ull, ~0ull);
	assert_true(m >= ~0ull - 16);
}

/* A queue's turns as pass.c plays them: @gap_ns between its packets,
 * one packet a turn; a held queue's next turn comes at the timer, a
 * released one's at its next packet's event.  Returns the turns that
 * ended held.
 */
static unsigned int play(u64 gap_ns, unsigned int packets, u64 hold_ns,
			 u64 *worst_wait)
{
	u64 now = T0, next = T0, drained = 0;
	unsigned int held_turns = 0, sent = 0;
	bool held = false;

	*worst_wait = 0;
	while (sent < packets) {
		bool mode;
		unsigned int n = 0;

		if (!held)
			now = next;	/* its event */
		mode = xnb_defer_mode(hold_ns, held, now, drained);
		while (sent < packets && next <= now) {
			if (now - next > *worst_wait)
				*worst_wait = now - next;
			next += gap_ns;
			sent++;
			n++;
		}
		held = mode && xnb_defer_keep(0, n, false, false);
		held_turns += held;
		drained = now;
		if (held)
			now += hold_ns;	/* the timer */
	}
	return held_turns;
}

static void test_defer_streams(void **state)
{
	u64 wait;

	(void)state;
	/* A ping a second: never held, never waits. */
	assert_int_equal(play(1000000 * US, 20, 100 * US, &wait), 0);
	assert_int_equal(wait, 0);
	/* Packets 10 us apart, holds of 100: held, ~10 a turn, none
	 * waits longer than the hold.
	 */
	assert_true(play(10 * US, 1000, 100 * US, &wait) >= 90);
	assert_true(wait <= 100 * US);
	/* Packets 150 us apart, holds of 100: slower than the hold, never
	 * held (a timer's turn would find nothing), never waits.
	 */
	assert_int_equal(play(150 * US, 100, 100 * US, &wait), 0);
	assert_int_equal(wait, 0);
	/* Packets 60 us apart: held from the second on; the timer's turn
	 * finds one most times, and a turn that finds none lets it go.
	 */
	assert_true(play(60 * US, 100, 100 * US, &wait) >= 50);
	assert_true(wait <= 100 * US);
	/* Holding off: nothing held, nothing waits. */
	assert_int_equal(play(10 * US, 100, 0, &wait), 0);
	assert_int_equal(wait, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_defer_hold_table),
		cmocka_unit_test(test_defer_mode_table),
		cmocka_unit_test(test_defer_keep_table),
		cmocka_unit_test(test_defer_mean),
		cmocka_unit_test(test_defer_streams),
	};

	return cmocka_run_group_tests_name("defer", tests, NULL, NULL);
}
