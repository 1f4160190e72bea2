// SPDX-License-Identifier: GPL-2.0
/*
 * The connect back-off (catalogue 36): a frontend whose connects keep
 * failing gets XNB_CONNECT_FREE + 1 attempts at once, then one per
 * hold, 1 s doubling to 8 s; an honest connect once the hold is over
 * goes.
 */
#include "unit.h"

static void test_connect_wait(void **state)
{
	static const struct {
		u32 fails;
		u64 last, now;
		u32 wait;
	} c[] = {
		{ 0, 0, 0, 0 },			/* no failure yet */
		{ 1, 5000, 5000, 0 },		/* the free ones go at once */
		{ XNB_CONNECT_FREE, 5000, 5000, 0 },
		{ XNB_CONNECT_FREE + 1, 5000, 5000, 1000 },	/* held */
		{ XNB_CONNECT_FREE + 1, 5000, 5400, 600 },
		{ XNB_CONNECT_FREE + 1, 5000, 5999, 1 },
		{ XNB_CONNECT_FREE + 1, 5000, 6000, 0 },	/* over */
		{ XNB_CONNECT_FREE + 2, 5000, 5000, 2000 },
		{ XNB_CONNECT_FREE + 3, 5000, 5000, 4000 },
		{ XNB_CONNECT_FREE + 4, 5000, 5000, 8000 },
		{ XNB_CONNECT_FREE + 5, 5000, 5000, 8000 },	/* capped */
		{ 200, 5000, 12999, 1 },
		{ 200, 5000, 13000, 0 },
		{ ~0U, 0, 0, XNB_CONNECT_HOLD_MAX_MS },	/* no overflow */
		{ ~0U, ~0ULL - 10, ~0ULL, XNB_CONNECT_HOLD_MAX_MS - 10 },
		{ 100, 9000, 8000, XNB_CONNECT_HOLD_MAX_MS },	/* clock back */
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++)
		assert_int_equal(xnb_connect_wait(c[i].fails, c[i].last,
						  c[i].now), c[i].wait);
}

/* Case 36 as the backend sees it: a frontend that asks to connect every
 * @period ms with keys that never work, for @ms; each attempt the
 * back-off lets through fails.  Returns the attempts tried.
 */
static u32 play_bad_loop(u32 period, u32 ms, u32 *fails, u64 *last)
{
	u32 tried = 0;
	u64 t;

	for (t = 0; t < ms; t += period) {
		if (xnb_connect_wait(*fails, *last, t))
			continue;	/* refused, not tried, not counted */
		tried++;
		(*fails)++;
		*last = t;
	}
	return tried;
}

static void test_connect_bad_loop(void **state)
{
	u32 fails = 0, tried;
	u64 last = 0;

	(void)state;
	/* 200 attempts 50 ms apart: 10 s.  The free ones (after 0 to
	 * XNB_CONNECT_FREE failures), then 3 more as the holds of 1, 2
	 * and 4 s end within it.
	 */
	tried = play_bad_loop(50, 10000, &fails, &last);
	assert_int_equal(tried, XNB_CONNECT_FREE + 1 + 3);
	assert_int_equal(fails, tried);
	/* Ten minutes more: one attempt per 8 s at most. */
	tried = play_bad_loop(50, 600000, &fails, &last);
	assert_true(tried <= 600000 / XNB_CONNECT_HOLD_MAX_MS + 1);
}

/* A proper reconnect after the loop: it waits out the hold, no more,
 * and a success starts over.
 */
static void test_connect_recovers(void **state)
{
	u32 fails = 0;
	u64 last = 0;

	(void)state;
	play_bad_loop(10, 60000, &fails, &last);
	assert_true(fails > XNB_CONNECT_FREE);
	assert_int_equal(xnb_connect_wait(fails, last,
					  last + XNB_CONNECT_HOLD_MAX_MS), 0);
	assert_true(xnb_connect_wait(fails, last, last + 1) > 0);
	fails = 0;	/* connected */
	assert_int_equal(xnb_connect_wait(fails, last, last + 1), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connect_wait),
		cmocka_unit_test(test_connect_bad_loop),
		cmocka_unit_test(test_connect_recovers),
	};

	return cmocka_run_group_tests_name("connect", tests, NULL, NULL);
}
