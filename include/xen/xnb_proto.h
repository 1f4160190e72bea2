/* SPDX-License-Identifier: GPL-2.0 */
/* Pure protocol logic (proto.c), built into the userspace tests and fuzzers
 * too: any context, no locks, no sleeping.  Ring indices are u32 and wrap.
 */
#ifndef XNB_PROTO_H
#define XNB_PROTO_H

#include <linux/types.h>
#include <xen/interface/io/netif.h>

#define XNB_PAGE_SIZE		4096u
#define XNB_ETH_HLEN		14u

/* Data slots an honest frontend may use (netif.h's NR_SLOTS_MIN). */
#define XNB_TX_MAX_DATA		18u
/* Upper bound of the fatal_skb_slots parameter; sizes the walk scratch. */
#define XNB_TX_FATAL_MAX	64u
/* Extra-info slots accepted in one chain before the guest is fatal. */
#define XNB_TX_MAX_EXTRAS	8u
/* Slots one walk may consume: data chain, its first slot, and extras. */
#define XNB_TX_MAX_SLOTS	(XNB_TX_FATAL_MAX + 1u + XNB_TX_MAX_EXTRAS)
/* Extra-info types are 1..XNB_EXTRA_TYPES; 0 and above are fatal. */
#define XNB_EXTRA_TYPES		5u

/* GSO size 0 or above the max (which keeps out GSO_BY_FRAGS) is fatal;
 * below TCP_MIN_GSO_SIZE is honest (forwarded GRO packets) and raised.
 */
#define XNB_GSO_MIN_SIZE	8u
#define XNB_GSO_MAX_SIZE	(0xffffu - XNB_ETH_HLEN - 20u - 20u)

/* Linux's TCP_MIN_SND_MSS: the least MSS its TCP sends with. */
#define XNB_TCP_MIN_SND_MSS	48u
/* Default gso_max_segs: a 64 KiB packet at that MSS; more is dropped. */
#define XNB_GSO_MAX_SEGS	((0xffffu + XNB_TCP_MIN_SND_MSS - 1u) / \
				 XNB_TCP_MIN_SND_MSS)
/* GSO segments per charged slot: a page of them at IPv4's default MSS. */
#define XNB_GSO_SEGS_PER_SLOT	8u
/* Least slots a TX packet is charged: its skb costs more than its copy. */
#define XNB_TX_PKT_SLOTS	4u

/* Our flag in xnb_tx_pkt.flags: the chain carried multicast extras. */
#define XNB_TXF_MCAST		0x8000u
/* Most RX headroom honoured: a standard frame still fits the first slot. */
#define XNB_RX_HEADROOM_MAX	2048u
/* RX slots one packet takes at most: data, a GSO and a hash extra. */
#define XNB_RX_MAX_SLOTS	(XNB_TX_MAX_DATA + 2u)

/* Why a packet was dropped or the vif disabled; for log lines and tests. */
enum xnb_tx_reason {
	XNB_R_NONE = 0,
	XNB_R_RING_OVERFLOW,	/* fatal: producer claims more than a ring */
	XNB_R_CHAIN_PAST_PROD,	/* fatal: chain or extras run past req_prod */
	XNB_R_TOO_MANY_SLOTS,	/* fatal: chain reaches fatal_skb_slots */
	XNB_R_TOO_MANY_EXTRAS,	/* fatal: more than XNB_TX_MAX_EXTRAS */
	XNB_R_BAD_EXTRA_TYPE,	/* fatal: extra type 0 or out of range */
	XNB_R_BAD_GSO,		/* fatal: GSO size out of range, unknown type */
	XNB_R_CROSS_PAGE,	/* fatal: offset + size beyond the page */
	XNB_R_SLOTS_OVER_MAX,	/* drop: over XNB_TX_MAX_DATA data slots */
	XNB_R_RUNT,		/* drop: shorter than an Ethernet header */
	XNB_R_SLOT_OVERSIZE,	/* drop: a slot larger than what remains */
	XNB_R_GSO_NOT_NEGOTIATED, /* drop: GSO type the vif did not offer */
	XNB_R_MCAST_CTRL,	/* no packet: a multicast request, answered */
	XNB_R_COUNT
};

enum xnb_tx_verdict {
	XNB_TX_OK,	/* build and send the packet */
	XNB_TX_DROP,	/* answer every slot with an error, vif stays up */
	XNB_TX_FATAL,	/* disable the vif, consume nothing */
};

enum xnb_gso {
	XNB_GSO_NONE,
	XNB_GSO_TCPV4,
	XNB_GSO_TCPV6,
};

struct xnb_tx_limits {
	u16 fatal_slots;	/* this many after the first is fatal; capped */
	bool gso_tcpv4;		/* GSO types the backend offered */
	bool gso_tcpv6;
	u32 gso_max_segs;	/* the vif's: a packet of more is dropped */
};

struct xnb_tx_data {
	u32 gref;
	u16 offset;
	u16 size;
};

/* One packet as read from the ring; every field is our private copy. */
struct xnb_tx_pkt {
	u32 len;		/* total length, from the first slot */
	u16 flags;		/* first slot's XEN_NETTXF_* flags */
	u16 nr_slots;		/* ring slots to consume (data + extras) */
	u16 nr_data;		/* valid entries in data[] */
	u16 gso_size;
	u8 gso_type;		/* enum xnb_gso */
	u8 reason;		/* enum xnb_tx_reason when not XNB_TX_OK */
	u8 mcast_op;		/* last EXTRA_TYPE_MCAST_ADD/_DEL; 0: none */
	u8 mcast_addr[6];
	struct xnb_tx_data data[XNB_TX_MAX_DATA];
	u16 id[XNB_TX_MAX_SLOTS];	/* per slot consumed: the id to echo */
	u8 is_extra[XNB_TX_MAX_SLOTS];	/* an extra: answered RSP_NULL */
};

/* Requests published and not consumed: @prod - @cons; -1 past @ring_size. */
int xnb_ring_unconsumed(u32 prod, u32 cons, u32 ring_size);

/* What a guest's event asks of the backend. */
enum xnb_event {
	XNB_EV_SPURIOUS,	/* nothing: EOI at once, flagged spurious */
	XNB_EV_OWE,		/* work for a pass already due: owe the EOI */
	XNB_EV_KICK,		/* work: owe the EOI and kick the group */
};

/* A TX event: SPURIOUS if @disabled or no request is new since the EOI
 * (@prod_eoi: @req_prod then) or unconsumed; else OWE if @held for credit
 * (its timer's pass owes the EOI), else KICK.
 */
enum xnb_event xnb_tx_event_judge(u32 req_prod, u32 prod_eoi, u32 req_cons,
				  bool held, bool disabled);

/* An RX event kicks a @blocked, enabled queue that has the @want buffers it
 * waits for, or whose @req_prod is past the ring (the vif gets disabled).
 */
enum xnb_event xnb_rx_event_judge(u32 req_prod, u32 req_cons, u32 ring_size,
				  bool blocked, u32 want, bool disabled);

/* A channel both rings share: the stronger verdict (KICK > OWE > SPURIOUS). */
enum xnb_event xnb_event_merge(enum xnb_event tx, enum xnb_event rx);

/* Failed-connect back-off (docs/protocol.md). */
#define XNB_CONNECT_FREE	8u
#define XNB_CONNECT_HOLD_MIN_MS	1000u
#define XNB_CONNECT_HOLD_MAX_MS	8000u

/* The ms a connect at @now must still wait after @fails failed in a row, the
 * last at @last (a @now before it counts as @last); 0: it may go.
 */
u32 xnb_connect_wait(u32 fails, u64 last, u64 now);

/* Reconnect back-off (docs/protocol.md); the window outlasts any hold. */
#define XNB_RECONNECT_FREE		2u
#define XNB_RECONNECT_WINDOW_MS		60000u
#define XNB_RECONNECT_HOLD_MIN_MS	1000u
#define XNB_RECONNECT_HOLD_MAX_MS	8000u

/* A backend's run of quick reconnects; zeroed with the backend. */
struct xnb_reconnect {
	u64 last;		/* when the last connect succeeded, in ms */
	u32 run;		/* quick reconnects in a row (saturating) */
	bool seen;		/* a connect has succeeded */
	bool logged;		/* this run's hold was reported */
};

/* The ms a connect at @now (before @r->last counts as it) must wait for the
 * run of quick reconnects it is in; 0: it may go now.
 */
u32 xnb_reconnect_wait(const struct xnb_reconnect *r, u64 now);

/* Count a connect that succeeded at @now (ms). */
void xnb_reconnect_done(struct xnb_reconnect *r, u64 now);

/* True once per run, for a non-zero @wait (xnb_reconnect_wait()): log it. */
bool xnb_reconnect_log(struct xnb_reconnect *r, u32 wait);

/* One event channel's run of events that led to no work; zeroed at bind. */
struct xnb_spurious {
	u32 progress;		/* our consumer indices at the last of them */
	u8 run;			/* how many in a row (saturating) */
};

/* Count an event (@spurious: it led to no work) in @s's run, which a change
 * of @progress (our own consumer indices) restarts.  Returns the EOI's hold:
 * 0 (send now) for @grace events in a row, then 1, 2, 4 .. @max.
 */
unsigned int xnb_spurious_next(struct xnb_spurious *s, bool spurious,
			       u32 progress, unsigned int grace,
			       unsigned int max);

/**
 * xnb_ring_room() - Whether more requests may be consumed.
 * @req_cons: our request consumer index
 * @rsp_prod_pvt: our private response producer index
 * @nr: the requests to consume
 * @ring_size: the ring's size in slots
 * Return: true when the responses owed plus @nr fit in the ring, so no
 * response overwrites a request; req_prod plays no part.
 */
bool xnb_ring_room(u32 req_cons, u32 rsp_prod_pvt, u32 nr, u32 ring_size);

/* A frontend's indices describe a possible ring. */
bool xnb_ring_sane(u32 req_prod, u32 rsp_prod, u32 ring_size);

/**
 * xnb_push_notify() - Whether a push of responses must notify the frontend.
 * @pushed: our own copy of the last push's rsp_prod, never the shared one
 * @rsp_prod: the one this push publishes
 * @rsp_event: the frontend's rsp_event, read after @rsp_prod was published
 * Return: true when @rsp_event is in (@pushed, @rsp_prod].
 */
bool xnb_push_notify(u32 pushed, u32 rsp_prod, u32 rsp_event);

/**
 * xnb_tx_parse() - Read one packet from the guest TX ring.
 * @ring: the shared TX ring's entries, each slot read exactly once
 * @ring_size: the ring's size in slots, a power of two
 * @cons: the index of the packet's first slot
 * @avail: the slots the frontend published from @cons on
 * @lim: the vif's limits
 * @p: the packet read, our private copy
 * Return: XNB_TX_OK or XNB_TX_DROP, with @p->nr_slots slots to consume
 * and answer; XNB_TX_FATAL consumes nothing.  @p->reason says why.
 */
enum xnb_tx_verdict
xnb_tx_parse(const union xen_netif_tx_sring_entry *ring, u32 ring_size,
	     u32 cons, u32 avail, const struct xnb_tx_limits *lim,
	     struct xnb_tx_pkt *p);

/* An enum xnb_tx_reason for log lines; "unknown" out of range. */
const char *xnb_tx_reason_str(unsigned int reason);

/* An XNB_TX_OK packet's charge in a turn: the most of @p->nr_slots, and
 * XNB_TX_PKT_SLOTS, and a slot per XNB_GSO_SEGS_PER_SLOT GSO segments, of
 * which @lim->gso_max_segs + 1 count at most.
 */
u32 xnb_tx_charge(const struct xnb_tx_pkt *p,
		  const struct xnb_tx_limits *lim);

/* Guest RX slots for @len bytes: one per page-sized buffer, the first after
 * @headroom ("xdp-headroom", XNB_RX_HEADROOM_MAX at most), and a @gso extra.
 */
u32 xnb_rx_slots_needed(u32 len, bool gso, u32 headroom);

/* A packet may go to the guest at all: its data fits XNB_TX_MAX_DATA buffers
 * (one without @can_sg), and if @gso, its type is negotiated and @can_sg.
 */
bool xnb_rx_fits(u32 len, bool gso, bool gso_negotiated, bool can_sg,
		 u32 headroom);

/* Guest RX notification moderation (coalesce.c); times in ns, monotonic. */
#define XNB_RXMOD_USECS_MAX	10000u	/* ethtool rx-usecs at most: 10 ms */
#define XNB_RXMOD_FRAMES_MAX	256u	/* rx-frames at most: a 4 KiB ring */
/* A shorter hold is none: a timer and a turn cost more than the event. */
#define XNB_RXMOD_USECS_MIN	20u

/* One queue's guest RX notification, owed or not; zeroed with the queue. */
struct xnb_rxmod {
	u64 last_ns;		/* when the last one went; 0: never */
	u64 due_ns;		/* while @owed: when it goes at the latest */
	u32 pkts;		/* packets answered since it became owed */
	u32 slots;		/* their ring slots (both saturating) */
	bool owed;		/* asked for (only once), not sent yet */
	bool deferred;		/* the owed one was put off at least once */
};

struct xnb_rxmod_limits {
	u32 usecs;		/* the hold; below XNB_RXMOD_USECS_MIN: none */
	u32 frames;		/* packets that end a hold; 0: no limit */
	u32 slots_max;		/* ring slots that end a hold */
};

enum xnb_rxmod_verdict {
	XNB_RXMOD_NONE,		/* none is owed */
	XNB_RXMOD_NOW,		/* send it now, if xnb_rxmod_wanted() */
	XNB_RXMOD_DEFER,	/* arm a timer for xnb_rxmod.due_ns */
};

/**
 * xnb_rxmod_decide() - Notify the guest now, later, or not at all.
 * @m: the queue's state
 * @asked: this push crossed the guest's rsp_event (xnb_push_notify())
 * @pkts: packets this push answered (0 for a look without a push)
 * @slots: their ring slots
 * @starved: the queue waits for guest RX buffers, which the event brings
 * @now: the time, in ns
 * @lim: the limits in force
 *
 * NOW clears the debt; call xnb_rxmod_sent() if it is actually sent.
 * Return: the verdict; for XNB_RXMOD_DEFER @m->due_ns is after @now and
 * no more than a hold after @m->last_ns.
 */
enum xnb_rxmod_verdict xnb_rxmod_decide(struct xnb_rxmod *m, bool asked,
					u32 pkts, u32 slots, bool starved,
					u64 now,
					const struct xnb_rxmod_limits *lim);

/* A notification went to the guest at @now (xnb_rxmod_decide()'s clock). */
void xnb_rxmod_sent(struct xnb_rxmod *m, u64 now);

/**
 * xnb_rxmod_wanted() - Whether the guest still waits for an RX event.
 * @rsp_prod: the RX response producer index we published
 * @rsp_event: the guest's rsp_event, read after @rsp_prod was published
 * @ring_size: the ring's size in slots
 * Return: false when the guest re-armed past every response (@rsp_event
 * in [@rsp_prod + 1, @rsp_prod + @ring_size]): the event would be spurious.
 */
bool xnb_rxmod_wanted(u32 rsp_prod, u32 rsp_event, u32 ring_size);

/* Credit-based TX shaping: the "rate" key's "bytes,usec"; time in us. */
#define XNB_CREDIT_MAX	0x10000000000ULL	/* 2^40 bytes: no limit */
/* Credit the bucket may hold beyond a small period's (as the stock driver). */
#define XNB_CREDIT_BURST	131072ULL
/* Longer waits are reported as ~0, well clear of the 2^63 clock wrap. */
#define XNB_CREDIT_WAIT_MAX	0x4000000000000000ULL	/* 2^62 */

struct xnb_credit {
	u64 bytes;		/* credit added per period; 0 = unlimited */
	u64 usec;		/* period length */
	s64 balance;		/* at most max(@bytes, burst); < 0: debt */
	u64 next_refill;	/* time at which the next period starts */
};

/* @bytes per @usec (0: none; XNB_CREDIT_MAX at most), from @now (us). */
void xnb_credit_set(struct xnb_credit *c, u64 bytes, u64 usec, u64 now);
/**
 * xnb_credit_take() - Take the credit for a packet, if it may go.
 * @c: the credit state
 * @len: the packet's length in bytes
 * @now: the time, in microseconds
 * @wait_us: set when the packet may not go: the wait in microseconds, ~0
 *	past XNB_CREDIT_WAIT_MAX
 * Return: true when the packet may go: any credit is left (it may leave a
 * debt later periods pay), or there is no limit.
 */
bool xnb_credit_take(struct xnb_credit *c, u32 len, u64 now, u64 *wait_us);

/* The fewest queues, lowest index on ties: @nr_groups counts @stride apart. */
unsigned int xnb_pick_group(const u32 *load, size_t stride,
			    unsigned int nr_groups);

/* In xnb_cpu_place()'s load array: a CPU that takes no group. */
#define XNB_CPU_OFF	0xffffffffu

struct xnb_cpu_slot {
	u32 home;		/* the CPU given when the group set was made */
	u32 cur;		/* the CPU it runs on now */
};

/* As CPUs go and come, each group (@g[i].cur) goes home if it can, else
 * stays, else goes to the CPU with the fewest; with none, all stay.  @load
 * by CPU (none from @nr_cpus on) is 0 or XNB_CPU_OFF (takes no group) in,
 * the groups on each CPU that takes them out.  Returns the groups moved.
 */
u32 xnb_cpu_place(struct xnb_cpu_slot *g, u32 nr_groups, u32 *load,
		  u32 nr_cpus);

/* The least a queue's turn gets, unless the budget is smaller. */
#define XNB_SHARE_FLOOR	8u

/* A queue's turn in slots: @budget (a vif's slots per pass) split among its
 * vif's @active queues in the group (0 counts as 1), XNB_SHARE_FLOOR at least,
 * at most what the vif's other queues' @used leaves; 0 when nothing is left.
 */
u32 xnb_queue_share(u32 budget, u32 active, u32 used);

/* A group's pass (group.c, docs/design.md): turns until NAPI's budget or
 * XNB_PASS_SLOTS are used; only the packet crossing a limit still goes.
 */
#define XNB_PASS_SLOTS		256u
/* Passes one poll runs at most; a light poll still busy then hands off. */
#define XNB_POLL_PASSES		4u

/* Why a pass started no further turn. */
enum xnb_pass_stop {
	XNB_PASS_GO,		/* it served every queue it took */
	XNB_PASS_STOP_NAPI,	/* NAPI's budget was used, queues were left */
	XNB_PASS_STOP_CAP,	/* XNB_PASS_SLOTS were used, queues were left */
};

/* What a pass did, as it goes. */
struct xnb_pass_acct {
	u32 napi_budget;	/* NAPI's, in guest TX packets */
	u32 cap;		/* slots after which no turn starts */
	u32 tx_packets;		/* guest TX packets taken (NAPI's count) */
	u32 slots;		/* ring slots used, both ways */
	u8 stopped;		/* enum xnb_pass_stop */
	bool requeued;		/* work left that no kick will announce */
};

/* Start a pass's account; a @napi_budget of 0 (netpoll's) runs no pass. */
void xnb_pass_begin(struct xnb_pass_acct *a, u32 napi_budget, u32 cap);

/* Another turn may start; on refusal @a->stopped says why. */
bool xnb_pass_may_serve(struct xnb_pass_acct *a);

/* What is left of the cap for a turn: max(1, min(@share, cap - slots)). */
u32 xnb_pass_turn_slots(const struct xnb_pass_acct *a, u32 share);

/* Slots of a queue's turn, each way. */
struct xnb_pass_ways {
	u32 rx;			/* guest RX slots (dom0->guest) */
	u32 tx;			/* guest TX slots (guest->dom0) */
};

/* Most owed each way: above any packet's excess at default gso_max_segs. */
#define XNB_PASS_DEBT_MAX	XNB_PASS_SLOTS

/* A turn's share each way (*@way): a cut one what it has @left, a new one
 * (@left both 0) @share less the @debt past turns ran up (deficit round
 * robin); @alone in its group clears @debt.  Returns the larger way.
 */
u32 xnb_pass_turn_share(const struct xnb_pass_ways *left, u32 share,
			bool alone, struct xnb_pass_ways *debt,
			struct xnb_pass_ways *way);

/* A way's debt after a turn: @used past @share added, XNB_PASS_DEBT_MAX max. */
u32 xnb_pass_debt(u32 debt, u32 share, u32 used);

/* What a way of a turn cut by a nonzero @limit below its @share has left. */
u32 xnb_pass_turn_left(u32 share, u32 limit, u32 used);

/* RX's @turn less what a waiting @tx_turn keeps (at most half the cap's
 * rest), one at least; 0 for a @turn of 0.
 */
u32 xnb_pass_rx_slots(const struct xnb_pass_acct *a, u32 turn, u32 tx_turn);

/* False when no @tx_turn changes xnb_pass_rx_slots(): TX's ring is not read. */
bool xnb_pass_rx_split(const struct xnb_pass_acct *a, u32 turn);

/* TX's slots: @share, within XNB_TX_PKT_SLOTS per packet NAPI's budget has
 * left (0 once spent) and the cap's rest (1 at least).
 */
u32 xnb_pass_tx_slots(const struct xnb_pass_acct *a, u32 share);

/* One queue's turn (group.c's xnb_group_serve()): RX, then TX. */
struct xnb_turn {
	struct xnb_pass_ways way;	/* xnb_pass_turn_share()'s */
	u32 slots;			/* xnb_pass_turn_slots()'s */
	u32 rx_limit, tx_limit;
};

/* Whether RX's slots depend on guest TX waiting: only then read its ring. */
bool xnb_turn_peek(const struct xnb_pass_acct *a, const struct xnb_turn *t);
/* RX's slots; @tx_waits: guest TX requests wait. */
u32 xnb_turn_rx(const struct xnb_pass_acct *a, struct xnb_turn *t,
		bool tx_waits);
/* Charge RX's @rx_used; TX's slots. */
u32 xnb_turn_tx(struct xnb_pass_acct *a, struct xnb_turn *t, u32 rx_used);
/* Charge TX; each way, what a cut turn has @left and its @debt. */
void xnb_turn_end(struct xnb_pass_acct *a, const struct xnb_turn *t,
		  u32 rx_used, u32 tx_packets, u32 tx_used,
		  struct xnb_pass_ways *left, struct xnb_pass_ways *debt);

/* Count a turn's work: guest TX packets and ring slots both ways. */
void xnb_pass_charge(struct xnb_pass_acct *a, u32 tx_packets, u32 slots);

/* Close a turn begun at @start slots; an empty turn costs one slot. */
void xnb_pass_turn_end(struct xnb_pass_acct *a, u32 start);

/* What the poll does once its pass is over. */
enum xnb_pass_next {
	XNB_NEXT_COMPLETE,	/* napi_complete_done(), sleep until a kick */
	XNB_NEXT_AGAIN,		/* return the whole budget: poll again */
	XNB_NEXT_HANDOFF,	/* light: hand the passes to the thread */
};

/* Why the passes changed context. */
enum xnb_handoff_reason {
	XNB_HANDOFF_BUDGET,	/* a light pass used NAPI's whole budget */
	XNB_HANDOFF_REQUEUED,	/* a queue had work past its share */
	XNB_HANDOFF_PASSES,	/* light, XNB_POLL_PASSES run, queues left */
	XNB_HANDOFF_IDLE,	/* a thread pass drained the group */
	XNB_HANDOFF_CAP,	/* a light pass hit the cap, queues left */
};

struct xnb_pass_verdict {
	u8 next;		/* enum xnb_pass_next */
	u8 reason;		/* enum xnb_handoff_reason, for a handoff */
	u32 ret;		/* the poll's return: budget only for AGAIN */
};

/* The verdict after a poll's @passes (@light: softirq's); never COMPLETE
 * with queues @active (on the group's list now).
 */
void xnb_pass_decide(const struct xnb_pass_acct *a, bool light, bool active,
		     u32 passes, struct xnb_pass_verdict *v);

/* Live rebalancing (balance.c, xnb_balance_pick()). */
#define XNB_BAL_SCALE	1000u	/* busy is in 1/XNB_BAL_SCALE */
/* Low: poll time understates a group that shares its CPU with the stack. */
#define XNB_BAL_HIGH	400u
#define XNB_BAL_GAP	250u
#define XNB_BAL_STREAK	2u
#define XNB_BAL_HOLD	5u	/* intervals a moved queue stays put */

struct xnb_bal_queue {
	u64 load;		/* served over the interval */
	u32 group;		/* the group serving it */
	bool fixed;		/* may not move */
};

struct xnb_bal_state {
	u32 streak;		/* intervals the imbalance lasted */
	u32 from;		/* its busiest group */
	u32 to;			/* the idlest group last time */
};

struct xnb_bal_move {
	u32 queue;		/* index into the queue array */
	u32 from;
	u32 to;
};

/* Busy ns over @dt ns in 1/XNB_BAL_SCALE, clamped; 0 if the count went back. */
u32 xnb_busy_share(u64 busy_then, u64 busy_now, u64 dt);

/* Fill *@mv with a queue to move off the busiest group: it needs that group
 * at XNB_BAL_HIGH, the idlest XNB_BAL_GAP below it, for XNB_BAL_STREAK
 * intervals (@st; zero it when the group set changes); the queue narrows the
 * gap most without overshooting by XNB_BAL_GAP / 2 (no ping-pong).  @busy is
 * in 1/XNB_BAL_SCALE, @q's loads in any common unit.
 */
bool xnb_balance_pick(const u32 *busy, u32 nr_groups,
		      const struct xnb_bal_queue *q, u32 nr_queues,
		      struct xnb_bal_state *st, struct xnb_bal_move *mv);

#endif /* XNB_PROTO_H */
