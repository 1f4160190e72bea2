// SPDX-License-Identifier: GPL-2.0
/*
 * Ring indices (catalogue 1, 2): requests a producer index claims, a
 * ring that could exist at connect, room for the responses owed, and
 * whether a push of responses notifies.  Indices are free-running u32s
 * and wrap.
 */
#include "unit.h"

/* xnb_ring_unconsumed(prod, cons, size): @want, -1 past a ring. */
struct unconsumed_case {
	u32 prod, cons, size;
	int want;
};

static void run_unconsumed(const struct unconsumed_case *c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		assert_int_equal(xnb_ring_unconsumed(c[i].prod, c[i].cons,
						     c[i].size), c[i].want);
}

static void test_ring_unconsumed(void **state)
{
	static const struct unconsumed_case c[] = {
		{ 0, 0, 256, 0 },
		{ 5, 3, 256, 2 },
		{ 256, 0, 256, 256 },
		{ 257, 0, 256, -1 },
		/* consumer ahead of producer: a huge unsigned gap */
		{ 3, 5, 256, -1 },
		{ 1, 0, 1, 1 },
		{ 2, 0, 1, -1 },
	};

	(void)state;
	run_unconsumed(c, ARRAY_SIZE(c));
}

static void test_ring_unconsumed_wrap(void **state)
{
	static const struct unconsumed_case c[] = {
		{ 2, 0xfffffffeu, 256, 4 },
		{ 0, 0xffffff00u, 256, 256 },
		{ 1, 0xffffff00u, 256, -1 },
		{ 0xffffffffu, 0xffffffffu, 256, 0 },
		{ 0x7fffffffu, 0, 256, -1 },
		{ 0x80000000u, 0, 256, -1 },
	};

	(void)state;
	run_unconsumed(c, ARRAY_SIZE(c));
}

static void test_ring_sane(void **state)
{
	static const struct {
		u32 req_prod, rsp_prod;
		bool ok;
	} c[] = {
		{ 0, 0, true },
		{ 256, 0, true },
		{ 257, 0, false },
		{ 100, 0xffffff9cu, true },	/* wrapped */
		{ 0x80000000u, 0, false },
		/* responses ahead of requests */
		{ 0, 1, false },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++)
		assert_int_equal(xnb_ring_sane(c[i].req_prod, c[i].rsp_prod,
					       256), c[i].ok);
}

/* Requests in flight: the responses owed must fit the ring. */
static void test_ring_room(void **state)
{
	static const struct {
		u32 cons, rsp, nr, size;
		bool ok;
	} c[] = {
		{ 0, 0, 0, 256, true },
		{ 0, 0, 256, 256, true },		/* a whole ring */
		{ 0, 0, 257, 256, false },
		{ 200, 0, 56, 256, true },		/* exactly full */
		{ 200, 0, 57, 256, false },
		{ 256, 0, 0, 256, true },
		{ 256, 0, 1, 256, false },
		{ 300, 100, 56, 256, true },
		{ 300, 100, 57, 256, false },
		/* indices across the 2^32 wrap */
		{ 10, 0xfffffff0u, 230, 256, true },	/* 26 owed */
		{ 10, 0xfffffff0u, 231, 256, false },
		/* impossible states: more owed than a ring, or negative */
		{ 257, 0, 0, 256, false },
		{ 0, 1, 0, 256, false },
		{ 0x80000000u, 0, 1, 256, false },
		{ 5, 5, 0xffffffffu, 256, false },	/* no wrap in nr */
		{ 1, 0, 1, 1, false },
		{ 0, 0, 1, 1, true },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++)
		assert_int_equal(xnb_ring_room(c[i].cons, c[i].rsp, c[i].nr,
					       c[i].size), c[i].ok);
}

/* A push notifies when it crosses rsp_event: rsp_event in
 * (pushed, rsp_prod], by the backend's own last pushed index.
 */
static void test_ring_push_notify(void **state)
{
	static const struct {
		u32 pushed, prod, event;
		bool notify;
	} c[] = {
		{ 0, 1, 1, true },		/* the guest waits for one */
		{ 0, 1, 2, false },		/* for one more than pushed */
		{ 0, 1, 0, false },		/* for one it was told of */
		{ 10, 20, 11, true },		/* the first pushed */
		{ 10, 20, 20, true },		/* the last pushed */
		{ 10, 20, 10, false },
		{ 10, 20, 21, false },
		{ 0, 256, 256, true },		/* a whole ring */
		{ 0, 256, 257, false },
		/* No new responses: never, whatever rsp_event says. */
		{ 0, 0, 0, false },
		{ 5, 5, 5, false },
		{ 5, 5, 6, false },
		{ 5, 5, 4, false },
		{ 5, 5, 0x80000005u, false },
		{ 0xffffffffu, 0xffffffffu, 0, false },
		/* Across the 2^32 wrap. */
		{ 0xfffffffeu, 2, 0xffffffffu, true },
		{ 0xfffffffeu, 2, 0, true },
		{ 0xfffffffeu, 2, 2, true },
		{ 0xfffffffeu, 2, 3, false },
		{ 0xfffffffeu, 2, 0xfffffffeu, false },
		{ 0xffffffffu, 0, 0, true },
		{ 0xffffffffu, 0, 1, false },
		/* Guest garbage in rsp_event: outside the push, no event. */
		{ 100, 110, 0x80000000u, false },
		{ 100, 110, 0xffffffffu, false },
		{ 100, 110, 99, false },
		{ 100, 110, 111, false },
		{ 100, 110, 0, false },
	};
	unsigned int i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(c); i++)
		assert_int_equal(xnb_push_notify(c[i].pushed, c[i].prod,
						 c[i].event), c[i].notify);
}

/* A run of pushes across the wrap, every other one with no new
 * response, tells the guest once: at the one that crosses rsp_event.
 */
static void test_ring_push_notify_once(void **state)
{
	u32 pushed = 0xfffffff0u, prod, event = 0xfffffff8u, sent = 0;
	unsigned int i;

	(void)state;
	for (i = 0; i < 64; i++) {
		/* one response every other push: none in between */
		prod = pushed + (i & 1);
		if (xnb_push_notify(pushed, prod, event))
			sent++;
		pushed = prod;
	}
	assert_int_equal(sent, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ring_unconsumed),
		cmocka_unit_test(test_ring_unconsumed_wrap),
		cmocka_unit_test(test_ring_sane),
		cmocka_unit_test(test_ring_room),
		cmocka_unit_test(test_ring_push_notify),
		cmocka_unit_test(test_ring_push_notify_once),
	};

	return cmocka_run_group_tests_name("ring", tests, NULL, NULL);
}
