// SPDX-License-Identifier: GPL-2.0
/* trace.h's tracepoints, created once. */
#define CREATE_TRACE_POINTS
#include "trace.h"
