// SPDX-License-Identifier: GPL-2.0
/*
 * Credit-based TX shaping (catalogue 27): the token bucket behind the
 * "bytes,usec" rate key.  A packet goes while any credit is left and may
 * leave a debt that later periods pay back; time is in microseconds.
 */
#include "unit.h"

static void test_credit_basic(void **state)
{
	struct xnb_credit c;
	u64 wait = 0;

	(void)state;
	xnb_credit_set(&c, 10000, 1000, 5000);
	assert_int_equal(c.next_refill, 6000);
	assert_true(xnb_credit_take(&c, 6000, 5000, &wait));
	assert_true(xnb_credit_take(&c, 4000, 5100, &wait));
	assert_int_equal(c.balance, 0);
	/* no credit left: wait for the period's end */
	assert_false(xnb_credit_take(&c, 1, 5100, &wait));
	assert_int_equal(wait, 900);
	assert_false(xnb_credit_take(&c, 1, 5999, &wait));
	assert_int_equal(wait, 1);
	/* the refill comes exactly on time */
	assert_true(xnb_credit_take(&c, 1, 6000, &wait));
	assert_int_equal(c.balance, 9999);
	assert_int_equal(c.next_refill, 7000);
	/* some credit left: a bigger packet goes and leaves a debt ... */
	assert_true(xnb_credit_take(&c, 10000, 6001, &wait));
	assert_int_equal(c.balance, -1);
	/* ... that the next refill pays back */
	assert_false(xnb_credit_take(&c, 1, 6500, &wait));
	assert_int_equal(wait, 500);
	assert_true(xnb_credit_take(&c, 1, 7000, &wait));
	assert_int_equal(c.balance, 9998);
	/* idle periods pile up credit to the burst allowance, no more */
	assert_true(xnb_credit_take(&c, 1, 50000, &wait));
	assert_int_equal(c.balance, XNB_CREDIT_BURST - 1);
	assert_int_equal(c.next_refill, 51000);
}

static void test_credit_unlimited(void **state)
{
	struct xnb_credit c;
	u64 wait = 77;

	(void)state;
	xnb_credit_set(&c, 0, 1000, 0);
	assert_true(xnb_credit_take(&c, 0xffffffffu, 0, &wait));
	assert_true(xnb_credit_take(&c, 0xffffffffu, 0, &wait));
	assert_int_equal(wait, 77);
}

/* A giant goes on any credit, and costs its size in time. */
static void test_credit_larger_than_period(void **state)
{
	struct xnb_credit c;
	u64 wait = 0;

	(void)state;
	xnb_credit_set(&c, 1000, 100, 0);
	assert_true(xnb_credit_take(&c, 65535, 0, &wait));
	assert_int_equal(c.balance, 1000 - 65535);
	assert_false(xnb_credit_take(&c, 1, 10, &wait));
	/* debt 64535: 65 refills (the first at 100) make it positive */
	assert_int_equal(wait, 90 + 64 * 100);
	assert_false(xnb_credit_take(&c, 1, 6499, &wait));
	assert_int_equal(wait, 1);
	assert_true(xnb_credit_take(&c, 1, 6500, &wait));
	assert_int_equal(c.balance, 464);
}

/* Long run: 100 giants cost 100 * 65535 bytes of credit in time. */
static void test_credit_giants_long_run(void **state)
{
	struct xnb_credit c;
	u64 wait = 0, t = 0;

	(void)state;
	xnb_credit_set(&c, 1000, 100, 0);
	for (int i = 0; i < 100; i++) {
		while (!xnb_credit_take(&c, 65535, t, &wait))
			t += wait;
	}
	/* the 100th goes once 99 * 65535 - 1000 bytes have been refilled */
	assert_in_range(t, 648700, 648700);
}

/* 1 byte per 71 minutes and a 4 GB debt: a wait of about 2^63.9 us
 * would read as the past to the wrap-safe clock; it saturates instead.
 */
static void test_credit_absurd_wait(void **state)
{
	struct xnb_credit c;
	u64 wait = 0;

	(void)state;
	xnb_credit_set(&c, 1, 0xffffffffULL, 0);
	assert_true(xnb_credit_take(&c, 0xffffffffu, 0, &wait));
	assert_false(xnb_credit_take(&c, 1, 1, &wait));
	assert_int_equal(wait, ~0ULL);
}

/* A debt the cap allows: an exact wait, after which it goes. */
static void test_credit_large_debt_wait(void **state)
{
	struct xnb_credit c;
	u64 wait = 0;

	(void)state;
	xnb_credit_set(&c, 1000, 1000, 0);
	assert_true(xnb_credit_take(&c, 0xffffffffu, 0, &wait));
	assert_false(xnb_credit_take(&c, 1, 0, &wait));
	assert_true(wait <= XNB_CREDIT_WAIT_MAX);
	assert_true(xnb_credit_take(&c, 1, wait, &wait));
}

/* The refill time wraps past 2^64 before the clock does. */
static void test_credit_clock_wrap(void **state)
{
	const u64 top = 0xffffffffffffffffULL;
	struct xnb_credit c;
	u64 wait = 0;

	(void)state;
	xnb_credit_set(&c, 1000, 100, top - 9);		/* refill at 90 */
	assert_int_equal(c.next_refill, 90);
	assert_true(xnb_credit_take(&c, 1000, top - 9, &wait));
	/* the clock has not reached the wrapped refill time yet */
	assert_false(xnb_credit_take(&c, 1, top - 4, &wait));
	assert_int_equal(wait, 95);
	assert_false(xnb_credit_take(&c, 1, top, &wait));
	assert_int_equal(wait, 91);
	assert_false(xnb_credit_take(&c, 1, 89, &wait));
	assert_int_equal(wait, 1);
	/* the clock wrapped past it */
	assert_true(xnb_credit_take(&c, 1, 90, &wait));
	assert_int_equal(c.balance, 999);
	assert_int_equal(c.next_refill, 190);
}

/* Huge periods, time far apart: clamped to XNB_CREDIT_MAX, a limit
 * nobody reaches.
 */
static void test_credit_huge_period(void **state)
{
	const u64 top = 0xffffffffffffffffULL;
	struct xnb_credit c;
	u64 wait = 0;

	(void)state;
	xnb_credit_set(&c, 0xffffffffffffffffULL, 0xffffffffULL, top);
	assert_true(xnb_credit_take(&c, 0xffffffffu, top, &wait));
	assert_int_equal(c.bytes, XNB_CREDIT_MAX);
	assert_int_equal(c.balance, XNB_CREDIT_MAX - 0xffffffffULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_credit_basic),
		cmocka_unit_test(test_credit_unlimited),
		cmocka_unit_test(test_credit_larger_than_period),
		cmocka_unit_test(test_credit_giants_long_run),
		cmocka_unit_test(test_credit_absurd_wait),
		cmocka_unit_test(test_credit_large_debt_wait),
		cmocka_unit_test(test_credit_clock_wrap),
		cmocka_unit_test(test_credit_huge_period),
	};

	return cmocka_run_group_tests_name("credit", tests, NULL, NULL);
}
