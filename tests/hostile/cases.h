/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The catalogue cases (docs/hostile-catalogue.md): one function each,
 * listed with its expected final state in the table of main.c.
 */
#ifndef HOSTILE_CASES_H
#define HOSTILE_CASES_H

#include "fe.h"

/* What dom0 must find after a case: carrier 1, the "vif disabled" log
 * line and carrier 0, or a backend that never went Connected.
 */
enum hostile_end {
	END_NONE,		/* no such case ("n/a") */
	END_UP,
	END_FATAL,
	END_REFUSED,
	END_UNKNOWN,		/* the random run could not finish */
};

/* How a case starts when it follows another in the same invocation. */
enum hostile_start {
	/* On a connection: the previous case's if it ended up, else a
	 * fresh honest one.
	 */
	START_CONNECTED,
	/* From InitWait: the case connects in its own way. */
	START_INITWAIT,
	/* As the previous case left it: the case resets by itself. */
	START_AS_LEFT,
};

struct hostile_case {
	int id;
	enum hostile_end (*run)(struct fe *f);
	enum hostile_end expect;
	enum hostile_start start;
	const char *what;
};

const char *end_name(enum hostile_end e);

/* main.c: --full, the counts for the floods of cases 35, 36
 * and 39 instead of the lab's (cases_xs.c).
 */
extern int full_counts;

/* cases_tx.c: guest TX requests */
enum hostile_end case_tx_overflow(struct fe *f);
enum hostile_end case_chain_past_prod(struct fe *f);
enum hostile_end case_too_many_slots(struct fe *f);
enum hostile_end case_runts(struct fe *f);
enum hostile_end case_slot_crosses_page(struct fe *f);
enum hostile_end case_slot_too_large(struct fe *f);
enum hostile_end case_zero_slots(struct fe *f);
enum hostile_end case_tiny_slots(struct fe *f);
enum hostile_end case_frag_boundary(struct fe *f);
enum hostile_end case_extra_no_slot(struct fe *f);
enum hostile_end case_extra_types(struct fe *f);
enum hostile_end case_gso(struct fe *f);
enum hostile_end case_csum(struct fe *f);
enum hostile_end case_mcast_extras(struct fe *f);
enum hostile_end case_bad_grefs(struct fe *f);
enum hostile_end case_doublefetch(struct fe *f);
enum hostile_end case_ids(struct fe *f);
enum hostile_end case_rate(struct fe *f);
enum hostile_end case_gso_tiny(struct fe *f);
enum hostile_end case_gso_not_tcp(struct fe *f);
enum hostile_end case_gso_by_frags(struct fe *f);
enum hostile_end case_gso_flood(struct fe *f);
const char *mcast_req(struct fe *f, uint8_t type, uint8_t flags,
		      const uint8_t *addr, struct outcome *o);
void mcast_listen(struct fe *f, const char *ph);
const char *mcast_filtered(const struct fe *f);

/* cases_rx.c: the RX ring */
enum hostile_end case_rx_nobuf(struct fe *f);
enum hostile_end case_rx_bad_grefs(struct fe *f);
enum hostile_end case_rx_wiggle(struct fe *f);
enum hostile_end case_xdp_headroom(struct fe *f);

/* cases_ctl.c: connect time, xenstore, event channels */
enum hostile_end case_connect_indices(struct fe *f);
enum hostile_end case_ctrl_ring(struct fe *f);
enum hostile_end case_ctrl_ring_far(struct fe *f);
enum hostile_end case_ctrl_requests(struct fe *f);
enum hostile_end case_ctrl_overflow(struct fe *f);
enum hostile_end case_ctrl_steer(struct fe *f);
enum hostile_end case_ctrl_storm(struct fe *f);
enum hostile_end case_ctrl_storm_dead(struct fe *f);
enum hostile_end case_ctrl_flood(struct fe *f);
enum hostile_end case_queues(struct fe *f);
enum hostile_end case_feature_keys(struct fe *f);
enum hostile_end case_xs_storm(struct fe *f);
enum hostile_end case_evtchn_storm(struct fe *f);
enum hostile_end honest_after(struct fe *f, int cs, char sub,
			      const char *what);

/* cases_xs.c: floods of xenstore writes */
enum hostile_end case_state_flood(struct fe *f);
enum hostile_end case_bad_connects(struct fe *f);
enum hostile_end case_mcast_flood(struct fe *f);
enum hostile_end case_reconnect_loop(struct fe *f);

/* cases_ctl.c: control ring hash updates for @seconds; 0 when passed */
int ctrl_stream(struct fe *f, int seconds);

/* random.c: seeded random TX requests; 0 when it passed */
int random_mode(struct fe *f, unsigned long seed, unsigned long count);

/* foreign.c: a guest page granted to dom0, sent by dom0 */
int grant_page(int seconds);
int foreign_send(int domid, uint32_t gref, const char *ip, int port,
		 int pages);

/* cases_churn.c: churn on a live connection */
enum hostile_end case_mcast_churn(struct fe *f);
enum hostile_end case_state_garbage(struct fe *f);
enum hostile_end case_fewer_queues(struct fe *f);
/* cases_flood.c: floods of valid frames beside a neighbour */
enum hostile_end case_udp_flood(struct fe *f);
/* cases_ring.c: the ring pages and the fields dom0 writes */
enum hostile_end case_grant_alias(struct fe *f);
enum hostile_end case_ring_rewrite(struct fe *f);
enum hostile_end case_rx_flap(struct fe *f);

#endif
