// SPDX-License-Identifier: GPL-2.0
/*
 * Event-channel interrupts under lateeoi: whether an event is spurious
 * (EOI'd at once), owed to a pass already due, or a kick for the group;
 * the stronger of a shared channel's two verdicts; and how long a run of
 * spurious events holds back the EOI, and how a run is counted.
 */
#include "unit.h"

static void test_tx_event_judge(void **state)
{
	static const struct {
		u32 prod, prod_eoi, cons;
		bool held, disabled;
		enum xnb_event want;
	} c[] = {
		{ 5, 5, 5, false, false, XNB_EV_SPURIOUS },	/* nothing new */
		{ 6, 5, 5, false, false, XNB_EV_KICK },	/* new request */
		{ 6, 5, 6, false, false, XNB_EV_KICK },	/* polled already */
		{ 6, 6, 5, false, false, XNB_EV_KICK },	/* unconsumed */
		{ 6, 5, 5, true, false, XNB_EV_OWE },		/* credit timer's */
		{ 6, 5, 6, true, false, XNB_EV_OWE },		/* held, polled */
		{ 5, 5, 5, true, false, XNB_EV_SPURIOUS },	/* held, nothing */
		{ 6, 5, 5, true, true, XNB_EV_SPURIOUS },
		{ 6, 5, 5, false, true, XNB_EV_SPURIOUS },	/* disabled */
		{ 900, 5, 5, false, true, XNB_EV_SPURIOUS },	/* storm after fatal */
		{ 900, 5, 5, false, false, XNB_EV_KICK },	/* overflow: fatal */
		{ 0, 0xffffffffu, 0xffffffffu, false, false, XNB_EV_KICK },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++)
		assert_int_equal(xnb_tx_event_judge(c[i].prod, c[i].prod_eoi,
						    c[i].cons, c[i].held,
						    c[i].disabled), c[i].want);
}

static void test_rx_event_judge(void **state)
{
	static const struct {
		u32 prod, cons;
		bool blocked;
		u32 want;
		bool disabled;
		enum xnb_event ev;
	} c[] = {
		{ 10, 0, false, 1, false, XNB_EV_SPURIOUS },	/* not waiting */
		{ 0, 0, true, 1, false, XNB_EV_SPURIOUS },	/* no buffer */
		{ 1, 0, true, 1, false, XNB_EV_KICK },
		{ 2, 0, true, 3, false, XNB_EV_SPURIOUS },	/* too few */
		{ 3, 0, true, 3, false, XNB_EV_KICK },
		{ 256, 0, true, 19, false, XNB_EV_KICK },	/* full ring */
		/* more than a ring ahead: work, the group disables the vif */
		{ 257, 0, true, 1, false, XNB_EV_KICK },
		{ 0x80000000u, 0, true, 1, false, XNB_EV_KICK },
		/* ... and then every later event is spurious */
		{ 257, 0, true, 1, true, XNB_EV_SPURIOUS },
		{ 5, 0, true, 1, true, XNB_EV_SPURIOUS },
		{ 2, 0xffffffffu, true, 3, false, XNB_EV_KICK },	/* wrap */
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++)
		assert_int_equal(xnb_rx_event_judge(c[i].prod, c[i].cons, 256,
						    c[i].blocked, c[i].want,
						    c[i].disabled), c[i].ev);
}

static void test_event_merge(void **state)
{
	static const struct {
		enum xnb_event tx, rx, want;
	} c[] = {
		{ XNB_EV_SPURIOUS, XNB_EV_SPURIOUS, XNB_EV_SPURIOUS },
		{ XNB_EV_KICK, XNB_EV_SPURIOUS, XNB_EV_KICK },
		{ XNB_EV_SPURIOUS, XNB_EV_KICK, XNB_EV_KICK },
		{ XNB_EV_KICK, XNB_EV_KICK, XNB_EV_KICK },
		{ XNB_EV_OWE, XNB_EV_SPURIOUS, XNB_EV_OWE },
		{ XNB_EV_OWE, XNB_EV_KICK, XNB_EV_KICK },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++)
		assert_int_equal(xnb_event_merge(c[i].tx, c[i].rx), c[i].want);
}

/* The EOI hold by the run's length: none within the grace, then
 * doubling, capped (u32 runs: test_connect.c's ~0U cases).
 */
static void test_spurious_hold(void **state)
{
	static const struct {
		unsigned int run, grace, max, hold;
	} c[] = {
		{ 1, 8, 250, 0 },	/* first of the grace */
		{ 8, 8, 250, 0 },	/* last event of the grace */
		{ 9, 8, 250, 1 },	/* first held */
		{ 10, 8, 250, 2 },
		{ 16, 8, 250, 128 },
		{ 17, 8, 250, 250 },	/* 256 capped */
		{ 40, 8, 250, 250 },	/* shift past 31 */
		{ 255, 8, 250, 250 },	/* the saturated counter */
		{ 1, 0, 1000, 1 },
		{ 255, 0, 7, 7 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		struct xnb_spurious s = { .run = c[i].run - 1 };

		assert_int_equal(xnb_spurious_next(&s, true, 0, c[i].grace,
						   c[i].max), c[i].hold);
	}
}

/* A run of spurious events: work ends it, moved consumers restart it,
 * and it saturates without wrapping back to the grace.
 */
static void test_spurious_next(void **state)
{
	struct xnb_spurious s = { 0 };
	unsigned int i;

	(void)state;
	for (i = 1; i <= 8; i++)
		assert_int_equal(xnb_spurious_next(&s, true, 0, 8, 250), 0);
	assert_int_equal(s.run, 8);
	assert_int_equal(xnb_spurious_next(&s, true, 0, 8, 250), 1);
	assert_int_equal(xnb_spurious_next(&s, true, 0, 8, 250), 2);
	/* Work: sent at once, and the next spurious one is the first. */
	assert_int_equal(xnb_spurious_next(&s, false, 0, 8, 250), 0);
	assert_int_equal(s.run, 0);
	assert_int_equal(xnb_spurious_next(&s, true, 0, 8, 250), 0);
	assert_int_equal(s.run, 1);
	/* The consumers moved since the last one: not in a row. */
	for (i = 0; i < 20; i++)
		xnb_spurious_next(&s, true, 0, 8, 250);
	assert_int_equal(xnb_spurious_next(&s, true, 7, 8, 250), 0);
	assert_int_equal(s.run, 1);
	assert_int_equal(s.progress, 7);
	/* Work leaves the progress alone: only spurious events compare. */
	xnb_spurious_next(&s, false, 9, 8, 250);
	assert_int_equal(s.progress, 7);
	/* A storm: capped, and still capped past the counter's range. */
	for (i = 0; i < 1000; i++)
		xnb_spurious_next(&s, true, 7, 8, 250);
	assert_int_equal(s.run, 255);
	assert_int_equal(xnb_spurious_next(&s, true, 7, 8, 250), 250);
	assert_int_equal(s.run, 255);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tx_event_judge),
		cmocka_unit_test(test_rx_event_judge),
		cmocka_unit_test(test_event_merge),
		cmocka_unit_test(test_spurious_hold),
		cmocka_unit_test(test_spurious_next),
	};

	return cmocka_run_group_tests_name("events", tests, NULL, NULL);
}
