/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fuzz targets' invariant check: a failed one aborts, so libFuzzer
 * (or the corpus replay) stops on the input that broke it.
 */
#ifndef XNB_FUZZ_CHECK_H
#define XNB_FUZZ_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#define CHECK(cond) do {						\
	if (!(cond)) {							\
		fprintf(stderr, "invariant failed: %s (%s:%d)\n",	\
			#cond, __FILE__, __LINE__);			\
		abort();						\
	}								\
} while (0)

#endif
