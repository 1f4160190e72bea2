/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's <linux/math64.h> for the userspace builds (see
 * tests/common/xnb_user.h): the 64-bit divisions the pure code makes
 * through it, which a 32-bit kernel has no "/" for (no libgcc).
 */
#ifndef XNB_USER_MATH64_H
#define XNB_USER_MATH64_H

static inline u64 div_u64(u64 dividend, u32 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

#endif /* XNB_USER_MATH64_H */
