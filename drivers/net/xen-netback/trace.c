// SPDX-License-Identifier: GPL-2.0
/*
 * The driver's tracepoints (trace.h), created once here; the other files
 * include trace.h and call them.
 */
#define CREATE_TRACE_POINTS
#include "trace.h"
