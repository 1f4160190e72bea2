// SPDX-License-Identifier: GPL-2.0
/*
 * A worker group's batch (copy.c): its one block (xnb_batch_layout), and
 * the GNTST_eagain retry done in place (xnb_retry_gather/_scatter): the
 * ops to retry side by side at the front for one hypercall, then every
 * op back where its packet expects it, with the retry's status.
 */
#include "unit.h"

#define AGAIN		(-12)	/* GNTST_eagain */
#define OKAY		0
#define FAILED		(-1)
#define PAGE		4096u

/* struct gnttab_copy's size on 64-bit (40 bytes), status not last. */
struct op {
	u64 src;
	u64 dst;
	u32 src_dom;
	u32 dst_dom;
	u16 len;
	s16 status;
	u16 flags;
	u8 pad[2];
	u32 id;		/* the op's place in the batch, to follow it */
};

static void test_layout_default(void **state)
{
	struct xnb_batch_layout l;

	(void)state;
	/* copy_batch 256, 40-byte ops, 32-byte in-flight entries. */
	assert_true(xnb_batch_layout(256, 40, 32, &l));
	assert_int_equal(l.inflight, 256 * 40);
	assert_int_equal(l.retry_idx, 256 * 40 + 256 * 32);
	assert_int_equal(l.bytes, 256 * 40 + 256 * 32 + 256 * 2);
	/* Five pages, where three kmalloc'd arrays took 48 KiB. */
	assert_true(l.bytes <= 5 * PAGE);
	/* The smallest and the largest batch copy_batch allows. */
	assert_true(xnb_batch_layout(128, 40, 32, &l));
	assert_true(l.bytes <= 3 * PAGE);
	assert_true(xnb_batch_layout(4096, 40, 32, &l));
	assert_int_equal(l.bytes, 4096u * 74);
}

static void test_layout_aligned(void **state)
{
	static const u32 sizes[] = { 1, 2, 7, 8, 20, 36, 40 };
	struct xnb_batch_layout l;
	unsigned int n, a, b;

	(void)state;
	for (n = 1; n <= 300; n++)
		for (a = 0; a < ARRAY_SIZE(sizes); a++)
			for (b = 0; b < ARRAY_SIZE(sizes); b++) {
				u32 os = sizes[a], fs = sizes[b];

				assert_true(xnb_batch_layout(n, os, fs, &l));
				assert_int_equal(l.inflight % 8, 0);
				assert_int_equal(l.retry_idx % 8, 0);
				/* In order, no overlap, no more than 7
				 * bytes of padding after each part.
				 */
				assert_true(l.inflight >= n * os);
				assert_true(l.inflight < n * os + 8);
				assert_true(l.retry_idx >= l.inflight + n * fs);
				assert_true(l.retry_idx < l.inflight + n * fs + 8);
				assert_true(l.bytes >= l.retry_idx + n * 2);
				assert_true(l.bytes < l.retry_idx + n * 2 + 8);
			}
}

static void test_layout_refused(void **state)
{
	struct xnb_batch_layout l;

	(void)state;
	assert_false(xnb_batch_layout(0, 40, 32, &l));
	assert_false(xnb_batch_layout(256, 0, 32, &l));
	assert_false(xnb_batch_layout(256, 40, 0, &l));
	/* Past a u32, in each part. */
	assert_false(xnb_batch_layout(0x10000000u, 40, 32, &l));
	assert_false(xnb_batch_layout(0x2000000u, 40, 0x80, &l));
	assert_false(xnb_batch_layout(0x7fffffffu, 1, 1, &l));
	assert_true(xnb_batch_layout(0x1000000u, 40, 32, &l));
}

static void fill(struct op *ops, unsigned int n, const s16 *status)
{
	unsigned int i;

	memset(ops, 0, n * sizeof(*ops));
	for (i = 0; i < n; i++) {
		ops[i].id = i;
		ops[i].src = 1000 + i;
		ops[i].status = status[i];
	}
}

static u32 gather(struct op *ops, u32 n, u16 *idx)
{
	return xnb_retry_gather(ops, sizeof(*ops), offsetof(struct op, status),
				n, AGAIN, idx);
}

/* The retry: the first @m ops are the ones to retry, in batch order;
 * each gets a new status (okay, or eagain again for every third).
 */
static void retry(struct op *ops, u32 m, const u16 *idx)
{
	u32 j;

	for (j = 0; j < m; j++) {
		assert_int_equal(ops[j].status, AGAIN);
		assert_int_equal(ops[j].id, idx[j]);
		if (j)
			assert_true(idx[j] > idx[j - 1]);
		ops[j].status = ops[j].id % 3 ? OKAY : AGAIN;
	}
}

/* Every op back in its place, the retried with their new status, the
 * rest untouched.
 */
static void check_back(const struct op *ops, unsigned int n,
		       const s16 *before)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		assert_int_equal(ops[i].id, i);
		assert_int_equal(ops[i].src, 1000 + i);
		if (before[i] == AGAIN)
			assert_int_equal(ops[i].status, i % 3 ? OKAY : AGAIN);
		else
			assert_int_equal(ops[i].status, before[i]);
	}
}

static void test_retry_cases(void **state)
{
	static const struct {
		unsigned int n;
		s16 st[8];
		u32 want;
	} c[] = {
		{ 1, { OKAY }, 0 },
		{ 1, { AGAIN }, 1 },
		{ 3, { AGAIN, OKAY, AGAIN }, 2 },
		{ 4, { OKAY, OKAY, OKAY, AGAIN }, 1 },
		{ 4, { AGAIN, AGAIN, AGAIN, AGAIN }, 4 },
		{ 5, { FAILED, AGAIN, OKAY, FAILED, AGAIN }, 2 },
		{ 8, { OKAY, AGAIN, OKAY, AGAIN, OKAY, AGAIN, OKAY, AGAIN }, 4 },
		{ 8, { AGAIN, OKAY, OKAY, OKAY, OKAY, OKAY, OKAY, OKAY }, 1 },
	};
	struct op ops[8];
	u16 idx[8];
	unsigned int k;
	u32 m;

	(void)state;
	for (k = 0; k < ARRAY_SIZE(c); k++) {
		fill(ops, c[k].n, c[k].st);
		m = gather(ops, c[k].n, idx);
		assert_int_equal(m, c[k].want);
		retry(ops, m, idx);
		xnb_retry_scatter(ops, sizeof(*ops), m, idx);
		check_back(ops, c[k].n, c[k].st);
	}
}

/* Every pattern of eagain over 12 ops, and a pseudo-random one over a
 * batch of 4096 (copy_batch's largest).
 */
static void test_retry_all_patterns(void **state)
{
	static struct op big[4096];
	static s16 bst[4096];
	static u16 bidx[4096];
	struct op ops[12];
	s16 st[12];
	u16 idx[12];
	unsigned int mask, i, want;
	u32 m, seed = 1;

	(void)state;
	for (mask = 0; mask < 1u << 12; mask++) {
		want = 0;
		for (i = 0; i < 12; i++) {
			st[i] = mask & (1u << i) ? AGAIN : (i & 1 ? FAILED : OKAY);
			want += st[i] == AGAIN;
		}
		fill(ops, 12, st);
		m = gather(ops, 12, idx);
		assert_int_equal(m, want);
		retry(ops, m, idx);
		xnb_retry_scatter(ops, sizeof(*ops), m, idx);
		check_back(ops, 12, st);
	}
	for (i = 0; i < 4096; i++) {
		seed = seed * 1103515245u + 12345u;
		bst[i] = (seed >> 16) % 5 ? OKAY : AGAIN;
	}
	fill(big, 4096, bst);
	m = gather(big, 4096, bidx);
	retry(big, m, bidx);
	xnb_retry_scatter(big, sizeof(*big), m, bidx);
	check_back(big, 4096, bst);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_default),
		cmocka_unit_test(test_layout_aligned),
		cmocka_unit_test(test_layout_refused),
		cmocka_unit_test(test_retry_cases),
		cmocka_unit_test(test_retry_all_patterns),
	};

	return cmocka_run_group_tests_name("batch", tests, NULL, NULL);
}
