// SPDX-License-Identifier: GPL-2.0
/*
 * Worker groups: the group a new queue joins (the fewest queues), and
 * live rebalancing (xnb_balance_pick): at most one queue a interval moves
 * from the busiest group to the idlest, after an imbalance that lasted
 * XNB_BAL_STREAK intervals, and never one that would invite the way back.
 * And the groups' CPUs across CPU hotplug (xnb_cpu_place): home when it
 * is online, else where they run, else the CPU with the fewest groups.
 */
#include "unit.h"

/* The groups' counts as the driver passes them: a member of each group. */
struct pick_group {
	void *other;
	u32 nr_queues;
};

static void test_pick_group(void **state)
{
	static const struct pick_group groups[] = {
		{ NULL, 4 }, { NULL, 2 }, { NULL, 3 }, { NULL, 2 },
	};
	static const u32 ties[] = { 3, 1, 1, 2, 1 };
	static const u32 last[] = { 5, 5, 5, 0 };
	static const u32 equal[] = { 7, 7, 7 };
	static const u32 big[] = { 0xffffffffu, 0xfffffffeu, 0xfffffffeu };
	static const u32 one[] = { 42 };
	static const struct {
		const u32 *load;
		unsigned int nr, want;
	} c[] = {
		{ ties, 5, 1 },		/* lowest index on ties */
		{ last, 4, 3 },
		{ last, 3, 0 },
		{ equal, 3, 0 },
		{ big, 3, 1 },
		{ one, 1, 0 },
		{ NULL, 0, 0 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++)
		assert_int_equal(xnb_pick_group(c[i].load, sizeof(u32), c[i].nr),
				 c[i].want);
	assert_int_equal(xnb_pick_group(&groups[0].nr_queues, sizeof(groups[0]),
					ARRAY_SIZE(groups)), 1);
	assert_int_equal(xnb_pick_group(&groups[0].nr_queues, sizeof(groups[0]),
					1), 0);
}

#define BQ(load, group, fixed) { load, group, fixed }

struct bal_case {
	const char *name;
	u32 nr_groups;
	u32 busy[4];
	u32 nr_queues;
	struct xnb_bal_queue q[6];
	bool move;		/* at the second interval alike */
	u32 queue, from, to;
};

static const struct bal_case bal_cases[] = {
	{ "balanced", 2, { 500, 480 }, 2,
	  { BQ(100, 0, false), BQ(100, 1, false) }, false, 0, 0, 0 },
	{ "busy but not saturated", 2, { 390, 0 }, 2,
	  { BQ(100, 0, false), BQ(100, 0, false) }, false, 0, 0, 0 },
	{ "both saturated", 2, { 1000, 760 }, 2,
	  { BQ(100, 0, false), BQ(100, 1, false) }, false, 0, 0, 0 },
	{ "saturated and idle: first of equals", 2, { 1000, 0 }, 4,
	  { BQ(100, 0, false), BQ(100, 0, false), BQ(100, 0, false),
	    BQ(100, 0, false) }, true, 0, 0, 1 },
	{ "over-full busy is clamped", 2, { 5000, 0 }, 2,
	  { BQ(7, 0, false), BQ(7, 0, false) }, true, 0, 0, 1 },
	{ "at the thresholds", 2, { 400, 150 }, 3,
	  { BQ(10, 0, false), BQ(10, 0, false), BQ(10, 0, false) },
	  true, 0, 0, 1 },
	{ "two equal queues: a move only swaps", 2, { 400, 150 }, 2,
	  { BQ(10, 0, false), BQ(10, 0, false) }, false, 0, 0, 0 },
	{ "lone heavy queue stays", 2, { 1000, 0 }, 1,
	  { BQ(500, 0, false) }, false, 0, 0, 0 },
	{ "heavy stays, light goes", 2, { 1000, 100 }, 2,
	  { BQ(800, 0, false), BQ(200, 0, false) }, true, 1, 0, 1 },
	{ "best narrowing, no overshoot", 2, { 1000, 200 }, 3,
	  { BQ(100, 0, false), BQ(300, 0, false), BQ(600, 0, false) },
	  true, 1, 0, 1 },
	{ "small overshoot taken", 2, { 1000, 0 }, 2,
	  { BQ(600, 0, false), BQ(400, 0, false) }, true, 1, 0, 1 },
	{ "pinned excluded", 2, { 1000, 0 }, 3,
	  { BQ(300, 0, true), BQ(300, 0, false), BQ(300, 0, true) },
	  true, 1, 0, 1 },
	{ "all fixed", 2, { 1000, 0 }, 2,
	  { BQ(300, 0, true), BQ(300, 0, true) }, false, 0, 0, 0 },
	{ "unmeasured queue stays", 2, { 1000, 0 }, 2,
	  { BQ(0, 0, false), BQ(0, 0, false) }, false, 0, 0, 0 },
	{ "other groups' queues ignored", 3, { 300, 1000, 0 }, 4,
	  { BQ(900, 0, false), BQ(50, 1, false), BQ(50, 1, false),
	    BQ(50, 2, false) }, true, 1, 1, 2 },
	{ "one group", 1, { 1000 }, 2,
	  { BQ(100, 0, false), BQ(100, 0, false) }, false, 0, 0, 0 },
	{ "huge loads scaled", 2, { 1000, 0 }, 3,
	  { BQ(1ULL << 62, 0, false), BQ(1ULL << 62, 0, false),
	    BQ(1ULL << 62, 0, false) }, true, 0, 0, 1 },
	{ "loads past 2^64 saturate", 2, { 1000, 0 }, 3,
	  { BQ(~0ULL, 0, false), BQ(~0ULL, 0, false), BQ(1, 0, false) },
	  false, 0, 0, 0 },
};

static void test_balance_cases(void **state)
{
	unsigned int c;

	(void)state;
	for (c = 0; c < ARRAY_SIZE(bal_cases); c++) {
		const struct bal_case *t = &bal_cases[c];
		struct xnb_bal_state st = { 0 };
		struct xnb_bal_move mv = { 99, 99, 99 };

		print_message("%s\n", t->name);
		/* Hysteresis: never on the first interval. */
		assert_false(xnb_balance_pick(t->busy, t->nr_groups, t->q,
					      t->nr_queues, &st, &mv));
		assert_int_equal(xnb_balance_pick(t->busy, t->nr_groups, t->q,
						  t->nr_queues, &st, &mv),
				 t->move);
		if (!t->move)
			continue;
		assert_int_equal(mv.queue, t->queue);
		assert_int_equal(mv.from, t->from);
		assert_int_equal(mv.to, t->to);
		/* A move starts the count again. */
		assert_int_equal(st.streak, 0);
		assert_false(xnb_balance_pick(t->busy, t->nr_groups, t->q,
					      t->nr_queues, &st, &mv));
	}
}

/* Three groups, two queues each in groups 0 and 1. */
static const u32 hot0[] = { 1000, 0, 500 }, hot1[] = { 0, 1000, 500 };
static const u32 calm[] = { 400, 400, 400 };
static const struct xnb_bal_queue q4[] = {
	BQ(10, 0, false), BQ(10, 0, false), BQ(10, 1, false),
	BQ(10, 1, false),
};

/* Imbalance, a calm interval, imbalance: never two in a row. */
static void test_balance_calm_breaks_streak(void **state)
{
	struct xnb_bal_state st = { 0 };
	struct xnb_bal_move mv;

	(void)state;
	assert_false(xnb_balance_pick(hot0, 3, q4, 4, &st, &mv));
	assert_false(xnb_balance_pick(calm, 3, q4, 4, &st, &mv));
	assert_false(xnb_balance_pick(hot0, 3, q4, 4, &st, &mv));
}

/* The imbalance turns round: it starts over. */
static void test_balance_turn_round(void **state)
{
	struct xnb_bal_state st = { 0 };
	struct xnb_bal_move mv;

	(void)state;
	assert_false(xnb_balance_pick(hot0, 3, q4, 4, &st, &mv));
	assert_false(xnb_balance_pick(hot1, 3, q4, 4, &st, &mv));
	assert_true(xnb_balance_pick(hot1, 3, q4, 4, &st, &mv));
	assert_int_equal(mv.queue, 2);
	assert_int_equal(mv.from, 1);
	assert_int_equal(mv.to, 0);
}

/* Idle groups trading places by noise keep the streak: the move goes
 * to the idlest of the second interval.
 */
static void test_balance_idle_noise(void **state)
{
	static const u32 j1[] = { 700, 5, 12, 9 }, j2[] = { 700, 11, 4, 9 };
	static const struct xnb_bal_queue eq[] = {
		BQ(10, 0, false), BQ(10, 0, false), BQ(10, 0, false),
		BQ(10, 0, false),
	};
	struct xnb_bal_state st = { 0 };
	struct xnb_bal_move mv;

	(void)state;
	assert_false(xnb_balance_pick(j1, 4, eq, 4, &st, &mv));
	assert_true(xnb_balance_pick(j2, 4, eq, 4, &st, &mv));
	assert_int_equal(mv.from, 0);
	assert_int_equal(mv.to, 2);
}

/* No candidate keeps the streak: a queue measured later goes at once. */
static void test_balance_no_candidate_keeps_streak(void **state)
{
	struct xnb_bal_queue f[] = { BQ(10, 0, true), BQ(10, 0, false) };
	struct xnb_bal_state st = { 0 };
	struct xnb_bal_move mv;

	(void)state;
	assert_false(xnb_balance_pick(hot0, 3, f, 2, &st, &mv));
	f[1].load = 0;
	assert_false(xnb_balance_pick(hot0, 3, f, 2, &st, &mv));
	f[1].load = 10;
	assert_true(xnb_balance_pick(hot0, 3, f, 2, &st, &mv));
	assert_int_equal(mv.queue, 1);
}

static void test_balance_no_groups(void **state)
{
	struct xnb_bal_state st = { 0 };
	struct xnb_bal_move mv;

	(void)state;
	assert_false(xnb_balance_pick(NULL, 0, NULL, 0, &st, &mv));
}

/* CPU hotplug: the groups' CPUs as xnb_cpu_place() leaves them. */
#define OFF XNB_CPU_OFF

struct cpu_case {
	const char *name;
	u32 nr_cpus, nr_groups;
	u32 load[4];		/* 0 or OFF, as the caller builds it */
	u32 home[8], cur[8];
	u32 want[8];		/* each group's cur after */
	u32 moved;
	u32 after[4];		/* load after, OFF kept */
};

static const struct cpu_case cpu_cases[] = {
	{ "all at home: nothing moves", 2, 2, { 0, 0 },
	  { 0, 1 }, { 0, 1 }, { 0, 1 }, 0, { 1, 1 } },
	{ "cpu 1 goes: its group to cpu 0", 2, 2, { 0, OFF },
	  { 0, 1 }, { 0, 1 }, { 0, 0 }, 1, { 2, OFF } },
	{ "cpu 1 back: its group home, the other stays", 2, 2, { 0, 0 },
	  { 0, 1 }, { 0, 0 }, { 0, 1 }, 1, { 1, 1 } },
	{ "lowest of equals", 4, 4, { 0, 0, OFF, 0 },
	  { 0, 1, 2, 3 }, { 0, 1, 2, 3 }, { 0, 1, 0, 3 }, 1, { 2, 1, OFF, 1 } },
	{ "two displaced spread", 4, 4, { OFF, 0, OFF, 0 },
	  { 0, 1, 2, 3 }, { 0, 1, 0, 3 }, { 1, 1, 3, 3 }, 2,
	  { OFF, 2, OFF, 2 } },
	{ "homes first, then the displaced", 3, 3, { 0, 0, OFF },
	  { 0, 1, 2 }, { 2, 0, 2 }, { 0, 1, 0 }, 3, { 2, 1, OFF } },
	{ "not its home back: a fallback stays", 3, 3, { 0, 0, OFF },
	  { 0, 1, 2 }, { 0, 0, 0 }, { 0, 1, 0 }, 1, { 2, 1, OFF } },
	{ "8 groups, a cpu of 4 goes", 4, 8, { 0, 0, 0, OFF },
	  { 0, 1, 2, 3, 0, 1, 2, 3 }, { 0, 1, 2, 3, 0, 1, 2, 3 },
	  { 0, 1, 2, 0, 0, 1, 2, 1 }, 2, { 3, 3, 2, OFF } },
	{ "no cpu takes groups: all stay", 2, 2, { OFF, OFF },
	  { 0, 1 }, { 0, 1 }, { 0, 1 }, 0, { OFF, OFF } },
	{ "cpus past the end take none", 2, 2, { 0, 0 },
	  { 5, 1 }, { 7, 1 }, { 0, 1 }, 1, { 1, 1 } },
	{ "no groups", 2, 0, { 0, OFF }, { 0 }, { 0 }, { 0 }, 0, { 0, OFF } },
};

/* xnb_busy_share: permille of the window busy, clamped, any length. */
static void test_busy_share(void **state)
{
	static const u64 sec = 1000000000ull;
	static const u64 year = 365ull * 24 * 3600 * sec;
	static const u64 edge = ~0ULL / XNB_BAL_SCALE;	/* still multiplied */
	static const struct {
		const char *name;
		u64 then, now, dt;
		u32 want;
	} c[] = {
		{ "idle", 0, 0, sec, 0 },
		{ "half", 100, sec / 2 + 100, sec, 500 },
		{ "all of it", 7, sec + 7, sec, 1000 },
		{ "a pass straddling the start: clamped", 0, sec + sec / 5, sec, 1000 },
		{ "rounded down", 0, 1999999, sec, 1 },
		{ "under one permille", 0, 999999, sec, 0 },
		{ "empty window", 5, 10, 0, 0 },
		{ "count went back", 10, 5, sec, 0 },
		{ "a year, a quarter busy", 0, year / 4, year, 250 },
		{ "at the multiply's edge", 0, edge - 1, edge, 999 },
		{ "just past it", 0, (edge + 1) / 2, edge + 1, 500 },
		{ "the longest window, half busy", 0, ~0ULL / 2, ~0ULL, 500 },
		{ "the longest window, all but 1 ns", 1, ~0ULL, ~0ULL, 1000 },
		{ "busy near the top of the range", ~0ULL - sec, ~0ULL, 2 * sec, 500 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		u32 got = xnb_busy_share(c[i].then, c[i].now, c[i].dt);

		if (got != c[i].want)
			fail_msg("%s: %u, want %u", c[i].name, got, c[i].want);
	}
}

static void test_cpu_place(void **state)
{
	unsigned int i, j;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(cpu_cases); i++) {
		const struct cpu_case *t = &cpu_cases[i];
		struct xnb_cpu_slot g[8];
		u32 load[4];

		print_message("%s\n", t->name);
		memcpy(load, t->load, sizeof(load));
		for (j = 0; j < t->nr_groups; j++) {
			g[j].home = t->home[j];
			g[j].cur = t->cur[j];
		}
		assert_int_equal(xnb_cpu_place(g, t->nr_groups, load,
					       t->nr_cpus), t->moved);
		for (j = 0; j < t->nr_groups; j++) {
			assert_int_equal(g[j].cur, t->want[j]);
			assert_int_equal(g[j].home, t->home[j]);
		}
		for (j = 0; j < t->nr_cpus; j++)
			assert_int_equal(load[j], t->after[j]);
		/* Placed once, placed for good: a second call moves none. */
		for (j = 0; j < t->nr_cpus; j++)
			load[j] = t->load[j];
		assert_int_equal(xnb_cpu_place(g, t->nr_groups, load,
					       t->nr_cpus), 0);
	}
}

/* Five offline/online cycles of cpu 1 of 2: back where they began. */
static void test_cpu_place_cycles(void **state)
{
	struct xnb_cpu_slot g[4] = { { 0, 0 }, { 1, 1 }, { 0, 0 }, { 1, 1 } };
	unsigned int n;

	(void)state;
	for (n = 0; n < 5; n++) {
		u32 off[2] = { 0, OFF }, on[2] = { 0, 0 };

		assert_int_equal(xnb_cpu_place(g, 4, off, 2), 2);
		assert_int_equal(off[0], 4);
		assert_int_equal(g[1].cur, 0);
		assert_int_equal(g[3].cur, 0);
		assert_int_equal(xnb_cpu_place(g, 4, on, 2), 2);
		assert_int_equal(on[0], 2);
		assert_int_equal(on[1], 2);
		assert_int_equal(g[1].cur, 1);
		assert_int_equal(g[3].cur, 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_pick_group),
		cmocka_unit_test(test_balance_cases),
		cmocka_unit_test(test_balance_calm_breaks_streak),
		cmocka_unit_test(test_balance_turn_round),
		cmocka_unit_test(test_balance_idle_noise),
		cmocka_unit_test(test_balance_no_candidate_keeps_streak),
		cmocka_unit_test(test_balance_no_groups),
		cmocka_unit_test(test_busy_share),
		cmocka_unit_test(test_cpu_place),
		cmocka_unit_test(test_cpu_place_cycles),
	};

	return cmocka_run_group_tests_name("balance", tests, NULL, NULL);
}
