/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's types for the userspace builds of the driver's pure code
 * (proto.c, ctrl.c) and of its tests and fuzzers.  tests/tests.mk forces
 * it in (-include) ahead of every such file and puts include/ below on
 * the include path, where the kernel headers the interface headers and
 * the pure code name have userspace stand-ins:
 *
 *   linux/compiler.h           READ_ONCE, WRITE_ONCE
 *   linux/math64.h             div_u64, div64_u64
 *   xen/interface/io/netif.h   libxen-dev's xen/io/netif.h, with the
 *                              kernel's names for its ring types
 *
 * linux/types.h and linux/string.h are the system's own (linux-libc-dev).
 * The headers in include/xen/ are then compiled as the kernel sees them.
 */
#ifndef XNB_USER_H
#define XNB_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kernel's own fixed-size types, as its int-ll64.h spells them. */
typedef unsigned char u8;
typedef unsigned short u16;
typedef signed short s16;
typedef unsigned int u32;
typedef signed int s32;
typedef signed long long s64;
typedef unsigned long long u64;

#endif /* XNB_USER_H */
