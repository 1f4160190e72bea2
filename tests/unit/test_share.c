// SPDX-License-Identifier: GPL-2.0
/*
 * A queue's turn in its group's pass (xnb_queue_share): a vif's queues
 * split its budget, each gets at least the floor while the budget lasts,
 * and the vif never gets more than its budget in one pass, however many
 * queues it has.  The pass itself (group.c's xnb_group_pass) is modelled
 * here as far as the shares go: each active queue is popped once, given
 * its share (used grows by it), and one given none waits at the head of
 * the list for the next pass; one served goes back to the tail.
 */
#include "unit.h"

#define MAXQ	64u

static void test_share_split(void **state)
{
	static const struct {
		u32 budget, active, used, want;
	} c[] = {
		{ 64, 1, 0, 64 },	/* one busy queue: the whole budget */
		{ 64, 0, 0, 64 },	/* 0 counts as 1 */
		{ 64, 4, 0, 16 },	/* an even split */
		{ 64, 3, 0, 21 },
		{ 64, 4, 48, 16 },	/* the last of four */
		{ 64, 8, 0, 8 },	/* the floor, exactly */
		{ 64, 9, 0, 8 },	/* below it: the floor */
		{ 64, 64, 0, 8 },
		{ 64, 64, 56, 8 },	/* the eighth turn */
		{ 64, 64, 60, 4 },	/* what is left */
		{ 64, 64, 64, 0 },	/* nothing left: wait */
		{ 64, 64, 100, 0 },	/* budget lowered mid-pass */
		{ 4, 10, 0, 4 },	/* floor above the budget */
		{ 4, 10, 4, 0 },
		{ 1, 64, 0, 1 },
		{ 1, 64, 1, 0 },
		{ 1024, 64, 0, 16 },
		{ 1024, 1, 1000, 24 },
		{ 0, 1, 0, 0 },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		print_message("budget %u active %u used %u\n", c[i].budget,
			      c[i].active, c[i].used);
		assert_int_equal(xnb_queue_share(c[i].budget, c[i].active,
						 c[i].used), c[i].want);
	}
}

/* One pass over @n queues of one vif, all with work: the slots given. */
static u32 one_pass(u32 budget, u32 n, u32 *served)
{
	u32 i, used = 0, s;

	*served = 0;
	for (i = 0; i < n; i++) {
		s = xnb_queue_share(budget, n, used);
		if (!s)
			continue;
		used += s;
		(*served)++;
	}
	return used;
}

/* The issue: a 64-queue vif pinned to one group took XNB_SHARE_FLOOR
 * slots per queue per pass, 8 times one vif's budget.
 */
static void test_share_many_queues_capped(void **state)
{
	u32 served, total;

	(void)state;
	total = one_pass(64, 64, &served);
	assert_int_equal(total, 64);
	assert_int_equal(served, 64 / XNB_SHARE_FLOOR);
}

/* Every budget the parameter allows, every queue count a vif may have:
 * a pass gives the vif at most its budget, and all of it when the
 * queues can take it; the first queue always gets a turn.
 */
static void test_share_never_over_budget(void **state)
{
	u32 budget, n, served, total, floor;

	(void)state;
	for (budget = 1; budget <= 1024; budget++) {
		floor = budget < XNB_SHARE_FLOOR ? budget : XNB_SHARE_FLOOR;
		for (n = 1; n <= MAXQ; n++) {
			total = one_pass(budget, n, &served);
			if (total > budget)
				fail_msg("budget %u, %u queues: %u slots",
					 budget, n, total);
			assert_true(served >= 1);
			assert_true(xnb_queue_share(budget, n, 0) >= floor);
			/* The split leaves at most a remainder unused. */
			assert_true(total + n > budget || total == budget);
		}
	}
}

/* The pass with its list: queues given no share wait at the head, in
 * their order, the ones served go to the tail.  Over successive passes
 * of a vif whose @n queues are all busy, every queue is served at least
 * once every ceil(n / turns) passes, turns being the queues a pass can
 * serve (budget / floor), and no pass goes over the budget.
 */
static void take_turns(u32 budget, u32 n)
{
	u32 floor = budget < XNB_SHARE_FLOOR ? budget : XNB_SHARE_FLOOR;
	u32 order[MAXQ], waiting[MAXQ], back[MAXQ], last[MAXQ] = { 0 };
	u32 turns = budget / floor, period = (n + turns - 1) / turns;
	u32 pass, i, s;

	for (i = 0; i < n; i++)
		order[i] = i;
	for (pass = 1; pass <= 4 * period; pass++) {
		u32 used = 0, nw = 0, nb = 0;

		for (i = 0; i < n; i++) {
			s = xnb_queue_share(budget, n, used);
			if (!s) {
				waiting[nw++] = order[i];
				continue;
			}
			used += s;
			last[order[i]] = pass;
			back[nb++] = order[i];
		}
		assert_true(used <= budget);
		memcpy(order, waiting, nw * sizeof(*order));
		memcpy(order + nw, back, nb * sizeof(*order));
		for (i = 0; i < n; i++)
			if (pass - last[i] >= period)
				fail_msg("budget %u, %u queues: queue %u idle since pass %u (now %u)",
					 budget, n, i, last[i], pass);
	}
}

static void test_share_queues_take_turns(void **state)
{
	static const u32 budgets[] = { 1, 7, 8, 60, 64, 100, 512 };
	unsigned int b, n;

	(void)state;
	for (b = 0; b < ARRAY_SIZE(budgets); b++)
		for (n = 1; n <= MAXQ; n++)
			take_turns(budgets[b], n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_share_split),
		cmocka_unit_test(test_share_many_queues_capped),
		cmocka_unit_test(test_share_never_over_budget),
		cmocka_unit_test(test_share_queues_take_turns),
	};

	return cmocka_run_group_tests_name("share", tests, NULL, NULL);
}
