/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's <linux/compiler.h> for the userspace builds (see
 * tests/common/xnb_user.h): what the pure code takes from it.
 */
#ifndef XNB_USER_COMPILER_H
#define XNB_USER_COMPILER_H

/* One load the compiler may neither repeat nor tear.  A test may force
 * in its own first (xnb_read_hook.h: a hook that counts reads or plays a
 * guest rewriting the ring after each one).
 */
#ifndef READ_ONCE
#define READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#endif

/* One store, for a field the driver peeks at lockless. */
#ifndef WRITE_ONCE
#define WRITE_ONCE(x, v) __atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
#endif

#endif /* XNB_USER_COMPILER_H */
