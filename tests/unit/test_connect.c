// SPDX-License-Identifier: GPL-2.0
/*
 * The connect back-off (catalogue 36): a frontend whose connects keep
 * failing gets XNB_CONNECT_FREE + 1 attempts at once, then one per
 * hold, 1 s doubling to 8 s; an honest connect once the hold is over
 * goes.  The reconnect back-off (catalogue 45): a frontend whose
 * connects succeed but come in a loop gets XNB_RECONNECT_FREE quick
 * reconnects at once, then one per hold, 1 s doubling to 8 s, until a
 * connection lives a window; an honest reconnect or two never waits.
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

#define W	XNB_RECONNECT_WINDOW_MS

static void test_reconnect_wait(void **state)
{
	static const struct {
		bool seen;
		u32 run;
		u64 last, now;
		u32 wait;
	} c[] = {
		{ false, 0, 0, 0, 0 },		/* the first connect */
		{ false, 7, 0, 0, 0 },
		{ true, 0, 5000, 5000, 0 },	/* the free ones */
		{ true, XNB_RECONNECT_FREE - 1, 5000, 5000, 0 },
		{ true, XNB_RECONNECT_FREE, 5000, 5000, 1000 },	/* held */
		{ true, XNB_RECONNECT_FREE, 5000, 5400, 600 },
		{ true, XNB_RECONNECT_FREE, 5000, 5999, 1 },
		{ true, XNB_RECONNECT_FREE, 5000, 6000, 0 },	/* over */
		{ true, XNB_RECONNECT_FREE + 1, 5000, 5000, 2000 },
		{ true, XNB_RECONNECT_FREE + 2, 5000, 5000, 4000 },
		{ true, XNB_RECONNECT_FREE + 3, 5000, 5000, 8000 },
		{ true, XNB_RECONNECT_FREE + 4, 5000, 5000, 8000 },	/* capped */
		{ true, 200, 5000, 12999, 1 },
		{ true, 200, 5000, 13000, 0 },
		{ true, 200, 5000, 5000 + W - 1, 0 },
		{ true, 200, 5000, 5000 + W, 0 },	/* a new run */
		{ true, ~0U, 0, 0, XNB_RECONNECT_HOLD_MAX_MS },	/* no overflow */
		{ true, ~0U, ~0ULL - 10, ~0ULL, XNB_RECONNECT_HOLD_MAX_MS - 10 },
		{ true, 100, 9000, 8000, XNB_RECONNECT_HOLD_MAX_MS },	/* clock back */
	};
	struct xnb_reconnect r;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		r = (struct xnb_reconnect){ .seen = c[i].seen, .run = c[i].run,
					    .last = c[i].last };
		assert_int_equal(xnb_reconnect_wait(&r, c[i].now), c[i].wait);
	}
}

/* A quick reconnect lengthens the run, reported or not; any other
 * starts a new one, not reported yet.
 */
static void test_reconnect_done(void **state)
{
	static const struct {
		bool seen;
		u32 run;
		bool logged;
		u64 last, now;
		u32 run_after;
		bool logged_after;
	} c[] = {
		{ false, 0, false, 0, 0, 0, false },	/* the first connect */
		{ false, 0, false, 0, 100, 0, false },
		{ true, 0, false, 5000, 5000, 1, false },	/* quick */
		{ true, 3, false, 5000, 5000 + W - 1, 4, false },
		{ true, 3, true, 5000, 5000 + W - 1, 4, true },	/* reported */
		{ true, 3, false, 5000, 5000 + W, 0, false },	/* a window */
		{ true, 3, true, 5000, 5000 + W, 0, false },	/* a new run */
		{ true, 3, true, 5000, 4000, 4, true },	/* clock back: quick */
		{ true, ~0U, true, 5000, 5001, ~0U, true },	/* saturates */
	};
	struct xnb_reconnect r;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		r = (struct xnb_reconnect){ .seen = c[i].seen, .run = c[i].run,
					    .logged = c[i].logged,
					    .last = c[i].last };
		xnb_reconnect_done(&r, c[i].now);
		assert_int_equal(r.run, c[i].run_after);
		assert_int_equal(r.logged, c[i].logged_after);
		assert_true(r.seen);
		assert_true(r.last == c[i].now);
	}
}

/* The first hold of a run is reported, no later one, nor a connect that
 * goes at once.
 */
static void test_reconnect_log(void **state)
{
	static const struct {
		bool logged;
		u32 wait;
		bool log, logged_after;
	} c[] = {
		{ false, 0, false, false },	/* goes now: nothing to say */
		{ false, 1, true, true },	/* the first hold */
		{ false, XNB_RECONNECT_HOLD_MAX_MS, true, true },
		{ true, 1, false, true },	/* reported already */
		{ true, XNB_RECONNECT_HOLD_MAX_MS, false, true },
		{ true, 0, false, true },
	};
	struct xnb_reconnect r;
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		r = (struct xnb_reconnect){ .seen = true, .run = 5,
					    .logged = c[i].logged };
		assert_int_equal(xnb_reconnect_log(&r, c[i].wait), c[i].log);
		assert_int_equal(r.logged, c[i].logged_after);
		assert_int_equal(r.run, 5);
	}
}

/* Loops of every spacing: each run reported once, at its first hold,
 * which is quick reconnect @nth in a row (the backend's line says run +
 * 1); a loop never held (8 s apart or more) never.  A new run, after a
 * window away, is reported again.
 */
static void test_reconnect_log_loop(void **state)
{
	static const struct {
		u32 period;
		u32 nth;	/* 0: never held */
	} c[] = {
		{ 50, XNB_RECONNECT_FREE + 1 },		/* the 1 s hold */
		{ 999, XNB_RECONNECT_FREE + 1 },
		{ 1000, XNB_RECONNECT_FREE + 2 },	/* the 2 s hold */
		{ 1500, XNB_RECONNECT_FREE + 2 },
		{ 2000, XNB_RECONNECT_FREE + 3 },	/* the 4 s hold */
		{ 3999, XNB_RECONNECT_FREE + 3 },
		{ 4000, XNB_RECONNECT_FREE + 4 },	/* the 8 s hold */
		{ 7999, XNB_RECONNECT_FREE + 4 },
		{ 8000, 0 },
		{ W - 1, 0 },
	};
	struct xnb_reconnect r;
	unsigned int i, k, logs, run, nth;
	u32 wait;
	u64 t;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		r = (struct xnb_reconnect){ 0 };
		t = 1000;
		logs = 0;
		for (run = 0; run < 2; run++) {
			nth = 0;
			for (k = 0; k < 40; k++) {
				wait = xnb_reconnect_wait(&r, t);
				if (xnb_reconnect_log(&r, wait)) {
					logs++;
					if (!nth)
						nth = r.run + 1;
				}
				t += wait;
				xnb_reconnect_done(&r, t);
				t += c[i].period;
			}
			if (nth != c[i].nth)
				fail_msg("period %u, run %u: reported at %u, want %u",
					 c[i].period, run, nth, c[i].nth);
			t = r.last + W;		/* away a window */
		}
		assert_int_equal(logs, c[i].nth ? 2 : 0);
	}
}

/* Case 45 as the backend sees it: a frontend that is ready to connect
 * again @period ms after each connect, @n times at most until @end; a
 * connect the back-off holds goes when the hold ends (the backend's
 * delayed connect).  Returns the connects made; *@held the longest
 * hold; *@t the time the frontend is ready again, or @end.
 */
static u32 play_reconnect_loop(struct xnb_reconnect *r, u64 *t, u32 period,
			       u64 end, u32 n, u32 *held)
{
	u32 made = 0, wait;

	*held = 0;
	while (made < n) {
		wait = xnb_reconnect_wait(r, *t);
		if (*t + wait >= end) {
			*t = end;
			break;
		}
		*t += wait;
		if (wait > *held)
			*held = wait;
		xnb_reconnect_done(r, *t);
		made++;
		*t += period;
	}
	return made;
}

/* A loop held at the cap from the start of a run, over ten minutes. */
#define TEN_MIN		600000u
#define HELD_10MIN	(1 + XNB_RECONNECT_FREE + 3 + \
			 (TEN_MIN - 7100) / XNB_RECONNECT_HOLD_MAX_MS)

static void test_reconnect_loop(void **state)
{
	struct xnb_reconnect r = { 0 };
	u32 made, held;
	u64 t = 0;

	(void)state;
	/* 200 cycles of 50 ms asked for within 60 s: the connect that
	 * starts the run and the free ones, then holds of 1, 2 and 4 s,
	 * then one per 8 s (at 15.1, 23.1, ... 55.1 s).
	 */
	made = play_reconnect_loop(&r, &t, 50, 60000, 200, &held);
	assert_int_equal(made, 1 + XNB_RECONNECT_FREE + 3 + 6);
	assert_int_equal(held, XNB_RECONNECT_HOLD_MAX_MS - 50);
	/* Ten minutes more: one connect per 8 s. */
	made = play_reconnect_loop(&r, &t, 50, t + TEN_MIN, ~0U, &held);
	assert_int_equal(made, TEN_MIN / XNB_RECONNECT_HOLD_MAX_MS);
	/* From the start of a run, ten minutes. */
	r = (struct xnb_reconnect){ 0 };
	t = 0;
	made = play_reconnect_loop(&r, &t, 50, TEN_MIN, ~0U, &held);
	assert_int_equal(made, HELD_10MIN);
}

/* A loop that makes @k connects as fast as the back-off lets it, then
 * stays away a window from the last to start a new run, free connects
 * and all: never more connects in ten minutes than a loop held at the
 * cap from the start.
 */
static void test_reconnect_away(void **state)
{
	u32 k, made, total, held;
	u64 t;

	(void)state;
	for (k = 1; k <= 80; k++) {
		struct xnb_reconnect r = { 0 };

		total = 0;
		t = 0;
		do {
			made = play_reconnect_loop(&r, &t, 50, TEN_MIN, k,
						   &held);
			total += made;
			t = r.last + W;
		} while (made == k && t < TEN_MIN);
		assert_true(total <= HELD_10MIN);
	}
}

/* Honest guests: a reconnect or two in a row (a resume, a netfront
 * reload) never waits, nor does one after a connection that lived a
 * window, even after a loop.
 */
static void test_reconnect_honest(void **state)
{
	struct xnb_reconnect r = { 0 };
	u32 held;
	u64 t = 1000;
	unsigned int i;

	(void)state;
	assert_int_equal(xnb_reconnect_wait(&r, t), 0);	/* boot */
	xnb_reconnect_done(&r, t);
	for (i = 0; i < XNB_RECONNECT_FREE; i++) {	/* right away */
		t += 10;
		assert_int_equal(xnb_reconnect_wait(&r, t), 0);
		xnb_reconnect_done(&r, t);
	}
	t += W;					/* lived a window */
	for (i = 0; i <= XNB_RECONNECT_FREE; i++) {
		assert_int_equal(xnb_reconnect_wait(&r, t), 0);
		xnb_reconnect_done(&r, t);
		t += 10;
	}
	/* After a loop held at the cap: at most the cap, then free. */
	play_reconnect_loop(&r, &t, 10, t + 120000, ~0U, &held);
	assert_true(xnb_reconnect_wait(&r, t) <= XNB_RECONNECT_HOLD_MAX_MS);
	t = r.last + W;
	assert_int_equal(xnb_reconnect_wait(&r, t), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_connect_wait),
		cmocka_unit_test(test_connect_bad_loop),
		cmocka_unit_test(test_connect_recovers),
		cmocka_unit_test(test_reconnect_wait),
		cmocka_unit_test(test_reconnect_done),
		cmocka_unit_test(test_reconnect_log),
		cmocka_unit_test(test_reconnect_log_loop),
		cmocka_unit_test(test_reconnect_loop),
		cmocka_unit_test(test_reconnect_away),
		cmocka_unit_test(test_reconnect_honest),
	};

	return cmocka_run_group_tests_name("connect", tests, NULL, NULL);
}
