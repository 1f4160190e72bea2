/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every cmocka unit test of the pure code includes.  The files are
 * built by tests/tests.mk with tests/common/xnb_user.h forced in (the
 * kernel's types) and the driver's include/ on the path.
 */
#ifndef XNB_UNIT_H
#define XNB_UNIT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <xen/xnb_proto.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif /* XNB_UNIT_H */
