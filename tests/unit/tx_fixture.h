/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest TX ring of the xnb_tx_parse() tests (tx_fixture.c): a test
 * writes requests into R as a frontend would and parses them.
 *
 * Every parse goes through parse_n(), which watches the ring with the
 * read hook (tests/common/xnb_read_hook.h, forced into proto.c): each
 * byte is read at most once, nothing outside the ring is touched, and
 * only the slots a verdict consumes are read.  Case numbers refer to the
 * hostile-frontend catalogue (docs/hostile-catalogue.md).
 */
#ifndef XNB_UNIT_TX_FIXTURE_H
#define XNB_UNIT_TX_FIXTURE_H

#include "unit.h"
#include "../common/xnb_read_hook.h"

#define ENTRY sizeof(union xen_netif_tx_sring_entry)
#define MORE XEN_NETTXF_more_data
#define EXTRA XEN_NETTXF_extra_info

/* The ring under test: exactly sized on the heap, so ASan sees overruns. */
struct tx_ring {
	union xen_netif_tx_sring_entry *e;
	u32 size, cons, prod;
};

extern struct tx_ring R;
/* fatal_slots 20, both GSO types offered: the driver's defaults. */
extern const struct xnb_tx_limits LIM;

/* A fresh ring of @size slots, consumer and producer at @cons. */
void ring_init(u32 size, u32 cons);
/* The next case of a table: named in the output, on a fresh 256 slots. */
void ring_case(const char *name);

/* cmocka fixtures: a 256-slot ring at 0 before each test, freed after. */
int ring_setup(void **state);
int ring_teardown(void **state);
#define RING_TEST(f) cmocka_unit_test_setup_teardown(f, ring_setup, \
						     ring_teardown)

/* Requests at the producer index. */
void put(u32 gref, u16 offset, u16 flags, u16 id, u16 size);
void put_extra(u8 type, bool more, const void *u, size_t ulen);
void put_gso(u8 type, u16 size, bool more);
/*
 * A packet of @nr data slots and @total bytes: later slots hold @each
 * bytes at offset 128, the first slot whatever remains; ids count up
 * from @id.  @first_flags adds to the first slot (e.g. EXTRA).
 */
void put_pkt(u16 first_flags, u32 nr, u16 total, u16 each, u16 id);
/* Later slots of a packet whose first slot (with extras) is already in. */
void put_rest(u32 nr, u16 each, u16 id);

/* Parse at R.cons with @avail published (checked reads, see above). */
enum xnb_tx_verdict parse_n(u32 avail, const struct xnb_tx_limits *lim,
			    struct xnb_tx_pkt *p);
/* The same with every request up to R.prod published. */
enum xnb_tx_verdict parse_lim(const struct xnb_tx_limits *lim,
			      struct xnb_tx_pkt *p);
enum xnb_tx_verdict parse(struct xnb_tx_pkt *p);

/* Verdicts: slots to consume, data slots, and the data adding up. */
void expect_ok(struct xnb_tx_pkt *p, u32 nr_slots, u32 nr_data);
void expect_drop(enum xnb_tx_verdict v, struct xnb_tx_pkt *p,
		 enum xnb_tx_reason why, u32 nr_slots);
void expect_fatal(enum xnb_tx_verdict v, struct xnb_tx_pkt *p,
		  enum xnb_tx_reason why);
/* Any of the three: OK means @nr_slots slots, each a data slot. */
void expect_verdict(enum xnb_tx_verdict v, struct xnb_tx_pkt *p,
		    enum xnb_tx_verdict want, enum xnb_tx_reason why,
		    u32 nr_slots);

/*
 * A table case: put_pkt(0, nr, total, each, 0) on a fresh ring, parsed
 * with fatal_slots @fatal_slots (both GSO types offered).
 */
struct chain_case {
	const char *name;
	u16 fatal_slots;
	u32 nr;
	u16 total, each;
	enum xnb_tx_verdict want;
	enum xnb_tx_reason why;	/* XNB_R_NONE for XNB_TX_OK */
};

void run_chain_cases(const struct chain_case *c, size_t n);

/* A table case: up to 4 requests as given, parsed with LIM. */
struct slots_case {
	const char *name;
	u32 n;
	struct {
		u32 gref;
		u16 offset, flags, id, size;
	} s[4];
	enum xnb_tx_verdict want;
	enum xnb_tx_reason why;	/* XNB_R_NONE for XNB_TX_OK */
	u16 first;		/* XNB_TX_OK: the first slot's share */
};

void run_slots_cases(const struct slots_case *c, size_t n);

#endif /* XNB_UNIT_TX_FIXTURE_H */
