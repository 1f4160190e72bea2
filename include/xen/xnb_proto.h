/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Pure protocol logic of the netback: ring index sanity, the guest TX
 * slot-chain walk, extra-info parsing, RX slot accounting, guest RX
 * notification moderation, credit shaping,
 * worker-group choice and the groups' CPUs across CPU hotplug, live
 * rebalancing and the connect and reconnect back-offs.
 *
 * Nothing here touches kernel state, so drivers/net/xen-netback/proto.c
 * is compiled both into the module and into the userspace unit tests and
 * fuzzers (tests/unit, tests/fuzz).  The ring layouts come from Xen's
 * public netif.h; the userspace builds supply the kernel headers named
 * here from tests/common (xnb_user.h).
 */
#ifndef XNB_PROTO_H
#define XNB_PROTO_H

#include <linux/types.h>
#include <xen/interface/io/netif.h>

#define XNB_PAGE_SIZE		4096u
#define XNB_ETH_HLEN		14u

/*
 * Data slots an honest frontend may use for one packet (netif.h's
 * XEN_NETIF_NR_SLOTS_MIN): 64 KiB spread over 4 KiB pages plus one.
 */
#define XNB_TX_MAX_DATA		18u
/* Upper bound of the fatal_skb_slots parameter; sizes the walk scratch. */
#define XNB_TX_FATAL_MAX	64u
/* Extra-info slots accepted in one chain before the guest is fatal. */
#define XNB_TX_MAX_EXTRAS	8u
/* Slots one walk may consume: data chain, its first slot, and extras. */
#define XNB_TX_MAX_SLOTS	(XNB_TX_FATAL_MAX + 1u + XNB_TX_MAX_EXTRAS)
/* Extra-info types are 1..XNB_EXTRA_TYPES; 0 and above are fatal. */
#define XNB_EXTRA_TYPES		5u

/*
 * The segment sizes of a GSO extra.  Size 0 is a protocol error, and so
 * is one above the most.  The least is the kernel's TCP_MIN_GSO_SIZE:
 * TCP's minimum send MSS (48) less the most TCP options (40), the
 * smallest segment Linux's TCP makes.  A smaller size is honest all the
 * same (a guest that forwards passes on what its GRO merged: two 1-byte
 * segments make gso_size 1), so it is raised to the least, as
 * virtio_net_hdr_to_skb() does.  What bounds the
 * segments of one packet is the vif's gso_max_segs (XNB_GSO_MAX_SEGS,
 * tx.c), and what bounds them in a pass is each packet's charge
 * (xnb_tx_charge()).  The most is the TCP payload of the largest packet
 * a slot chain can describe (65535 bytes, less the Ethernet, IPv4 and
 * TCP headers): no honest segment is larger, and it keeps out 0xffff,
 * which the kernel reads as GSO_BY_FRAGS (skb_segment() takes the frag
 * list for the segments; skb_increase_gso_size() warns).
 */
#define XNB_GSO_MIN_SIZE	8u
#define XNB_GSO_MAX_SIZE	(0xffffu - XNB_ETH_HLEN - 20u - 20u)

/* Linux's TCP_MIN_SND_MSS: the least MSS its TCP sends with, options
 * included.
 */
#define XNB_TCP_MIN_SND_MSS	48u
/*
 * The vif's default gso_max_segs: the segments of the largest packet a
 * slot chain describes at XNB_TCP_MIN_SND_MSS.  Linux's TCP sends a
 * smaller segment only when the peer clamped its MSS below that and
 * options fill the rest, and then in packets of about its congestion
 * window; a guest packet of more segments is dropped (tx.c), not the
 * vif.  The admin may raise it (ip link set dev vifX.Y gso_max_segs).
 */
#define XNB_GSO_MAX_SEGS	((0xffffu + XNB_TCP_MIN_SND_MSS - 1u) / \
				 XNB_TCP_MIN_SND_MSS)
/*
 * Segments a guest TX packet may make per ring slot it is charged:
 * a page of segments of 536 bytes (IPv4's default MSS) rounded up, so
 * an honest packet at that MSS or above is charged no more for them.
 */
#define XNB_GSO_SEGS_PER_SLOT	8u
/*
 * The least ring slots a guest TX packet is charged: a small packet
 * costs dom0 its skb's way up the stack far more than its copy, so a
 * vif flooding small frames would otherwise take a group's NAPI budget
 * for a share of slots that a neighbour's large packets spend on copies.
 */
#define XNB_TX_PKT_SLOTS	4u

/* Our flag in xnb_tx_pkt.flags: the chain carried multicast extras. */
#define XNB_TXF_MCAST		0x8000u
/* RX: the largest headroom we put before a packet in its first slot.
 * netif.h allows up to XEN_NETIF_MAX_XDP_HEADROOM (32 KiB - 1), more
 * than a slot; XDP uses 256.  Half a page keeps a standard frame whole
 * in the first slot, which a guest's XDP program needs.
 */
#define XNB_RX_HEADROOM_MAX	2048u
/* RX: the slots one packet takes at most: netfront's XNB_TX_MAX_DATA
 * data slots (xnb_rx_fits()), the GSO extra and the hash extra.
 */
#define XNB_RX_MAX_SLOTS	(XNB_TX_MAX_DATA + 2u)

/* Why a packet was dropped or the vif disabled; for log lines and tests. */
enum xnb_tx_reason {
	XNB_R_NONE = 0,
	XNB_R_RING_OVERFLOW,	/* fatal: producer claims more than a ring */
	XNB_R_CHAIN_PAST_PROD,	/* fatal: chain or extras run past req_prod */
	XNB_R_TOO_MANY_SLOTS,	/* fatal: chain reaches fatal_skb_slots */
	XNB_R_TOO_MANY_EXTRAS,	/* fatal: more than XNB_TX_MAX_EXTRAS */
	XNB_R_BAD_EXTRA_TYPE,	/* fatal: extra type 0 or out of range */
	XNB_R_BAD_GSO,		/* fatal: GSO size 0 or above
				 * XNB_GSO_MAX_SIZE, or unknown GSO type
				 */
	XNB_R_CROSS_PAGE,	/* fatal: offset + size beyond the page */
	XNB_R_SLOTS_OVER_MAX,	/* drop: more data slots than a frontend may use */
	XNB_R_RUNT,		/* drop: packet shorter than an Ethernet header */
	XNB_R_SLOT_OVERSIZE,	/* drop: a slot larger than what remains */
	XNB_R_GSO_NOT_NEGOTIATED, /* drop: GSO type the vif did not offer */
	XNB_R_MCAST_CTRL,	/* no packet: a multicast filter request
				 * (mcast_op, mcast_addr), answered, not sent
				 */
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
	u16 fatal_slots;	/* a chain with this many slots after the
				 * first is fatal (capped at XNB_TX_FATAL_MAX)
				 */
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
	/* The last multicast extra of the chain: XEN_NETIF_EXTRA_TYPE_MCAST_
	 * ADD or _DEL (0: none) and its address.
	 */
	u8 mcast_op;
	u8 mcast_addr[6];
	struct xnb_tx_data data[XNB_TX_MAX_DATA];
	/* Per consumed slot: the request id to echo, and whether the slot
	 * held an extra-info segment (answered with XEN_NETIF_RSP_NULL).
	 */
	u16 id[XNB_TX_MAX_SLOTS];
	u8 is_extra[XNB_TX_MAX_SLOTS];
};

/**
 * xnb_ring_unconsumed() - Count the requests published, not consumed yet.
 * @prod: the request producer index, as the frontend published it
 * @cons: our request consumer index
 * @ring_size: the ring's size in slots
 *
 * Unconsumed requests between @cons and @prod, or -1 when the producer
 * claims more than the ring holds (a broken or hostile frontend).
 *
 * Context: Any context; no locks, no sleeping.
 * Return: @prod - @cons (the indices wrap), or -1 when that is more than
 * @ring_size.
 */
int xnb_ring_unconsumed(u32 prod, u32 cons, u32 ring_size);

/**
 * enum xnb_event - What an event-channel interrupt asks of the backend.
 * @XNB_EV_SPURIOUS: nothing for us
 * @XNB_EV_OWE: work for a pass already due (the credit timer's): owe the
 *	EOI, do not kick
 * @XNB_EV_KICK: work: owe the EOI and kick the group
 *
 * A spurious event is EOI'd at once with XEN_EOI_FLAG_SPURIOUS, so Xen
 * backs off a guest that only raises events; for the others the EOI is
 * owed until the group has served the queue.
 */
enum xnb_event {
	XNB_EV_SPURIOUS,	/* nothing for us */
	XNB_EV_OWE,		/* work for a pass already due (the credit
				 * timer's): owe the EOI, do not kick
				 */
	XNB_EV_KICK,		/* work: owe the EOI and kick the group */
};

/**
 * xnb_tx_event_judge() - Judge a guest TX event.
 * @req_prod: the TX request producer index, as the guest published it
 * @prod_eoi: the TX request producer index when we last sent an EOI
 * @req_cons: our TX request consumer index
 * @held: the queue is held for credit
 * @disabled: the vif is disabled
 *
 * Guest TX event.  Work is requests produced since our last EOI
 * (@prod_eoi: the group may have consumed them already, polling while
 * busy) or requests not consumed yet.  A disabled vif has no work.
 * A queue @held for credit has work for its credit timer's pass: the
 * EOI is owed to that pass (a spurious one would let lateeoi delay the
 * channel past the moment credit returns).
 *
 * Context: Any context; no locks, no sleeping.
 * Return: XNB_EV_SPURIOUS when there is no work; else XNB_EV_OWE for a
 * queue @held for credit, XNB_EV_KICK for any other.
 */
enum xnb_event xnb_tx_event_judge(u32 req_prod, u32 prod_eoi, u32 req_cons,
				  bool held, bool disabled);

/**
 * xnb_rx_event_judge() - Judge a guest RX event.
 * @req_prod: the RX request producer index, as the guest published it
 * @req_cons: our RX request consumer index
 * @ring_size: the RX ring's size in slots
 * @blocked: the queue is blocked waiting for buffers
 * @want: the buffers a blocked queue waits for
 * @disabled: the vif is disabled
 *
 * Guest RX event.  Buffers matter only to a queue blocked waiting for
 * them, once there are @want of them; a producer index beyond the ring
 * is work too (the group disables the vif).
 *
 * Context: Any context; no locks, no sleeping.
 * Return: XNB_EV_KICK when there is work, else XNB_EV_SPURIOUS (never
 * XNB_EV_OWE).
 */
enum xnb_event xnb_rx_event_judge(u32 req_prod, u32 req_cons, u32 ring_size,
				  bool blocked, u32 want, bool disabled);

/**
 * xnb_event_merge() - Merge the verdicts of a channel both rings share.
 * @tx: the TX ring's verdict
 * @rx: the RX ring's verdict
 *
 * One event channel for both rings: the stronger verdict (KICK > OWE).
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the stronger of @tx and @rx.
 */
enum xnb_event xnb_event_merge(enum xnb_event tx, enum xnb_event rx);

/**
 * xnb_spurious_hold() - How long to hold back the EOI of a spurious event.
 * @run: the channel's events in a row, this one included, that led to
 *	no work
 * @grace: how many of a run are EOI'd at once
 * @max: the longest hold
 *
 * How long to hold back the EOI of an event channel whose last @run
 * events (this one included) all led to no work.  The first @grace are
 * EOI'd at once; after that the hold doubles from 1 up to @max.  Units
 * are the caller's (jiffies in the driver).  Linux's own late-EOI
 * back-off restarts from zero whenever it sends a delayed EOI, so it
 * never holds a channel for more than a jiffy or two: a guest could keep
 * dom0 taking hundreds of interrupts a second for nothing.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the hold, in the caller's units: 0 while @run is at most
 * @grace, then 1, 2, 4, ... up to @max.
 */
unsigned int xnb_spurious_hold(unsigned int run, unsigned int grace,
			       unsigned int max);

/*
 * Connect back-off (xenbus.c, the state table's row 10h): a frontend
 * whose connects keep failing may try again only so often.  After up to
 * XNB_CONNECT_FREE failed connects in a row the next attempt goes at
 * once (an honest frontend never gets that far: netfront gives up after
 * one refusal); after more it waits from the last failure: 1 s after
 * XNB_CONNECT_FREE + 1 failures, doubling with each further one up to
 * XNB_CONNECT_HOLD_MAX_MS.  A successful connect ends it (@fails back
 * to 0); going through Closed does not, or a hostile frontend would go
 * through Closed each time.
 */
#define XNB_CONNECT_FREE	8u
#define XNB_CONNECT_HOLD_MIN_MS	1000u
#define XNB_CONNECT_HOLD_MAX_MS	8000u

/**
 * xnb_connect_wait() - How long a connect attempt must still wait.
 * @fails: the failed connects in a row
 * @last: the time of the last of them, in ms
 * @now: the time of the attempt, in ms on the same clock
 *
 * After @fails failed connects in a row, the last at @last (ms, any
 * monotonic clock), how long must an attempt at @now still wait?
 * 0: it may go.  A @now before @last (a clock that is not monotonic)
 * is taken as @last.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the wait in ms, by the connect back-off above; 0 when the
 * attempt may go.
 */
u32 xnb_connect_wait(u32 fails, u64 last, u64 now);

/*
 * Reconnect back-off (xenbus.c, the state table's row 10d): a frontend
 * whose connects succeed but come in a loop (Initialising, Connected,
 * Initialising...) costs dom0 a whole connect and disconnect each time,
 * so it too may connect only so often.  A connect that comes within
 * XNB_RECONNECT_WINDOW_MS of the last successful one is a quick
 * reconnect.  The first XNB_RECONNECT_FREE quick reconnects in a row go
 * at once (a guest's resume, a netfront reload, a reconnect to change
 * features); after more, each must wait from the last connect: 1 s for
 * the next, doubling with each further one up to
 * XNB_RECONNECT_HOLD_MAX_MS.  A connect that comes a window or more
 * after the last (the connection lived, or the guest stayed away, that
 * long) ends the run.  The window is longer than the longest hold, so a
 * loop held at the cap stays held (one connect per
 * XNB_RECONNECT_HOLD_MAX_MS), and long enough that a loop which stays
 * away a window to start a new run, free connects and all, connects no
 * more often on the whole than one held at the cap.  The cap is the
 * failed-connect back-off's: an honest frontend caught by either waits
 * 8 s at most.
 */
#define XNB_RECONNECT_FREE		2u
#define XNB_RECONNECT_WINDOW_MS		60000u
#define XNB_RECONNECT_HOLD_MIN_MS	1000u
#define XNB_RECONNECT_HOLD_MAX_MS	8000u

/**
 * struct xnb_reconnect - A backend's run of quick reconnects.
 * @last: when the last connect succeeded, in ms
 * @run: quick reconnects in a row up to it (saturating)
 * @seen: a connect has succeeded since the backend was made
 * @logged: a hold of this run was reported (xnb_reconnect_log())
 *
 * Zeroed with the backend; xnb_reconnect_done() after each connect
 * that succeeds, xnb_reconnect_wait() before each attempt.
 */
struct xnb_reconnect {
	u64 last;
	u32 run;
	bool seen;
	bool logged;
};

/**
 * xnb_reconnect_wait() - How long a connect must wait for the loop it is in.
 * @r: the backend's run of quick reconnects
 * @now: the time of the attempt, in ms on the clock of @r->last
 *
 * How long must a connect at @now still wait, by the reconnect back-off
 * above?  A @now before @r->last (a clock that is not monotonic) is
 * taken as @r->last.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the wait in ms; 0 when the connect may go now.
 */
u32 xnb_reconnect_wait(const struct xnb_reconnect *r, u64 now);

/**
 * xnb_reconnect_done() - Count a connect that succeeded.
 * @r: the backend's run of quick reconnects
 * @now: the time of the connect, in ms on the same clock
 *
 * A connect within the window of the last one lengthens the run, any
 * other starts a new one, not reported yet.
 *
 * Context: Any context; no locks, no sleeping.
 */
void xnb_reconnect_done(struct xnb_reconnect *r, u64 now);

/**
 * xnb_reconnect_log() - Whether a hold is the first of its run.
 * @r: the backend's run of quick reconnects
 * @wait: what xnb_reconnect_wait() said for the attempt
 *
 * A run is reported once, at its first hold, however far into the run
 * that comes (a loop spacing its connects by a second or more is first
 * held later than the first reconnect past the free ones).  The held
 * connect is quick reconnect @r->run + 1 in a row.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: true, and the run marked reported, for a non-zero @wait in a
 * run not reported yet; else false.
 */
bool xnb_reconnect_log(struct xnb_reconnect *r, u32 wait);

/**
 * struct xnb_spurious - One event channel's run of events that led to no work.
 * @progress: where the channel's consumers stood at the last of them
 * @run: how many in a row (saturating)
 *
 * One event channel's run of events that led to no work: how many in a
 * row (saturating), and where the channel's consumers stood at the last
 * of them.  Zeroed when the channel is bound.
 */
struct xnb_spurious {
	u32 progress;
	u8 run;
};

/**
 * xnb_spurious_next() - Count one more event and judge its EOI.
 * @s: the channel's run of events that led to no work
 * @spurious: the event led to no work
 * @progress: the backend's own consumer indices of the channel's rings
 * @grace: as for xnb_spurious_hold()
 * @max: as for xnb_spurious_hold()
 *
 * The EOI owed for one more event on the channel of @s: @spurious when
 * it led to no work, @progress the backend's own consumer indices of
 * the channel's rings (which a guest cannot move by writing req_prod).
 * Work ends the run.  A spurious event after the consumers moved starts
 * a new one: an honest guest's event can find nothing when the backend,
 * polling, took its requests before the event was handled.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: how long to hold the EOI back, xnb_spurious_hold() of the run:
 * 0 to send it now.
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
 *
 * May @nr more requests be consumed?  The responses we owe
 * (@req_cons - @rsp_prod_pvt: requests consumed and not answered yet,
 * those waiting in an unflushed batch included) plus @nr must fit in
 * the ring, or our responses would overwrite requests the guest posted.
 * Independent of the budget and of what the guest claims in req_prod.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: true when the responses we owe plus @nr fit in the ring.
 */
bool xnb_ring_room(u32 req_cons, u32 rsp_prod_pvt, u32 nr, u32 ring_size);

/**
 * xnb_ring_sane() - Whether a frontend's indices describe a possible ring.
 * @req_prod: the request producer index, as the frontend published it
 * @rsp_prod: the response producer index
 * @ring_size: the ring's size in slots
 *
 * At (re)connect the frontend's indices must describe a ring that could
 * exist: requests outstanding past the responses fit in the ring.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: true when @req_prod - @rsp_prod (the indices wrap) is at most
 * @ring_size.
 */
bool xnb_ring_sane(u32 req_prod, u32 rsp_prod, u32 ring_size);

/**
 * xnb_push_notify() - Whether a push of responses must notify the frontend.
 * @pushed: the response producer index the last push published, the
 *	backend's own copy
 * @rsp_prod: the one this push publishes
 * @rsp_event: the frontend's rsp_event, read after @rsp_prod was published
 *
 * The ring's rule: an event when the push crossed the index the frontend
 * asked to be told at, @rsp_event in (@pushed, @rsp_prod] (the indices
 * wrap).  The previous index is the backend's own, never the shared
 * rsp_prod, which the frontend can rewrite: a push of no new responses
 * (@rsp_prod equal to @pushed) never notifies, whatever the frontend
 * wrote in either field.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: true when the frontend is to be notified.
 */
bool xnb_push_notify(u32 pushed, u32 rsp_prod, u32 rsp_event);

/**
 * xnb_tx_parse() - Read one packet from the guest TX ring.
 * @ring: the shared TX ring's entries
 * @ring_size: the ring's size in slots, a power of two
 * @cons: the index of the packet's first slot
 * @avail: the slots the frontend published from @cons on
 * @lim: the vif's limits
 * @p: the packet read, our private copy
 *
 * Read one packet's slots starting at @cons, with @avail published by the
 * frontend, out of the shared @ring (each slot is read exactly once, so a
 * guest rewriting it concurrently cannot change a checked value).
 * On XNB_TX_OK and XNB_TX_DROP, @p->nr_slots slots are to be consumed and
 * answered; on XNB_TX_FATAL nothing is.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: XNB_TX_OK, XNB_TX_DROP or XNB_TX_FATAL (enum xnb_tx_verdict);
 * on the last two @p->reason says why.
 */
enum xnb_tx_verdict
xnb_tx_parse(const union xen_netif_tx_sring_entry *ring, u32 ring_size,
	     u32 cons, u32 avail, const struct xnb_tx_limits *lim,
	     struct xnb_tx_pkt *p);

/**
 * xnb_tx_reason_str() - Describe an enum xnb_tx_reason, for log lines.
 * @reason: the reason
 *
 * Context: Any context; no locks, no sleeping.
 * Return: a constant string; "unknown" for a value out of range.
 */
const char *xnb_tx_reason_str(unsigned int reason);

/**
 * xnb_tx_charge() - The ring slots a guest TX packet is charged in a turn.
 * @p: the packet, as xnb_tx_parse() returned it with XNB_TX_OK
 * @lim: the limits it was parsed with; only gso_max_segs is read
 *
 * The pass's cap and a turn's share count ring slots, a page of copy
 * each.  A GSO packet forwarded to a port without TSO is cut into its
 * segments, an skb each, in the pass that delivers it (tx.c), however
 * few slots it took: one of tiny segments makes far more skbs than it
 * has slots.  So a GSO packet is charged the more of its slots and one
 * slot per XNB_GSO_SEGS_PER_SLOT of the segments its length could make
 * (its headers counted as payload: a bound, not the count), and a pass
 * does work bounded in segments too: its turns stop once the cap is
 * charged, and the packet that crosses a limit makes XNB_GSO_MAX_SEGS
 * at most unless the admin raised the vif's gso_max_segs.  A packet of
 * more segments than @lim's gso_max_segs is dropped before it is cut:
 * it is charged as one of gso_max_segs + 1, no more.
 *
 * Every packet is charged XNB_TX_PKT_SLOTS at least.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: @p->nr_slots, or more for a small packet or a GSO packet of
 * many segments.
 */
u32 xnb_tx_charge(const struct xnb_tx_pkt *p,
		  const struct xnb_tx_limits *lim);

/**
 * xnb_rx_slots_needed() - Guest RX slots a packet needs.
 * @len: the packet's length in bytes
 * @gso: the packet is GSO (it needs a GSO extra)
 * @headroom: the guest's "xdp-headroom", in bytes
 *
 * Guest RX slots (one per page-sized buffer, plus a GSO extra).  The
 * first buffer starts the data @headroom bytes in (the guest's
 * "xdp-headroom", at most XNB_RX_HEADROOM_MAX; larger is taken as that).
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the number of slots.
 */
u32 xnb_rx_slots_needed(u32 len, bool gso, u32 headroom);

/**
 * xnb_rx_fits() - Whether a packet may go to the guest at all.
 * @len: the packet's length in bytes
 * @gso: the packet is GSO
 * @gso_negotiated: the guest negotiated the packet's GSO type
 * @can_sg: the guest takes scatter-gather
 * @headroom: the guest's "xdp-headroom", as for xnb_rx_slots_needed()
 *
 * May a packet of @len bytes go to the guest at all?  Its data, after
 * @headroom in the first buffer, must fit the XNB_TX_MAX_DATA buffers
 * netfront takes for one packet, or a single buffer without
 * scatter-gather (@can_sg); a GSO packet (@gso) needs its type
 * negotiated (@gso_negotiated) and scatter-gather.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: true when it may.
 */
bool xnb_rx_fits(u32 len, bool gso, bool gso_negotiated, bool can_sg,
		 u32 headroom);

/*
 * Guest RX notification moderation (rx.c): when a queue tells its guest
 * of new RX responses.  The responses are always pushed at once (the
 * shared rsp_prod moves at every flush): a guest still polling its ring
 * takes them with no event.  Only the event a guest asked for (it set
 * rsp_event and went idle) may wait: at most one goes per @usecs
 * microseconds, and one waits no longer than that after the last one
 * sent, nor once @frames packets or half the ring wait for it, nor while
 * the queue waits for buffers only the guest's handling of the event
 * brings.  The first after a quiet spell (none sent for @usecs) goes at
 * once, so a lone packet is never held.  Time is in nanoseconds, on a
 * monotonic clock.
 */
#define XNB_RXMOD_USECS_MAX	10000u	/* ethtool rx-usecs at most: 10 ms */
#define XNB_RXMOD_FRAMES_MAX	256u	/* rx-frames at most: a 4 KiB ring */
/* A hold shorter than this is none: putting a notification off costs a
 * timer, a kick and a turn, more than the event it would save.
 */
#define XNB_RXMOD_USECS_MIN	20u

/**
 * struct xnb_rxmod - One queue's guest RX notification, owed or not.
 * @last_ns: when the last one went (xnb_rxmod_sent()); 0: never
 * @due_ns: while @owed, when it goes at the latest
 * @pkts: packets answered since it became owed (saturating)
 * @slots: their ring slots (saturating)
 * @owed: the guest asked to be told (a push crossed its rsp_event) and
 *	was not told yet.  A push after that one does not ask again (the
 *	guest has not re-armed rsp_event): the debt must be kept here.
 * @deferred: the owed one was put off at least once
 *
 * Zeroed when the queue is made.
 */
struct xnb_rxmod {
	u64 last_ns;
	u64 due_ns;
	u32 pkts;
	u32 slots;
	bool owed;
	bool deferred;
};

/**
 * struct xnb_rxmod_limits - How long an owed notification may wait.
 * @usecs: at most one notification per this many microseconds; below
 *	XNB_RXMOD_USECS_MIN (0 too): none waits (no moderation)
 * @frames: it goes once this many packets wait; 0: no such limit;
 *	1: none waits
 * @slots_max: it goes once this many ring slots wait (the driver: half
 *	the ring, so the guest's buffers never run out for want of it)
 */
struct xnb_rxmod_limits {
	u32 usecs;
	u32 frames;
	u32 slots_max;
};

/**
 * enum xnb_rxmod_verdict - What to do with a queue's RX notification.
 * @XNB_RXMOD_NONE: none is owed
 * @XNB_RXMOD_NOW: send it now (if still wanted: xnb_rxmod_wanted())
 * @XNB_RXMOD_DEFER: it waits until &struct xnb_rxmod.due_ns at the
 *	latest: a timer must be armed for then
 */
enum xnb_rxmod_verdict {
	XNB_RXMOD_NONE,
	XNB_RXMOD_NOW,
	XNB_RXMOD_DEFER,
};

/**
 * xnb_rxmod_decide() - Notify the guest now, later, or not at all.
 * @m: the queue's state
 * @asked: this push of the RX ring crossed the guest's rsp_event
 *	(xnb_ring_push() said to notify)
 * @pkts: packets this push answered (0 for a look without a push: the
 *	queue's timer or a turn)
 * @slots: their ring slots
 * @starved: the queue waits for RX buffers from the guest
 * @now: the time, in ns
 * @lim: the limits in force
 *
 * A notification becomes owed when a push is @asked and is then owed
 * until sent; what waits for it is counted from then.  It goes now when
 * moderation is off (@lim->usecs below XNB_RXMOD_USECS_MIN or
 * @lim->frames 1), when the last
 * one went @lim->usecs ago or more (the queue was quiet: a lone packet
 * goes at once), at its due time, once @lim->frames packets or
 * @lim->slots_max slots wait, or when the queue is @starved (the guest
 * posts buffers once it has handled the event: holding it would stall
 * both).  Otherwise it waits until its due time: @lim->usecs after the
 * last one sent, never later than the due time it was first given.
 * NOW clears the debt; the caller, if it does send the notification (the
 * guest may no longer want it: xnb_rxmod_wanted()), says so with
 * xnb_rxmod_sent(), so that one found unneeded does not make the next
 * lone packet wait.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the verdict; for XNB_RXMOD_DEFER, @m->due_ns is when, later
 * than @now and no more than @lim->usecs after @m->last_ns.
 */
enum xnb_rxmod_verdict xnb_rxmod_decide(struct xnb_rxmod *m, bool asked,
					u32 pkts, u32 slots, bool starved,
					u64 now,
					const struct xnb_rxmod_limits *lim);

/**
 * xnb_rxmod_sent() - A notification went to the guest.
 * @m: the queue's state
 * @now: when, in ns (the clock xnb_rxmod_decide() was given)
 *
 * Context: Any context; no locks, no sleeping.
 */
void xnb_rxmod_sent(struct xnb_rxmod *m, u64 now);

/**
 * xnb_rxmod_wanted() - Whether the guest still waits for an RX event.
 * @rsp_prod: the RX response producer index we published
 * @rsp_event: the guest's rsp_event, read after @rsp_prod was published
 * @ring_size: the ring's size in slots
 *
 * A notification that waited may find the guest done: polling, it took
 * every response, then re-armed rsp_event past them (to rsp_cons + 1,
 * i.e. @rsp_prod + 1) and went idle.  An event then would find no work,
 * which netfront counts as spurious: a run of those makes its kernel
 * hold the channel's EOI back, for up to a second.  So it is not sent:
 * the guest saw every response before it re-armed (it reads rsp_prod
 * after writing rsp_event), and the next push past rsp_event asks anew.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: false when the guest asked only for responses not produced
 * yet (@rsp_event in [@rsp_prod + 1, @rsp_prod + @ring_size]); else true.
 */
bool xnb_rxmod_wanted(u32 rsp_prod, u32 rsp_event, u32 ring_size);

/*
 * Credit-based TX shaping, the stock "bytes,usec" format of the backend's
 * "rate" key.  Time is in microseconds.
 */
#define XNB_CREDIT_MAX	0x10000000000ULL	/* 2^40 bytes a period: no limit */
/* Credit the bucket may hold beyond a small period's (as the stock driver). */
#define XNB_CREDIT_BURST	131072ULL
/* Waits past this (2^62 us) are reported as ~0: far below the 2^63 at
 * which the wrap-safe clock comparison would read them as the past.
 */
#define XNB_CREDIT_WAIT_MAX	0x4000000000000000ULL	/* 2^62 */

struct xnb_credit {
	u64 bytes;		/* credit added per period; 0 = unlimited */
	u64 usec;		/* period length */
	s64 balance;		/* credit left, at most max(@bytes, burst); < 0: debt */
	u64 next_refill;	/* time at which the next period starts */
};

/**
 * xnb_credit_parse() - Parse the value of the "rate" key.
 * @s: the value, a NUL-terminated string
 * @bytes: set to the credit per period, in bytes
 * @usec: set to the period, in microseconds
 *
 * Parse "bytes,usec" (decimal, usec 1..2^32-1, one trailing newline
 * allowed).
 *
 * Context: Any context; no locks, no sleeping.
 * Return: true when @s is valid; false on bad input, leaving *@bytes and
 * *@usec alone.
 */
bool xnb_credit_parse(const char *s, u64 *bytes, u64 *usec);
/**
 * xnb_credit_set() - Set a credit limit.
 * @c: the credit state
 * @bytes: the credit added per period, in bytes; 0: no limit
 * @usec: the period, in microseconds
 * @now: the time, in microseconds
 *
 * @bytes above XNB_CREDIT_MAX is taken as XNB_CREDIT_MAX.  The first
 * period starts at @now, with its credit.
 *
 * Context: Any context; no locks, no sleeping.
 */
void xnb_credit_set(struct xnb_credit *c, u64 bytes, u64 usec, u64 now);
/**
 * xnb_credit_take() - Take the credit for a packet, if it may go.
 * @c: the credit state
 * @len: the packet's length in bytes
 * @now: the time, in microseconds
 * @wait_us: set, when the packet may not go yet, to the wait in
 *	microseconds
 *
 * May a packet of @len bytes go at time @now?  A token bucket of @bytes
 * per @usec: a packet goes while any credit is left and may leave a debt
 * that later periods pay back, so the long-run rate is exact whatever
 * the packet sizes (a 64 KiB GSO packet on a 60 KB-per-period limit is
 * neither stuck nor free).
 *
 * Context: Any context; no locks, no sleeping.
 * Return: true when the packet may go (always without a limit).
 * Otherwise false, and *@wait_us is set to the time until the packet may
 * go, or to ~0 when that is beyond XNB_CREDIT_WAIT_MAX (only absurd
 * limits, such as 1 byte an hour, get there; the caller then simply asks
 * again later).
 */
bool xnb_credit_take(struct xnb_credit *c, u32 len, u64 now, u64 *wait_us);

/**
 * xnb_pick_group() - Choose a worker group for a queue.
 * @load: the number of queues each group serves
 * @nr_groups: the number of groups, entries of @load
 *
 * Worker-group choice: the group with the fewest queues, lowest index on
 * ties.  @load[i] is the number of queues group i serves.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the index of the group chosen.
 */
unsigned int xnb_pick_group(const u32 *load, unsigned int nr_groups);

/**
 * struct xnb_batch_layout - A worker group's batch, in one allocation.
 * @inflight: offset of the in-flight entries, in bytes
 * @retry_idx: offset of the retry indices (u16), in bytes
 * @bytes: the size of the whole block
 *
 * The copy ops come first (offset 0), then the in-flight entries, then
 * the indices of the ops a GNTST_eagain retry reissues (copy.c).
 */
struct xnb_batch_layout {
	u32 inflight;
	u32 retry_idx;
	u32 bytes;
};

/**
 * xnb_batch_layout() - Lay out a worker group's batch in one block.
 * @n: the batch size: copy ops, in-flight entries and retry indices
 * @op_size: the size of a copy op (struct gnttab_copy)
 * @inflight_size: the size of an in-flight entry (struct xnb_inflight)
 * @l: filled with the offsets and the total
 *
 * One block rather than one allocation per array: a kmalloc() of more
 * than two pages takes a power of two of them, so three arrays of 10 KiB
 * took 16 KiB each; copy.c vmallocs the block, which takes whole pages,
 * no more.  Each part starts at a multiple of 8 bytes, the alignment of
 * the first two (their sizes are multiples of it on 64-bit kernels; on
 * 32-bit ones the padding is added here).
 *
 * Context: Any context; no locks, no sleeping.
 * Return: true with *@l filled; false when @n or a size is 0, or the
 * block would not fit in a u32.
 */
bool xnb_batch_layout(u32 n, u32 op_size, u32 inflight_size,
		      struct xnb_batch_layout *l);

/**
 * xnb_retry_gather() - Move the ops to retry to the front of a batch.
 * @ops: the batch's copy ops, @n of them, each @size bytes
 * @size: the size of an op
 * @status_off: the offset of an op's status (an s16) in it
 * @n: the number of ops
 * @again: the status of an op to retry (GNTST_eagain)
 * @idx: filled with, for each op moved to the front, where it came from
 *
 * A GNTST_eagain retry reissues only the ops that came back so, in one
 * hypercall, which wants them side by side: each is swapped with the
 * first op not to retry, in place, so the batch needs no second array
 * of ops for them (copy.c).  xnb_retry_scatter() puts every op back.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the number of ops to retry, now @ops[0] to @ops[return - 1];
 * @idx holds that many entries.
 */
u32 xnb_retry_gather(void *ops, u32 size, u32 status_off, u32 n, s16 again,
		     u16 *idx);

/**
 * xnb_retry_scatter() - Put the ops xnb_retry_gather() moved back.
 * @ops: the batch's copy ops
 * @size: the size of an op
 * @m: what xnb_retry_gather() returned
 * @idx: what it filled in
 *
 * Undoes the swaps in reverse order: every op, with the status the retry
 * gave it, is back where it was, in the in-flight packet that owns it.
 *
 * Context: Any context; no locks, no sleeping.
 */
void xnb_retry_scatter(void *ops, u32 size, u32 m, const u16 *idx);

/* In xnb_cpu_place()'s load array: a CPU that takes no group (offline,
 * or on its way out).
 */
#define XNB_CPU_OFF	0xffffffffu

/**
 * struct xnb_cpu_slot - Where one worker group runs, for xnb_cpu_place().
 * @home: the CPU the group was given when its set was made
 * @cur: the CPU it runs on now
 */
struct xnb_cpu_slot {
	u32 home;
	u32 cur;
};

/**
 * xnb_cpu_place() - Where worker groups run as CPUs go and come back.
 * @g: each group's home and current CPU; @g[i].cur is updated
 * @nr_groups: entries of @g
 * @load: by CPU number, 0 for a CPU that may take groups and XNB_CPU_OFF
 *	for one that may not; on return, the groups on each CPU that may
 * @nr_cpus: entries of @load
 *
 * CPU hotplug (groupset.c): called with the CPUs as they will be once the
 * change is done.  A group whose home may take groups runs there.  Any
 * other group stays where it runs if that CPU may take groups, else it
 * goes to the one with the fewest groups (lowest number on ties),
 * counting the groups placed before it, so that displaced groups spread.
 * A CPU number at or past @nr_cpus counts as one that may not.  With no
 * CPU that may, the groups stay where they are.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the number of groups whose @cur changed.
 */
u32 xnb_cpu_place(struct xnb_cpu_slot *g, u32 nr_groups, u32 *load,
		  u32 nr_cpus);

/* The least a queue's turn gets, unless the budget is smaller. */
#define XNB_SHARE_FLOOR	8u

/**
 * xnb_queue_share() - The ring slots of a queue's turn in its group's pass.
 * @budget: the budget parameter: a vif's slots per pass of a group
 * @active: the vif's queues with work in the group, this one included
 * @used: the slots the pass has given the vif's other queues
 *
 * A queue's turn in its group's pass (pass.c): the ring slots it may
 * use, each way.
 *
 * A vif gets @budget slots (the budget parameter) per pass of a group,
 * split evenly among its @active queues with work in that group (this
 * one included; 0 counts as 1), but at least XNB_SHARE_FLOOR each (a
 * turn of a slot or two costs more than it moves) unless @budget is
 * smaller.  Never more than what the pass has not yet given the vif's
 * other queues (@used): a vif's total per pass stays within @budget
 * however many queues it has.  0 when nothing is left: the queue waits
 * for the next pass, where the caller serves it before those served in
 * this one, so with the floor a many-queue vif's queues take turns.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the slots the queue may use, each way; 0 when nothing is left.
 */
u32 xnb_queue_share(u32 budget, u32 active, u32 used);

/*
 * A group's pass (pass.c): the work one poll may do, and what the poll
 * does next.  The pass gives queues their turns from the head of the
 * active list.  It starts no further turn once NAPI's budget (guest TX
 * packets, the ones that go up the stack) is used, or once its turns
 * used XNB_PASS_SLOTS ring slots, both directions counted, a turn that
 * used none counting one (xnb_pass_turn_end()): so a pass gives at most
 * XNB_PASS_SLOTS turns.  A turn is clipped to what is left of the cap
 * (xnb_pass_turn_slots()): RX gets that, less a part for waiting TX
 * (xnb_pass_rx_slots()), TX what RX left of it (xnb_pass_tx_slots()),
 * each no more than its share of the turn (xnb_pass_turn_share()) and a
 * slot at least while it has one: a way cut goes on in the next pass
 * with its rest (xnb_pass_turn_left()), unless its queue is the only
 * one active, which starts a new turn.  Only the packet that crosses a
 * limit still goes, so a pass moves at most XNB_PASS_MAX_SLOTS, whatever
 * the budget and however many vifs the group serves; what it took past
 * its turn's share, its queue owes its next turns (xnb_pass_debt()).
 * The queues not reached stay at the head of the list and come first in
 * the next poll: the list is the round-robin cursor.  A slot carries at
 * most a page: a pass copies at most XNB_PASS_MAX_SLOTS pages.  A guest
 * TX packet is charged xnb_tx_charge(), its slots or more: what the pass
 * counts is a bound of its work, the segments a GSO packet makes too.
 */
#define XNB_PASS_SLOTS		256u
/* The most a pass's turns use: XNB_PASS_SLOTS - 1 before its last turn,
 * then a guest RX packet and a guest TX packet that cross the cap.
 */
#define XNB_PASS_MAX_SLOTS	(XNB_PASS_SLOTS - 1u + XNB_RX_MAX_SLOTS + \
				 XNB_TX_MAX_SLOTS)
/* Passes one poll runs at most, for queues kicked during the ones
 * before; a light poll that still finds queues then is sustained load.
 */
#define XNB_POLL_PASSES		4u

/**
 * enum xnb_pass_stop - Why a pass started no further turn.
 * @XNB_PASS_GO: it did not stop early: it served every queue it took
 * @XNB_PASS_STOP_NAPI: NAPI's budget was used, queues were left
 * @XNB_PASS_STOP_CAP: XNB_PASS_SLOTS were used, queues were left
 */
enum xnb_pass_stop {
	XNB_PASS_GO,
	XNB_PASS_STOP_NAPI,
	XNB_PASS_STOP_CAP,
};

/**
 * struct xnb_pass_acct - What a pass did, as it goes.
 * @napi_budget: NAPI's budget for the poll: guest TX packets
 * @cap: the ring slots, both directions, after which no turn starts
 * @tx_packets: guest TX packets taken off the rings (NAPI's count)
 * @slots: ring slots used, both directions
 * @stopped: enum xnb_pass_stop
 * @requeued: a queue was put back with work left, or left waiting
 *	for its vif's next budget: the group has work no kick will announce
 */
struct xnb_pass_acct {
	u32 napi_budget;
	u32 cap;
	u32 tx_packets;
	u32 slots;
	u8 stopped;
	bool requeued;
};

/**
 * xnb_pass_begin() - Start a pass's account.
 * @a: the account
 * @napi_budget: NAPI's budget for the poll (0, netpoll's, runs no pass)
 * @cap: the slots after which no turn starts (XNB_PASS_SLOTS)
 *
 * Context: Any context; no locks, no sleeping.
 */
void xnb_pass_begin(struct xnb_pass_acct *a, u32 napi_budget, u32 cap);

/**
 * xnb_pass_may_serve() - Whether the pass may start another turn.
 * @a: the pass's account
 *
 * Asked before each turn, while queues wait for one.  Refused once
 * NAPI's budget is used or @a->cap slots are: then @a->stopped says
 * which (NAPI's budget first).
 *
 * Context: Any context; no locks, no sleeping.
 * Return: true when a turn may start.
 */
bool xnb_pass_may_serve(struct xnb_pass_acct *a);

/**
 * xnb_pass_turn_slots() - What is left of the cap for a turn.
 * @a: the pass's account, which may serve (xnb_pass_may_serve())
 * @share: the turn's share (xnb_pass_turn_share())
 *
 * A turn uses no more of the cap than is left of it, so the cap bounds
 * the pass whatever the budget: @share, clipped to the slots left below
 * @a->cap, and one at least (the turn of a direction served after the
 * other took the rest still moves a packet; the cap holds the pass's
 * next turn off).  A clipped turn is what the queue was given: its vif
 * is charged that in this pass, not its share (pass.c), and what each
 * way has left goes on in the next pass (xnb_pass_turn_left()).
 *
 * Context: Any context; no locks, no sleeping.
 * Return: max(1, min(@share, @a->cap - @a->slots)).
 */
u32 xnb_pass_turn_slots(const struct xnb_pass_acct *a, u32 share);

/**
 * struct xnb_pass_ways - Slots of a queue's turn, each way.
 * @rx: guest RX slots (dom0->guest)
 * @tx: guest TX slots (guest->dom0)
 */
struct xnb_pass_ways {
	u32 rx;
	u32 tx;
};

/*
 * The most a queue owes each way (xnb_pass_debt()): a pass's worth,
 * more than any packet's excess over a share at the vif's default
 * gso_max_segs (a packet is charged 171 slots at most, xnb_tx_charge()),
 * and what a queue repays in 4 turns at the default budget.
 */
#define XNB_PASS_DEBT_MAX	XNB_PASS_SLOTS

/**
 * xnb_pass_turn_share() - A turn's share, each way.
 * @left: what the queue's last turn, cut, has left each way (both 0:
 *	none was cut, this turn is a new one)
 * @share: the vif's share for the queue (xnb_queue_share())
 * @alone: no other queue of the group is active (on its list, waiting
 *	or put back in this pass): none waits for this one's turn to end
 * @debt: what the queue's past turns spent past their share each way
 *	(xnb_pass_debt()); a new turn pays from it, @alone clears it
 * @way: set to the turn's share each way
 *
 * A new turn has @share each way, less the queue's @debt that way: the
 * packet that crossed a past turn's share went whole, and what it took
 * past the share is paid back here (deficit round robin), so over its
 * turns a queue gets its share and no more, however large its packets
 * are charged (xnb_tx_charge()).  A debt of @share or more takes the
 * whole way, which sits the turn out; the rest stays owed for the next
 * turns.  A cut one goes on with what each way has left, @share at
 * most: a way that had its share, or stopped short of its limit, has
 * none left and sits the rest of the turn out (a new share there would
 * keep the queue at the head of the list for good); the debt waits for
 * the next new turn.  A queue @alone starts a new turn every pass, cut
 * or not, and owes nothing: the rest and the debt keep its turns fair
 * to the others, and there are none; carried, a way done while the
 * other's rest drains would sit out with work and the cap mostly
 * unused (at budget=1024 a lone queue receiving GSO packets while it
 * sends ACKs got less RX than at 64), and a debt would only idle it.
 * A queue that joins meanwhile waits no longer than behind a turn begun
 * as it joined.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the more of @way's two, what the turn is given (and its vif
 * charged) before the cap clips it (xnb_pass_turn_slots()); 0 when the
 * debt took both ways: the turn moves nothing.
 */
u32 xnb_pass_turn_share(const struct xnb_pass_ways *left, u32 share,
			bool alone, struct xnb_pass_ways *debt,
			struct xnb_pass_ways *way);

/**
 * xnb_pass_debt() - What a queue owes after one way of a turn.
 * @debt: what it owed that way before (xnb_pass_turn_share() took the
 *	turn's payment from it already)
 * @share: the way's share of the turn (xnb_pass_turn_share())
 * @used: the slots the way used, each packet as it was charged
 *
 * Asked for each way once both had their go.  A turn stops once it
 * used its share, but the packet that crosses it still goes whole:
 * what it used past @share is owed, and paid from the queue's next
 * turns.  Owed at most XNB_PASS_DEBT_MAX: a packet charged more (a GSO
 * packet under a gso_max_segs the admin raised) costs its queue that
 * much.  A queue keeps what it owes while idle: one that drains between
 * its packets would otherwise owe nothing each time it comes back.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: @debt plus what @used is past @share, XNB_PASS_DEBT_MAX at
 * most.
 */
u32 xnb_pass_debt(u32 debt, u32 share, u32 used);

/**
 * xnb_pass_turn_left() - What one way of a turn has left once cut.
 * @share: the way's share of the turn (xnb_pass_turn_share())
 * @limit: the slots it had (xnb_pass_rx_slots(), xnb_pass_tx_slots())
 * @used: the slots it used
 *
 * Asked for each way once both had their go.  A way was cut when it
 * stopped at a limit below its share: RX's clipped to what is left of
 * the cap, less TX's part of it; TX's clipped to what RX left of the
 * cap or to the packets NAPI's budget has left.  A way cut goes on
 * first in the next pass with what is left of its share, so the packet
 * crossing each piece's limit counts and a cut turn gets, each way, no
 * more than a whole one.  Each way counts alone: a queue busy both ways
 * whose TX the cap or NAPI's budget cut while its RX had its share
 * still gets the rest of its TX share; without this a queue cut at the
 * end of every pass, the same one in a steady rotation, would lose it
 * each time.  A way that stopped short of its limit (no more packets,
 * no guest buffers, TX held for credit) was not cut, nor one with a
 * limit of 0 (a way with nothing left, or TX once NAPI's budget is
 * spent: its rest would never shrink).  A piece of a cut way uses a
 * slot at least, so its rest shrinks every pass.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: @share - @used for a way cut that did not use its share;
 * else 0.
 */
u32 xnb_pass_turn_left(u32 share, u32 limit, u32 used);

/**
 * xnb_pass_rx_slots() - The guest RX slots of a turn.
 * @a: the pass's account, which may serve (xnb_pass_may_serve())
 * @turn: the turn's RX slots (its RX share clipped to the cap's rest)
 * @tx_turn: the turn's TX slots, the same way, or 0 when no guest TX
 *	requests wait on the queue's ring
 *
 * RX goes first in a turn.  When the turn is clipped by the cap, RX
 * alone could use all of it and leave guest TX a packet per pass (the
 * guests' ACKs of what they receive among them), so while TX requests
 * wait RX leaves it the slots TX would get (xnb_pass_tx_slots()), at
 * most half of what is left of the cap.  A turn that fits the cap twice
 * is not split.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: @turn, less TX's part of the cap, one at least; 0 for a turn
 * with no RX (@turn 0: a cut turn whose RX is done).
 */
u32 xnb_pass_rx_slots(const struct xnb_pass_acct *a, u32 turn, u32 tx_turn);

/**
 * xnb_pass_rx_split() - Whether waiting TX can change a turn's RX slots.
 * @a: the pass's account, which may serve (xnb_pass_may_serve())
 * @turn: the turn's slots each way (xnb_pass_turn_slots())
 *
 * TX's part of the cap is at most half of what is left of it, so a turn
 * that fits in the rest gets the same RX slots whether TX requests wait
 * or not: the caller need not look at the guest's TX ring (group.c's
 * xnb_tx_waiting()) to size it.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: false when xnb_pass_rx_slots(@a, @turn, any TX turn) and
 * xnb_pass_rx_slots(@a, @turn, 0) are equal for sure.
 */
bool xnb_pass_rx_split(const struct xnb_pass_acct *a, u32 turn);

/**
 * xnb_pass_tx_slots() - The guest TX slots of a turn.
 * @a: the pass's account, which may serve (xnb_pass_may_serve()), with
 *	the turn's RX charged already
 * @share: the turn's share (xnb_queue_share())
 *
 * Every guest TX packet is charged XNB_TX_PKT_SLOTS at least, so a turn
 * gets no more slots than that many for each packet NAPI's budget has
 * left; nor more than RX left of
 * the cap (xnb_pass_turn_slots(), a slot at least: the turn's TX still
 * moves a packet after RX took the rest).  Once NAPI's budget is spent,
 * none: not from pass.c, whose pass starts no turn then and whose RX
 * takes none of that budget.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: min(@share, XNB_TX_PKT_SLOTS times the packets NAPI's budget
 * has left, what is left of the cap or one if none is); 0 when NAPI's
 * budget is spent or
 * @share is 0.
 */
u32 xnb_pass_tx_slots(const struct xnb_pass_acct *a, u32 share);

/**
 * xnb_pass_charge() - Count a turn's work.
 * @a: the pass's account
 * @tx_packets: the guest TX packets the turn took off the ring
 * @slots: the ring slots it used, both directions
 *
 * Context: Any context; no locks, no sleeping.
 */
void xnb_pass_charge(struct xnb_pass_acct *a, u32 tx_packets, u32 slots);

/**
 * xnb_pass_turn_end() - Close a turn's account.
 * @a: the pass's account
 * @start: @a->slots when the turn began
 *
 * A turn that used no slot (a disabled vif, RX waiting for guest
 * buffers, TX held for credit, a full response ring) still cost a look
 * at the queue: it is charged one, so the cap bounds the number of
 * turns of a pass too (XNB_PASS_SLOTS), not only their slots.
 *
 * Context: Any context; no locks, no sleeping.
 */
void xnb_pass_turn_end(struct xnb_pass_acct *a, u32 start);

/**
 * enum xnb_pass_next - What the poll does once its pass is over.
 * @XNB_NEXT_COMPLETE: napi_complete_done(); the thread hands the passes
 *	back to the light context; sleep until a kick
 * @XNB_NEXT_AGAIN: the thread, or worker=tasklet's softirq: return the
 *	whole budget, to be polled again
 * @XNB_NEXT_HANDOFF: the light context: give the passes to the thread
 */
enum xnb_pass_next {
	XNB_NEXT_COMPLETE,
	XNB_NEXT_AGAIN,
	XNB_NEXT_HANDOFF,
};

/**
 * enum xnb_handoff_reason - Why the passes changed context.
 * @XNB_HANDOFF_BUDGET: a light pass used NAPI's whole budget
 * @XNB_HANDOFF_REQUEUED: a queue had work past its share
 * @XNB_HANDOFF_PASSES: a light poll ran XNB_POLL_PASSES, queues were left
 * @XNB_HANDOFF_IDLE: a thread pass drained the group
 * @XNB_HANDOFF_CAP: a light pass used XNB_PASS_SLOTS, queues were left
 */
enum xnb_handoff_reason {
	XNB_HANDOFF_BUDGET,
	XNB_HANDOFF_REQUEUED,
	XNB_HANDOFF_PASSES,
	XNB_HANDOFF_IDLE,
	XNB_HANDOFF_CAP,
};

/**
 * struct xnb_pass_verdict - The poll's next step (xnb_pass_decide()).
 * @next: enum xnb_pass_next
 * @reason: enum xnb_handoff_reason, for XNB_NEXT_HANDOFF
 * @ret: what the poll returns: NAPI's budget for XNB_NEXT_AGAIN, else
 *	less than it (NAPI's rule for a completed context)
 */
struct xnb_pass_verdict {
	u8 next;
	u8 reason;
	u32 ret;
};

/**
 * xnb_pass_decide() - What the poll does after its passes.
 * @a: the poll's account, over all its passes
 * @light: the poll is the light (softirq) context's
 * @active: queues are on the group's active list now
 * @passes: the passes the poll ran
 * @v: the verdict
 *
 * The light context hands the passes to the thread under sustained
 * load: its passes used NAPI's budget, or stopped at XNB_PASS_SLOTS with
 * queues left (dom0->guest work counts there), or put a queue back, or
 * ran XNB_POLL_PASSES and still left queues active; else it completes
 * once the group is idle.  The thread, or worker=tasklet's softirq, is
 * polled again while either of the first two holds or queues are
 * active, and completes once the group is idle.  No verdict completes
 * with queues active: their kicks scheduled nothing (group.c).
 *
 * Context: Any context; no locks, no sleeping.
 */
void xnb_pass_decide(const struct xnb_pass_acct *a, bool light, bool active,
		     u32 passes, struct xnb_pass_verdict *v);

/* Live rebalancing (balance.c): see xnb_balance_pick() below. */
#define XNB_BAL_SCALE	1000u	/* busy is in 1/XNB_BAL_SCALE */
/* Poll time understates saturation: where the stack's consumers share
 * the group's CPU (dom0's usual case, and the lab's), a group that is
 * the bottleneck was measured at 50-70 % busy, an idle one at 1 %.
 */
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

/**
 * xnb_busy_share() - How busy a group was over a window.
 * @busy_then: the group's time in passes (ns) at the window's start
 * @busy_now: the same at its end
 * @dt: the window's length (ns)
 *
 * The balancer's measure (balance.c), and sysfs's busy_pct.  A pass
 * that straddles the window's start counts in full, so the busy time
 * may exceed @dt: clamped to it.  Any window length is taken, without
 * overflow.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: the busy time over @dt in 1/XNB_BAL_SCALE (rounded down), at
 * most XNB_BAL_SCALE; 0 for an empty window or a count that went back.
 */
u32 xnb_busy_share(u64 busy_then, u64 busy_now, u64 dt);

/**
 * xnb_balance_pick() - Pick a queue to move from the busiest group.
 * @busy: how busy each group was over the interval, in permille
 * @nr_groups: the number of groups, entries of @busy
 * @q: each queue's load, group, and whether it is fixed
 * @nr_queues: the number of queues, entries of @q
 * @st: the imbalance so far, carried from one call to the next
 * @mv: set to the move, when there is one
 *
 * Live rebalancing (balance.c): once per interval, given how busy each
 * group was (@busy[g], permille of the interval spent in its poll) and
 * what each queue was served (@q[i].load, in any unit common to all
 * queues), pick at most one queue to move from the busiest group to
 * the idlest.
 *
 * A move needs the busiest group at XNB_BAL_HIGH or more and the idlest
 * at least XNB_BAL_GAP below it, with the same busiest group for
 * XNB_BAL_STREAK intervals in a row (*@st carries that from one call to
 * the next; zero it when the group set changes).  A queue of the busiest
 * group is assumed to take its share of the group's load with it.  The
 * one chosen narrows the gap the most, among those that narrow it and
 * leave the idlest group less than XNB_BAL_GAP / 2 above the busiest:
 * estimates are rough, and a move that made the reverse move look worth
 * it would ping-pong (a lone heavy queue stays where it is).  Queues
 * marked fixed (pinned, just moved, not measured yet) never move.
 *
 * Context: Any context; no locks, no sleeping.
 * Return: true with *@mv filled when a queue should move; else false.
 */
bool xnb_balance_pick(const u32 *busy, u32 nr_groups,
		      const struct xnb_bal_queue *q, u32 nr_queues,
		      struct xnb_bal_state *st, struct xnb_bal_move *mv);

#endif /* XNB_PROTO_H */
