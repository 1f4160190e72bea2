/* SPDX-License-Identifier: GPL-2.0 */
/* xen-netback with a worker-group dataplane.
 *
 * Who runs what:
 *
 *   xenbus watch thread (process context, may sleep; a connect the
 *   reconnect back-off held runs in xenbus.c's connect work instead,
 *   under the same backend lock: "the xenbus thread" elsewhere means
 *   either)
 *     xenbus.c   probe/remove, frontend state changes, "rate",
 *                "worker-group", "hotplug-status" and the frontend's
 *                "request-multicast-control" watches
 *     interface.c  xnb_vif_create, xnb_vif_alloc_queues +
 *                xnb_vif_connect_queue + xnb_vif_start (connect),
 *                xnb_vif_disconnect, xnb_vif_destroy,
 *                xnb_vif_set_pinned (moves queues between groups)
 *     groupset.c xnb_group_attach/detach (take group->lock, wait for
 *                the group's poll to end; attach points the queue's
 *                irqs at the group's CPU, and makes a group ready for
 *                its first queue: group.c's xnb_group_prepare)
 *
 *   xenbus reader thread (process context, under the xenbus core's
 *   watches spinlock: may not sleep)
 *     xenbus.c   xnb_mcast_will_handle: queue a watch event or not
 *
 *   event channel hard irq (lateeoi)
 *     interface.c  xnb_tx_interrupt, xnb_rx_interrupt, xnb_interrupt:
 *                mark work and kick the group when tx.c/rx.c judge the
 *                event genuine (xnb_tx_event, xnb_rx_event), owe the
 *                EOI to the credit timer's pass for a held queue, else
 *                a spurious EOI; xnb_vif_eoi is sent by the group once
 *                the ring drained, spurious when it found no work
 *
 *   netdev transmit path (softirq or process, BH off)
 *     rx.c       xnb_start_xmit: queues an skb for the guest, kicks
 *                once per burst (netdev_xmit_more())
 *
 *   stats readers (any context; take vif->stats_lock)
 *     stats.c    ndo_get_stats64 (xnb_stats_fold), ethtool -S
 *     groupset.c debugfs "groups" (takes each group->lock)
 *     interface.c debugfs vif-<domid>-<devid>/io_ring_q<N>: one queue's
 *                ring indices, no lock (the disconnect removes the
 *                files before the rings go, which waits for the reads
 *                under way)
 *     sysfs.c    /sys/module/xen_netback/groups/<n>/ (process context,
 *                takes xnb_assign_mutex); group counters through
 *                xnb_group_stats_read() here and in debugfs and balance.c;
 *                a write of 0 to max_pass_us or max_pass_slots resets it
 *
 *   worker group: NAPI, main.c's worker param.  worker=kthread: a
 *   softirq context polls while the load is light (in the softirq that
 *   took the event), sustained load goes to a threaded context bound to
 *   the group's CPU, and back once idle.  worker=tasklet: one softirq
 *   context.  Either way one pass at a time per group (pass_busy).
 *     group.c    xnb_group_run: which context runs the pass, the
 *                handoff light <-> thread (decided by proto.c)
 *     pass.c     xnb_group_pass: round-robin over active queues with a
 *                per-queue budget, paced by the NAPI budget, each pass
 *                capped at XNB_PASS_SLOTS ring slots both ways (the
 *                accounting is proto.c's)
 *     tx.c       xnb_tx_gather, then at the flush xnb_tx_complete and
 *                xnb_tx_deliver (napi_gro_receive on the polling
 *                context): guest -> dom0
 *     rx.c       xnb_rx_gather, then at the flush xnb_rx_complete:
 *                dom0 -> guest; the push tells the guest at once or
 *                later (moderation: proto.c decides, coalesce.c's
 *                timer and net_dim), and each turn sends one due
 *     copy.c     the group's batch of grant copies and its flush, which
 *                completes and pushes each packet in tx.c or rx.c
 *     interface.c  xnb_vif_fatal: a protocol violation disables the vif
 *
 *   The pass calls pass.c -> tx.c, rx.c -> copy.c, and copy.c's flush
 *   calls back into tx.c and rx.c; proto.c is below them all.
 *
 *   timers (softirq)
 *     tx.c       credit timer: kicks the group when credit is back
 *     rx.c       stall timer: kicks the group to check a stalled queue
 *     coalesce.c each queue's notify timer (an hrtimer, hard irq): kicks
 *                the group when a guest RX notification put off is due
 *                (the pass sends it: rx.c, xnb_rx_notify_check)
 *
 *   system_wq
 *     coalesce.c net_dim's work: applies the RX moderation profile
 *                net_dim chose for a queue (scheduled by net_dim(),
 *                which the pass calls after each notification)
 *     xenbus.c   xnb_connect_work: a connect the reconnect back-off
 *                held, at the end of its hold, under the backend's lock
 *                (interface.c's connect, as from the xenbus thread);
 *                remove cancels it and waits
 *
 *   ethtool (process context, under rtnl)
 *     coalesce.c get_coalesce/set_coalesce: the vif's RX notification
 *                moderation (rx-usecs, rx-frames, adaptive-rx)
 *     stats.c    -S's per-queue rows and -l's count (vif->stats_queues),
 *                -l's maximum (vif->max_queues, the offer)
 *     interface.c  each channel's back-off timer: sends an EOI held
 *                back from a storm (xnb_lateeoi)
 *
 *   sysfs parameter writes (process context; the files exist before
 *   module init runs and until after exit returned)
 *     main.c     groups, copy_batch: groupset.c swaps, group.c resizes
 *                the groups under the assign mutex
 *                (xnb_groups_set_count/_batch),
 *                under which init and exit also take the groups up and
 *                down (a new set is made under cpus_read_lock() too, so
 *                the CPUs it chose stay online until it is published,
 *                and dropped then: the queues move under the mutex;
 *                kept over the moves without a CPU hotplug state);
 *                then for groups sysfs.c makes the new set's
 *                directories (xnb_sysfs_update, outside that mutex);
 *                rebalance_ms: (re)arms the balancer's work with its
 *                new period, only between xnb_balance_start and _stop
 *
 *   balancer: a delayed work item on system_wq every rebalance_ms
 *     balance.c  xnb_balance_run: under the assign mutex, measures each
 *                group's busy time and each queue's load, asks proto.c
 *                (xnb_balance_pick) and moves at most one queue with
 *                groupset.c's xnb_group_move_locked (waits for the old
 *                group's poll, like a pin).  With rebalance_ms=0 it
 *                runs every XNB_BUSY_WINDOW_MS and only measures (the
 *                window sysfs's busy_pct shows), as deferrable work on
 *                system_power_efficient_wq.  Not re-armed while no
 *                group serves a queue; xnb_group_attach arms it again
 *                (xnb_balance_queue_added, under the assign mutex)
 *
 *   CPU hotplug: the hotplug thread of the CPU coming or going (process
 *   context, may sleep; the hotplug holds the CPU hotplug lock)
 *     groupset.c xnb_cpu_online, xnb_cpu_offline (dynamic state
 *                "net/xen-netback:online", CPUHP_AP_ONLINE_DYN): under
 *                the assign mutex, move the groups off a CPU going
 *                offline and back home when it returns (NAPI thread,
 *                queues' irqs; xnb_cpu_place in proto.c decides).  The
 *                offline one runs once the CPU is no longer active: the
 *                scheduler may have moved a NAPI thread woken there
 *                meanwhile, widening its affinity, which the callback
 *                then sets again; irqs move only later in the hotplug.
 *                The state is added by groupset.c's init before the first
 *                set and removed by its exit after the last set
 *                stopped; in between the callbacks find the set in
 *                force, or none (before the first, during exit) and do
 *                nothing.
 *
 *   control ring (ctrlring.c): requests served by a delayed work item
 *                on the driver's own unbound workqueue (xnb_ctrl_wq,
 *                made by module init, destroyed by exit after the last
 *                vif), within a budget of requests per second; it sends
 *                or holds back (interface.c's back-off) the late EOI,
 *                owes it to its next run while the budget is spent, none
 *                once the ring is dead; the hash state it sets is read
 *                by ndo_select_queue and rx.c
 *
 *   everywhere: proto.c, the pure decisions on guest input (ring
 *   indices, slot chains, event verdicts, requests in flight, credit),
 *   shared with the userspace tests
 *
 *   tracepoints (trace.h, system xen_netback, created in trace.c): the
 *   pass (pass.c) and its handoffs (group.c), moves (balance.c,
 *   groupset.c's regroup, interface.c's pin), a vif disabled (interface.c), RX
 *   stall, drain and unstall (rx.c); each from the context above
 *
 * A queue belongs to exactly one group at a time.  Only that group's
 * worker touches the queue's rings, so ring state needs no lock of its
 * own: the group's pass lock (pass_busy) keeps the group's two polling
 * contexts apart.  Each structure below says what its locks protect
 * ("Locking:").  Lock order, outermost first:
 *
 *   backend lock (xenbus.c) -> xnb_assign_mutex -> group sync_mutex
 *   CPU hotplug lock (cpus_read_lock() around a new set; a hotplug under
 *                way, whose callbacks take the mutex) -> xnb_assign_mutex:
 *                no holder of the assign mutex may take cpus_read_lock()
 *                or wait for a hotplug (not checked: modules do not get
 *                lockdep_assert_cpus_held())
 *   xnb_sysfs_mutex -> xnb_assign_mutex (a sysfs read takes the latter
 *                only: directories are removed without it, see sysfs.c)
 *   backend lock -> rtnl (xnb_vif_start, xnb_vif_disconnect,
 *                unregister at destroy): so no ethtool op (called under
 *                rtnl) may take the backend lock
 *   xnb_assign_mutex -> group lock, xnb_bal_lock
 *   pass lock (only ever tried) -> group lock, mcast lock,
 *                credit_lock, carrier_lock, a queue's rx_skbs lock
 *   pass lock -> through the stack (napi_gro_receive into a bridge
 *                whose port is another vif): that vif's netdev xmit
 *                lock -> its hash_lock (read), rx_skbs and group lock
 *   group lock, mcast lock, credit_lock, carrier_lock, stats_lock,
 *                hash_lock, xnb_bal_lock: innermost (no lock of ours
 *                is taken under them)
 */
#ifndef XNB_COMMON_H
#define XNB_COMMON_H

#include <linux/dim.h>
#include <linux/hrtimer.h>
#include <linux/interrupt.h>
#include <linux/kthread.h>
#include <linux/list.h>
#include <linux/lockdep.h>
#include <linux/mutex.h>
#include <linux/seqlock.h>
#include <linux/netdevice.h>
#include <linux/ratelimit.h>
#include <linux/skbuff.h>
#include <linux/spinlock.h>
#include <linux/timer.h>
#include <linux/u64_stats_sync.h>
#include <linux/wait.h>
#include <linux/workqueue.h>
#include <xen/grant_table.h>
#include <xen/interface/io/netif.h>
#include <xen/xenbus.h>
#include <xen/xnb_ctrl.h>
#include <xen/xnb_proto.h>

#include "xnb_compat.h"

#define XNB_TX_RING_SIZE	__CONST_RING_SIZE(xen_netif_tx, XEN_PAGE_SIZE)
#define XNB_RX_RING_SIZE	__CONST_RING_SIZE(xen_netif_rx, XEN_PAGE_SIZE)
/* Guest TX bytes copied into the skb's linear area; the rest in pages. */
#define XNB_TX_HEADLEN		128u
/* Copy ops one packet may need at most, either direction. */
#define XNB_TX_MAX_OPS		(XNB_TX_MAX_DATA + MAX_SKB_FRAGS + 2)
#define XNB_RX_MAX_OPS		(2 * XNB_TX_MAX_DATA + 2 * (MAX_SKB_FRAGS + 1))
#define XNB_COPY_BATCH_MIN	128u
#define XNB_COPY_BATCH_MAX	4096u
#define XNB_BUDGET_MAX		1024u
#define XNB_MAX_QUEUES		64u

/* main.c: module parameters.  budget, max_queues, separate_tx_rx_irq,
 * provides_xdp_headroom and rebalance_ms may change at any time
 * (READ_ONCE); copy_batch and groups change under groupset.c's assign
 * mutex, groups also at module init (readers outside the mutex use
 * READ_ONCE).
 */
extern unsigned int xnb_nr_groups;
extern bool xnb_use_tasklet;
extern unsigned int xnb_copy_batch;
extern unsigned int xnb_budget;
extern unsigned int xnb_max_queues;
extern unsigned int xnb_fatal_skb_slots;
extern unsigned int xnb_rx_queue_bytes;
extern unsigned int xnb_rx_drain_msecs;
extern unsigned int xnb_rx_stall_msecs;
extern bool xnb_separate_tx_rx_irq;
extern bool xnb_provides_xdp_headroom;
extern unsigned int xnb_rebalance_ms;
extern unsigned int xnb_ctrl_rate;

/* Per-queue counters, read by ethtool and ndo_get_stats64 while the
 * pass counts: u64_stats_t, whose accessors make the race one that is
 * intended (on 64-bit the sync is empty and they are the only marking).
 */
struct xnb_queue_stats {
	u64_stats_t rx_gso_checksum_fixup; /* guest GSO without csum_blank */
	u64_stats_t tx_packets;	/* guest -> dom0 (the guest's TX) */
	u64_stats_t tx_bytes;
	u64_stats_t tx_dropped;	/* answered with errors */
	u64_stats_t tx_errors;	/* grant copy failures */
	u64_stats_t tx_alloc_failed; /* dropped: no memory for the skb */
	u64_stats_t rx_packets;	/* dom0 -> guest */
	u64_stats_t rx_bytes;
	u64_stats_t rx_dropped;
	u64_stats_t rx_errors;
	u64_stats_t copy_ops;
	u64_stats_t copy_batches; /* flushes that carried this queue's ops */
	u64_stats_t copy_eagain_failed; /* packets failed: GNTST_eagain twice */
	u64_stats_t rx_notify;	/* guest RX notifications sent */
	u64_stats_t rx_notify_deferred;	/* of those, sent later than asked */
	u64_stats_t rx_notify_skipped;	/* put off, then found unneeded */
	struct u64_stats_sync sync;
};

struct dentry;
struct xnb_group;
struct xnb_vif;

/* mcast.c: the guest's multicast filter, at most XNB_MCAST_MAX entries
 * (stock's bound).
 *
 * Locking: lock serialises the writers (xnb_mcast_add/_del from any of
 * the vif's group workers, xnb_mcast_clear from the xenbus thread): the
 * list's changes, count, and flood's writes.  addrs is an RCU list:
 * xnb_start_xmit walks it under rcu_read_lock() alone, and removed
 * entries are freed after a grace period.  flood is read lockless
 * (READ_ONCE) by the transmit path, which at worst floods or filters
 * one packet by the state of a moment before.
 */
#define XNB_MCAST_MAX		64u

struct xnb_mcast {
	spinlock_t lock;		/* writers (group workers) */
	struct list_head addrs;		/* RCU; read by xnb_start_xmit */
	unsigned int count;		/* under lock */
	bool flood;			/* an ADD was refused: pass all */
};

/* coalesce.c: a vif's guest RX notification moderation (ethtool -C).
 * adaptive: net_dim chooses each queue's limits (the default); else
 * usecs and frames, for every queue (proto.c's struct xnb_rxmod_limits).
 */
#define XNB_COAL_USECS_DEF	64u
#define XNB_COAL_FRAMES_DEF	64u

struct xnb_coal {
	bool adaptive;
	u32 usecs;
	u32 frames;
};

/* Bits of xnb_queue.eoi: an EOI owed for that irq once work is done. */
enum {
	XNB_EOI_TX,
	XNB_EOI_RX,
};

/* interface.c: our late-EOI back-off for one event channel, a queue's
 * or the control ring's (xnb_lateeoi()): a run of events that led to no
 * work (spurious) gets its EOIs held back ever longer, up to a second.
 *
 * Locking: a channel has one owed EOI at a time (it stays masked until
 * the EOI), and only its owner calls xnb_lateeoi(): spurious needs no
 * lock.  timer is pending while an EOI is held; irq is stored before it
 * is armed and read by it.  xnb_backoff_stop() at teardown, once nothing
 * can hold an EOI back any more.
 */
struct xnb_backoff {
	struct xnb_spurious spurious;
	unsigned int irq;		/* whose EOI the timer sends */
	struct timer_list timer;	/* sends the held EOI */
};

/* Locking:
 *  - vif, id, name, tx_irq, rx_irq, the rings' mapping, timers' setup:
 *    the xenbus thread under the backend lock, while the queue is in no
 *    group (connect before the attach, release after the detach); fixed
 *    in between.
 *  - group, group_node, active_node, queued, share_pass, share_slots:
 *    under group->lock of the group the queue is on (the last two are
 *    written by that group's pass as it gives the queue a turn, and
 *    share_slots cleared at attach).  group and group_node change only
 *    under xnb_assign_mutex as well (attach, detach, move), so a holder
 *    of either lock sees them stable.  group is an RCU pointer:
 *    published with rcu_assign_pointer() at attach, read with
 *    rcu_dereference() by xnb_group_kick (an RCU reader: old groups are
 *    freed after synchronize_rcu()), rcu_dereference_protected() by the
 *    holders of the assign mutex and by the pass of the queue's group
 *    (under group->lock: until that pass ends the queue's group is that
 *    group or NULL), and compared with rcu_access_pointer() where it
 *    may be changing under another group's lock (the kick's check
 *    under the lock, a sibling's group in the pass's share).
 *  - ring state (tx, rx private indices, tx_pushed, rx_pushed, tx_id,
 *    tx_extra, tx_pkt,
 *    tx_held, rx_id, rx_len, rx_blocked_since, rx_want, stalled,
 *    worked, flush_group, load, settle_node, the stats' writes,
 *    rx_done_pkts, rx_done_slots, rxmod, net_dim's calls on rx_dim and
 *    arming rx_notify_timer), turn_left and turn_debt: the
 *    pass of the queue's group, which holds that group's pass lock
 *    (pass_busy); while the queue is in no group, the xenbus thread.
 *    Except turn_left and turn_debt, which every attach clears under
 *    xnb_assign_mutex and the new group's lock, before it publishes
 *    the group (a reconnect or a move owes nothing): the
 *    xenbus thread's, and the balancer's and a regroup's moves, each
 *    after its detach.  A detach waits for the group's poll
 *    (xnb_group_sync), so the pass and these never overlap.
 *    The event handlers read a snapshot lockless (READ_ONCE of
 *    req_cons, tx_held, rx_blocked_since, rx_want, tx_prod_eoi) and
 *    judge events by it (proto.c); the worker writes all five with
 *    WRITE_ONCE, ordered by the barriers rx.c and interface.c explain.
 *    debugfs reads a snapshot too (READ_ONCE; data_race() for the
 *    private response producers, written plainly by the pass).
 *  - rx_skbs: its own queue lock (xnb_start_xmit adds, the worker and
 *    the purge take); rx_bytes_queued, unsupported_dropped: atomics.
 *  - rx_kick_owed: xnb_start_xmit only, under the core's xmit lock of
 *    the netdev queue of the same index (netpoll takes it too).
 *  - eoi: atomic bitops, the handler sets an owed EOI and the worker
 *    takes it.  backoff: see struct xnb_backoff (each channel's belongs
 *    to whoever owes that channel's EOI).
 *  - stats: one writer at a time (the pass, or the xenbus thread once
 *    the queue is detached) inside u64_stats_update_begin/_end, with
 *    u64_stats_inc/_add; readers retry with u64_stats_fetch_begin/_retry
 *    and read with u64_stats_read, under vif->stats_lock (the queues
 *    array must not go meanwhile).
 *  - bal_load, bal_sample, bal_hold: under xnb_assign_mutex.
 *  - last_group: the index of the group the last attach gave the queue,
 *    written (WRITE_ONCE) by that attach under xnb_assign_mutex, kept
 *    by a detach; read lockless (READ_ONCE) by ethtool -S, to which a
 *    queue moving shows the group it leaves until it arrives.
 *  - rx_notify_timer: set up at alloc, armed by the pass, cancelled at
 *    release (after the detach: no pass arms it again); its function
 *    only kicks.  rx_dim: net_dim() by the pass; its work (system_wq)
 *    writes rx_dim_usecs and rx_dim_frames (WRITE_ONCE, read by the
 *    pass with READ_ONCE) and hands rx_dim back (its state), as every
 *    net_dim user does; cancelled at release.
 */
struct xnb_queue {
	struct xnb_vif *vif;
	unsigned int id;
	char name[IFNAMSIZ + 12];	/* "<ifname>-q<u32>" always fits */

	/* Scheduling, under group->lock. */
	struct xnb_group __rcu *group;
	struct list_head group_node;	/* on group->queues */
	struct list_head active_node;	/* on group->active when queued */
	bool queued;
	/* On the pass's list of drained queues whose ring is re-armed and
	 * EOIs sent after its flush (pass.c); empty otherwise.
	 */
	struct list_head settle_node;
	u32 share_pass;			/* group->pass_seq of its last turn */
	u32 share_slots;		/* the slots it was given then */
	struct xnb_pass_ways turn_left;	/* a cut turn's rest (see above) */
	struct xnb_pass_ways turn_debt;	/* spent past its shares, owed */

	/* Guest TX ring and its per-slot answers, by ring index. */
	struct xen_netif_tx_back_ring tx;
	RING_IDX tx_pushed;		/* rsp_prod we last published */
	unsigned int tx_irq;
	u16 tx_id[XNB_TX_RING_SIZE];
	u8 tx_extra[XNB_TX_RING_SIZE];
	struct xnb_tx_pkt tx_pkt;	/* scratch for one parsed packet */
	bool tx_held;			/* tx_pkt parsed, waits for credit */
	struct timer_list credit_timer;

	/* Guest RX ring, its per-slot request ids and queued skbs. */
	struct xen_netif_rx_back_ring rx;
	RING_IDX rx_pushed;		/* rsp_prod we last published */
	unsigned int rx_irq;
	u16 rx_id[XNB_RX_RING_SIZE];
	u16 rx_len[XNB_RX_RING_SIZE];
	struct sk_buff_head rx_skbs;
	atomic_t rx_bytes_queued;	/* their truesize, summed */
	/* Packets queued by a burst whose kick waits for its last packet
	 * (netdev_xmit_more(), xnb_start_xmit).
	 */
	bool rx_kick_owed;
	unsigned long rx_blocked_since;	/* jiffies; 0 when not blocked */
	unsigned int rx_want;		/* slots a blocked queue waits for */
	bool stalled;			/* counted in vif->stalled_queues */
	struct timer_list stall_timer;

	/* Telling the guest of RX responses (coalesce.c, proto.c's
	 * xnb_rxmod_decide): what the flush answered since the last push,
	 * the notification owed, the timer that brings the pass back when
	 * one put off is due, and net_dim's choice of limits.
	 */
	u32 rx_done_pkts;
	u32 rx_done_slots;
	struct xnb_rxmod rxmod;
	struct hrtimer rx_notify_timer;
	struct dim rx_dim;
	u16 rx_dim_usecs;
	u16 rx_dim_frames;

	/* xnb_start_xmit drops of packets the guest cannot take: more
	 * slots than netfront accepts, a GSO type it did not negotiate,
	 * more than one slot without scatter-gather.
	 */
	atomic_long_t unsupported_dropped;
	unsigned long eoi;		/* XNB_EOI_* */
	/* BIT(XNB_EOI_*): the group did work that way since the last EOI
	 * (worker only); an owed EOI without it is sent as spurious.
	 */
	unsigned long worked;
	/* TX producer index when we last sent an EOI: an event that finds
	 * it unchanged, with nothing unconsumed, is spurious.
	 */
	RING_IDX tx_prod_eoi;
	/* Our own late-EOI back-off, by XNB_EOI_*: one channel for both
	 * rings uses the TX one.
	 */
	struct xnb_backoff backoff[2];
	/* The group whose flush is completing our packets; set and
	 * cleared within one xnb_copy_flush.
	 */
	struct xnb_group *flush_group;
	struct xnb_queue_stats stats;

	/* Live rebalancing.  load: packets served both ways, written by
	 * the group's poll only, read by the balancer (READ_ONCE); the
	 * bal_* fields are the balancer's, under the assign mutex.
	 */
	unsigned long load;
	unsigned long bal_load;		/* load at the last sample */
	u32 bal_sample;			/* that sample's number; 0: none */
	u32 bal_hold;			/* samples before it may move again */
	int last_group;			/* given by the last attach */
};

/* Locking:
 *  - dev, xbdev, domid: set at create, fixed.
 *  - The connection (queues, num_queues, connected, the negotiated
 *    features, pinned_group, the control ring's mapping): changed only
 *    by the xenbus thread under the backend lock (xenbus.c's be->lock,
 *    checked by xnb_backend_assert_held()).  queues and num_queues
 *    change under stats_lock too, for the stats readers.  The data path
 *    reads them lockless while connected: num_queues and pinned_group
 *    with READ_ONCE; connected is set with smp_store_release() once the
 *    rest is in place and xnb_start_xmit reads it with
 *    smp_load_acquire() before the queues and features; a disconnect
 *    clears it (WRITE_ONCE) and waits out xnb_start_xmit
 *    (synchronize_net) and each group's poll (the detach) before the
 *    queues go.  The features are stored with WRITE_ONCE at connect:
 *    ndo_fix_features and ndo_change_mtu read them (READ_ONCE) under
 *    rtnl alone, and xnb_vif_start applies them again afterwards.
 *  - disabled: set (WRITE_ONCE) by whoever finds a protocol violation
 *    (xnb_vif_fatal: a group worker, the control ring's work), reset
 *    only by xnb_vif_start under the backend lock; read with READ_ONCE.
 *  - mcast_ctrl, xdp_headroom: written by the xenbus thread (with
 *    WRITE_ONCE wherever the vif may be connected), read by the data
 *    path with READ_ONCE.
 *  - mcast: see struct xnb_mcast.  stalled_queues: atomic.
 *  - coal: written under rtnl (ethtool's set_coalesce, WRITE_ONCE),
 *    read by the passes with READ_ONCE.
 *  - log_rl, fatal_rl: the ratelimits' own locks; log_missed: an atomic.
 *  - carrier_lock: one carrier decision at a time (the xenbus thread,
 *    the group workers, the control ring's work through xnb_vif_fatal).
 *  - stats_lock: queues and num_queues against the stats readers, and
 *    saved, saved_unsupported.
 *  - stats_queues: the queues ethtool shows per-queue rows for (-S) and
 *    counts (-l): written under rtnl by the xenbus thread (under the
 *    backend lock), num_queues once xnb_vif_start has attached them
 *    all, 0 as a disconnect begins, before they go; read under rtnl, so
 *    one ethtool request sees one value from its count to its values,
 *    or by that thread, its only writer, without rtnl.
 *  - debugfs: the vif's debugfs directory, made by xnb_vif_start and
 *    removed first by xnb_vif_disconnect, under the backend lock.
 *  - max_queues: the multi-queue-max-queues the backend offered at the
 *    last InitWait, written by the xenbus thread (WRITE_ONCE), read by
 *    ethtool -l (READ_ONCE).
 *  - credit_lock: credit; its bytes is peeked at lockless (READ_ONCE,
 *    stored with WRITE_ONCE by proto.c) to skip the lock when no rate
 *    is set.
 *  - ctrl, ctrl_pushed, ctrl_dead, ctrl_buf: ctrl_work alone while the
 *    control ring is connected (a work item never runs twice at once;
 *    xnb_vif_start only peeks at ctrl_dead, READ_ONCE, which the work
 *    stores with WRITE_ONCE), the xenbus thread at connect and
 *    disconnect (the work cancelled first).  ctrl_budget: ctrl_work alone, filled once by
 *    xnb_ctrl_init (a reconnect does not refill it).  ctrl_irq: stored
 *    by the handler and the connect (WRITE_ONCE), read by the work and
 *    the disconnect with READ_ONCE.
 *    ctrl_backoff: see struct xnb_backoff; ctrl_work owes the channel's
 *    EOIs.
 *  - hash_lock: a seqlock over hash; writers (ctrl_work, connect,
 *    disconnect) keep BHs off, readers (ndo_select_queue, the transmit
 *    path) retry; hash.alg is peeked at lockless (READ_ONCE) first, and
 *    stored with WRITE_ONCE by ctrl.c.  No reader with IRQs off (netpoll
 *    may have interrupted a writer on its CPU): xnb_hash_skb() does not
 *    hash then.
 */
struct xnb_vif {
	struct net_device *dev;
	struct xenbus_device *xbdev;
	domid_t domid;
	unsigned int handle;		/* the devid, as in the xenbus node */

	/* Negotiated with the frontend at connect. */
	bool can_sg;
	bool gso_tcpv4;
	bool gso_tcpv6;
	bool ip_csum;
	bool ipv6_csum;
	/* The guest's request-multicast-control (watched: may change at
	 * any time) and its RX "xdp-headroom" (at connect, and while the
	 * guest reconfigures), read by the data path with READ_ONCE.
	 */
	bool mcast_ctrl;
	u16 xdp_headroom;
	struct xnb_mcast mcast;
	/* Guest RX notification moderation (ethtool -C), per vif. */
	struct xnb_coal coal;

	struct xnb_queue *queues;	/* num_queues entries when connected */
	unsigned int num_queues;
	int pinned_group;		/* "worker-group" key, -1 when unset */
	bool connected;
	/* A fatal protocol error: stop serving the rings until reconnect. */
	bool disabled;
	atomic_t stalled_queues;	/* queues whose guest posts no buffers */
	/* Lines the guest brings about, on a budget of the vif's own
	 * (xnb_vif_log_ok()), and how many it left out since the last.
	 */
	struct ratelimit_state log_rl;
	atomic_t log_missed;
	/* "vif disabled" apart, so the guest cannot spend its budget first. */
	struct ratelimit_state fatal_rl;

	spinlock_t carrier_lock;	/* carrier decisions from any context */
	/* Stats readers vs. queues being freed; counters of past
	 * connections survive in saved.
	 */
	spinlock_t stats_lock;
	struct xnb_queue_stats saved;
	u64 saved_unsupported;
	unsigned int stats_queues;	/* ethtool's per-queue rows, rtnl */
	unsigned int max_queues;	/* offered: ethtool -l's maximum */
	struct dentry *debugfs;		/* xen-netback/vif-<domid>-<devid>/ */

	spinlock_t credit_lock;		/* "rate" shaping, shared by queues */
	struct xnb_credit credit;

	/* Control ring and Toeplitz hashing (ctrlring.c).  ctrl_irq is 0
	 * without a control ring; hash is written under hash_lock.
	 */
	struct xen_netif_ctrl_back_ring ctrl;
	RING_IDX ctrl_pushed;		/* rsp_prod we last published */
	unsigned int ctrl_irq;
	bool ctrl_dead;			/* overflowed: served, EOI'd no more */
	struct delayed_work ctrl_work;	/* delayed: the budget is spent */
	struct xnb_ctrl_budget ctrl_budget;	/* requests, across connections */
	struct xnb_backoff ctrl_backoff;	/* spurious events */
	void *ctrl_buf;			/* grant copy target, one page */
	char ctrl_name[IFNAMSIZ + 8];	/* "<ifname>-ctrl" */
	seqlock_t hash_lock;
	struct xnb_hash hash;
};

/* An entry in the group's batch: a packet whose ops are in flight.
 * 32 bytes on 64-bit kernels (the flags are bits): a batch of 256 then
 * fits five pages (copy.c); a field more costs a page per group.
 */
struct xnb_inflight {
	struct xnb_queue *queue;
	struct sk_buff *skb;
	u32 ring_start;		/* first ring slot of the packet */
	u16 nr_slots;
	u16 first_op;
	u16 nr_ops;
	u16 headroom;		/* guest RX: data offset in the first slot */
	u8 dir;			/* XNB_DIR_* */
	u8 drop:1;		/* answer with errors, no ops */
	u8 mcast_ok:1;		/* guest TX: a multicast request done */
	u8 gso:1;		/* guest RX: a GSO extra sits in slot 1 */
	u8 hash:1;		/* guest RX: a hash extra follows it */
};

enum {
	XNB_DIR_TX,		/* guest -> dom0 */
	XNB_DIR_RX,		/* dom0 -> guest */
};

/* A group's counters since it was created.  Written only by the
 * group's pass (one at a time: the pass lock), inside
 * u64_stats_update_begin/_end; read from any CPU with
 * xnb_group_stats_read(), which retries while a write is under way.
 */
struct xnb_group_stats {
	u64_stats_t passes;
	u64_stats_t packets;		/* both ways */
	u64_stats_t batches;		/* GNTTABOP_copy hypercalls */
	u64_stats_t ops;
	u64_stats_t eagain_retries;	/* ops issued again after GNTST_eagain */
	u64_stats_t busy_ns;		/* time in passes: the balancer's measure */
	u64_stats_t full_flushes;	/* flushes forced by a full batch */
	u64_stats_t handoffs;		/* light context -> thread, sustained load */
	struct u64_stats_sync sync;
};

/* A snapshot of struct xnb_group_stats (xnb_group_stats_read()). */
struct xnb_group_counters {
	u64 passes;
	u64 packets;
	u64 batches;
	u64 ops;
	u64 eagain_retries;
	u64 busy_ns;
	u64 full_flushes;
	u64 handoffs;
};

/* xnb_group.pass_busy: group.c's pass lock, a bit lock taken only with
 * a try (xnb_pass_trylock) and released by the poll that took it, in
 * the same call.  bits holds XNB_PASS_*; dep_map shows the lock to
 * lockdep, so lockdep_assert_held(&g->pass_busy) works as for any lock.
 */
struct xnb_pass_lock {
	unsigned long bits;
	struct lockdep_map dep_map;
};

/* xnb_group.run: the context that owns the group's passes. */
enum {
	XNB_RUN_MAIN,		/* napi: the thread, or tasklet's softirq */
	XNB_RUN_LIGHT,		/* light: softirq, worker=kthread only */
};

/* Locking:
 *  - lock (irq-safe: xnb_group_kick runs in hard irq): queues, active,
 *    nr_queues, nr_active, woken, pass_seq, and the member queues'
 *    scheduling fields (see struct xnb_queue).  pass_seq is written only by the
 *    pass (under the pass lock as well).  queues and nr_queues change only under
 *    xnb_assign_mutex as well, so its holder walks them without lock
 *    (balance.c, a regroup, debugfs).  nr_active is written with
 *    WRITE_ONCE: the poll reads it lockless, as a hint; the pass's
 *    xnb_group_pop under the lock, exact (a queue alone on the list
 *    starts a new turn).
 *  - pass_busy, the pass lock: held by the poll running the group's
 *    pass, taken with a try only (xnb_pass_trylock), released by the
 *    same poll.  It covers the batch (ops, nr_ops, retry_idx, inflight,
 *    nr_inflight), deliver, polling, stats and the
 *    writes of run, besides the ring state of the member queues.
 *    Between passes, with the group paused (sync_mutex) and under
 *    xnb_assign_mutex, the batch arrays and batch are swapped: by a
 *    copy_batch change (xnb_groups_set_batch), by a group's first queue
 *    (xnb_group_prepare: a group has none while it serves no queue,
 *    except the set's first) and by its last leaving (xnb_group_sync);
 *    holders of the assign mutex read batch without lock.  stats is
 *    written inside u64_stats_update_begin/_end and read from other
 *    CPUs only through xnb_group_stats_read() (debugfs, the balancer).
 *  - run: once started, written only by its owner, under the pass
 *    lock; read with READ_ONCE by either poll, a kick's wake, debugfs.
 *  - sync_mutex: one pause (napi_disable of both contexts) at a time,
 *    held from xnb_group_pause to xnb_group_resume.
 *  - index, home_cpu: set before the group is published, fixed.
 *  - napi_dev, napi, light_dev, light and napi's thread: set up under
 *    xnb_assign_mutex before the group's first queue joins it (the
 *    set's first group: before the set is published) by
 *    xnb_group_prepare, torn down once the group is in no published
 *    set; fixed in between.  The thread alone may come later, at a
 *    next attach, if it could not be made then.  A group without
 *    napi_dev was never given a queue: nothing kicks, pauses or polls
 *    it.
 *  - cpu: where the group runs now (its thread, its queues' irqs): its
 *    home_cpu at start, then changed only by the CPU hotplug callbacks
 *    (groupset.c), under xnb_assign_mutex, which its readers hold (attach,
 *    sysfs, debugfs).
 *  - moves_in, moves_out: under xnb_assign_mutex.
 *  - max_pass_ns, max_pass_slots: raised by the pass (under the pass
 *    lock), reset to 0 by a sysfs write (under xnb_assign_mutex, which
 *    keeps the group alive); WRITE_ONCE both, read with READ_ONCE.  A
 *    pass under way at a reset may count after it.
 */
struct xnb_group {
	unsigned int index;		/* its place in its set (xnb_groups) */
	int cpu;			/* where it runs now */
	int home_cpu;			/* (index mod n)th of n online CPUs */
	spinlock_t lock;		/* queues, active and their counts */
	struct list_head queues;
	struct list_head active;
	unsigned int nr_queues;
	unsigned int nr_active;		/* written under lock, read lockless */
	/* A poll is due that will look at active before it completes: a
	 * kick then only queues its queue (group.c).
	 */
	bool woken;
	u32 pass_seq;			/* the pass's number: vifs' turns */

	/* The group's pass is the poll of one of its NAPI contexts.  napi
	 * is threaded (worker=kthread) or softirq NAPI (worker=tasklet), on
	 * a dummy netdev ("xnb-g<N>") that only carries it and names its
	 * thread.  With worker=kthread, light is a softirq context on a
	 * second dummy netdev: it runs the passes while the load is light
	 * and hands sustained load to the thread (group.c).  run says which
	 * context owns the passes; pass_busy (XNB_PASS_*) keeps a new owner
	 * off while the old one completes.
	 */
	struct net_device *napi_dev;
	struct napi_struct napi;
	struct net_device *light_dev;	/* NULL with worker=tasklet */
	struct napi_struct light;
	u8 run;				/* XNB_RUN_* */
	struct xnb_pass_lock pass_busy;	/* XNB_PASS_* bits, group.c */
	struct mutex sync_mutex;	/* pause/resume, one at a time */

	/* The batch: only the poll touches it, between polls the swaps
	 * above.  batch entries in each array, all in one block at ops
	 * (copy.c); 0 and no arrays while the group serves no queue.
	 */
	unsigned int batch;
	struct gnttab_copy *ops;
	unsigned int nr_ops;
	u16 *retry_idx;			/* the eagain ops' places in ops */
	struct xnb_inflight *inflight;
	unsigned int nr_inflight;
	struct sk_buff_head deliver;	/* guest TX skbs ready for the stack */
	struct napi_struct *polling;	/* the context running the pass */

	struct xnb_group_stats stats;	/* written by the pass only */
	/* Queues the balancer moved in and out, under the assign mutex. */
	unsigned long moves_in;
	unsigned long moves_out;
	/* The longest pass (ns, at most ULONG_MAX) and the most ring slots
	 * one used, both ways, since the group started or sysfs reset them.
	 */
	unsigned long max_pass_ns;
	u32 max_pass_slots;
};

/* group.c (one group's passes and NAPI contexts) and groupset.c (the
 * set of groups, who serves what, CPU hotplug): the global group state.
 *
 * Locking: xnb_assign_mutex serialises every change of who serves what:
 * the group set (xnb_groups, xnb_nr_groups, xnb_groups_gen, groupset.c's
 * load scratch and whether the set is down for good, replaced only
 * under it: by init, a groups write and exit alike), each queue's
 * attach, detach and move, copy_batch's value and the batch sizes, and
 * balance.c's sample.
 * Its holder may read all of these without another lock.  Lockless
 * readers: xnb_nr_groups (WRITE_ONCE under the mutex) by main.c and the
 * "worker-group" watch, which only range-check with it; a kick reaches
 * its group through its queue (rcu_dereference()), and old groups are
 * freed only after synchronize_rcu().
 */
extern struct mutex xnb_assign_mutex;
extern struct xnb_group *xnb_groups;
extern unsigned long xnb_groups_gen;
int xnb_groups_init(void);
int xnb_group_start(struct xnb_group *group, unsigned int index)
	__must_hold(&xnb_assign_mutex);
int xnb_group_prepare(struct xnb_group *group)
	__must_hold(&xnb_assign_mutex);
void xnb_group_stop(struct xnb_group *group);
void xnb_group_sync(struct xnb_group *group)
	__must_hold(&xnb_assign_mutex);
void xnb_groups_exit(void);
void xnb_group_attach(struct xnb_queue *queue, int pinned);
void xnb_group_detach(struct xnb_queue *queue);
void xnb_group_wake(struct xnb_group *group);
void xnb_group_pass(struct xnb_group *group, struct xnb_pass_acct *a)
	__must_hold(&group->pass_busy);
void xnb_group_kick(struct xnb_queue *queue);
void xnb_group_kick_task(struct xnb_queue *queue);
void xnb_group_move_locked(struct xnb_queue *queue, unsigned int to);
void xnb_group_stats_read(const struct xnb_group *group,
			  struct xnb_group_counters *c);
int xnb_queue_group_index(struct xnb_queue *queue);
int xnb_groups_set_batch(unsigned int batch);
int xnb_groups_set_count(unsigned int n);
/* The driver's debugfs directory, xen-netback/: made at module init
 * before the backend driver registers, removed at exit after it is gone
 * (an ERR_PTR or NULL without debugfs, which debugfs calls take).
 */
extern struct dentry *xnb_debugfs_dir;
int xnb_debugfs_init(void);
void xnb_debugfs_exit(void);

/* balance.c */
#define XNB_REBALANCE_MIN_MS	100u
#define XNB_REBALANCE_MAX_MS	60000u
/* busy_pct's window while the balancer is off (rebalance_ms=0). */
#define XNB_BUSY_WINDOW_MS	1000u
void xnb_balance_set_interval(unsigned int ms);
void xnb_balance_start(void);
void xnb_balance_stop(void);
void xnb_balance_debugfs(struct dentry *dir);
unsigned long xnb_balance_moves(void);
bool xnb_balance_busy(unsigned int group, u32 *permille);
void xnb_balance_queue_added(void);

/* sysfs.c: /sys/module/xen_netback/groups/, the interface for scripts */
void xnb_sysfs_init(void);
void xnb_sysfs_update(void);
void xnb_sysfs_exit(void);

/* copy.c */
struct xnb_inflight *xnb_copy_begin(struct xnb_group *group,
				    struct xnb_queue *queue, u8 dir,
				    unsigned int max_ops);
void xnb_copy_commit(struct xnb_group *group, struct xnb_inflight *f,
		     unsigned int nr_ops);
void xnb_copy_flush(struct xnb_group *group);
void xnb_copy_free(struct xnb_group *group);

/* A group's batch arrays, allocated apart for xnb_copy_swap(): one
 * block, which ops starts (xnb_batch_layout()).
 */
struct xnb_copy_arrays {
	struct gnttab_copy *ops;
	struct xnb_inflight *inflight;
	u16 *retry_idx;
	unsigned int batch;
};

int xnb_copy_arrays_alloc(struct xnb_copy_arrays *a, unsigned int batch);
void xnb_copy_arrays_free(struct xnb_copy_arrays *a);
void xnb_copy_swap(struct xnb_group *group, struct xnb_copy_arrays *a);

/* tx.c; xnb_copy_flush() calls the complete, push and deliver */
void xnb_tx_complete(struct xnb_group *group, struct xnb_inflight *f,
		     bool ok);
void xnb_tx_push(struct xnb_queue *queue);
void xnb_tx_deliver(struct xnb_group *group);
int xnb_tx_gather(struct xnb_group *group, struct xnb_queue *queue,
		  int budget, unsigned int *slots);
bool xnb_tx_pending(struct xnb_queue *queue);
bool xnb_tx_waiting(const struct xnb_queue *queue);
enum xnb_event xnb_tx_event(struct xnb_queue *queue);
void xnb_credit_timer_fn(struct timer_list *t);

/* rx.c; xnb_copy_flush() calls the complete and push */
void xnb_rx_complete(struct xnb_group *group, struct xnb_inflight *f,
		     bool ok);
void xnb_rx_push(struct xnb_queue *queue);
void xnb_rx_notify_check(struct xnb_queue *queue);
netdev_tx_t xnb_start_xmit(struct sk_buff *skb, struct net_device *dev);
int xnb_rx_gather(struct xnb_group *group, struct xnb_queue *queue,
		  int budget, unsigned int *slots);
bool xnb_rx_pending(struct xnb_queue *queue);
enum xnb_event xnb_rx_event(struct xnb_queue *queue);
unsigned int xnb_rx_purge(struct xnb_queue *queue);
void xnb_stall_timer_fn(struct timer_list *t);

/* interface.c */
struct xnb_vif *xnb_vif_create(struct xenbus_device *xbdev, domid_t domid,
			       unsigned int handle);
int xnb_vif_connect_queue(struct xnb_queue *queue, grant_ref_t tx_ref,
			  grant_ref_t rx_ref, unsigned int tx_evtchn,
			  unsigned int rx_evtchn);
int xnb_vif_alloc_queues(struct xnb_vif *vif, unsigned int n);
void xnb_vif_start(struct xnb_vif *vif);
void xnb_vif_disconnect(struct xnb_vif *vif);
void xnb_vif_destroy(struct xnb_vif *vif);
void xnb_vif_fatal(struct xnb_vif *vif, const char *why);
bool xnb_vif_log_ok(struct xnb_vif *vif);
void xnb_vif_set_pinned(struct xnb_vif *vif, int group);
void xnb_vif_eoi(struct xnb_queue *queue, unsigned int which);
void xnb_backoff_init(struct xnb_backoff *b);
void xnb_lateeoi(struct xnb_backoff *b, unsigned int irq, u32 progress,
		 bool spurious);
void xnb_backoff_stop(struct xnb_backoff *b);
void xnb_vif_update_carrier(struct xnb_vif *vif);

/* mcast.c */
void xnb_mcast_init(struct xnb_vif *vif);
int xnb_mcast_add(struct xnb_vif *vif, const u8 *addr);
void xnb_mcast_del(struct xnb_vif *vif, const u8 *addr);
void xnb_mcast_clear(struct xnb_vif *vif);
bool xnb_mcast_wanted(struct xnb_vif *vif, const u8 *dest);

/* coalesce.c */
struct ethtool_coalesce;
struct kernel_ethtool_coalesce;
struct netlink_ext_ack;
void xnb_coal_init(struct xnb_vif *vif);
void xnb_rxmod_init(struct xnb_queue *queue);
void xnb_rxmod_stop(struct xnb_queue *queue);
void xnb_rxmod_limits(struct xnb_queue *queue,
		      struct xnb_rxmod_limits *lim);
void xnb_rxmod_sample(struct xnb_queue *queue);
int xnb_get_coalesce(struct net_device *dev, struct ethtool_coalesce *ec,
		     struct kernel_ethtool_coalesce *kec,
		     struct netlink_ext_ack *extack);
int xnb_set_coalesce(struct net_device *dev, struct ethtool_coalesce *ec,
		     struct kernel_ethtool_coalesce *kec,
		     struct netlink_ext_ack *extack);

/* stats.c */
extern const struct ethtool_ops xnb_ethtool_ops;
void xnb_stats_fold(struct xnb_vif *vif, struct rtnl_link_stats64 *s);
void xnb_stats_save(struct xnb_vif *vif);

/* ctrlring.c */
int xnb_ctrl_wq_init(void);
void xnb_ctrl_wq_exit(void);
void xnb_ctrl_init(struct xnb_vif *vif);
int xnb_ctrl_connect(struct xnb_vif *vif, grant_ref_t ref,
		     unsigned int evtchn);
void xnb_ctrl_disconnect(struct xnb_vif *vif);
int xnb_hash_skb(struct xnb_vif *vif, struct sk_buff *skb);
u16 xnb_select_queue(struct net_device *dev, struct sk_buff *skb,
		     struct net_device *sb_dev);
bool xnb_rx_hash_wanted(struct xnb_vif *vif, const struct sk_buff *skb);
void xnb_rx_hash_fill(const struct sk_buff *skb,
		      struct xen_netif_extra_info *ex);

/* xenbus.c */
int xnb_xenbus_init(void);
void xnb_xenbus_exit(void);
void xnb_backend_assert_held(struct xnb_vif *vif);

/**
 * xnb_stat_add() - Add to one of a queue's counters.
 * @q: the queue
 * @field: the counter, in q->stats
 * @v: the amount
 *
 * Context: The counters' single writer: the pass serving @q, or the
 * xenbus thread once @q left its group (see struct xnb_queue).
 */
static inline void xnb_stat_add(struct xnb_queue *q, u64_stats_t *field,
				unsigned long v)
{
	u64_stats_update_begin(&q->stats.sync);
	u64_stats_add(field, v);
	u64_stats_update_end(&q->stats.sync);
}

/**
 * xnb_ring_push() - Publish a back ring's new responses.
 * @rsp_prod: the shared ring's rsp_prod
 * @rsp_event: the shared ring's rsp_event
 * @prod_pvt: the ring's private response producer
 * @pushed: the rsp_prod the last push published, the backend's own copy
 *
 * The ring's push, with the previous producer taken from @pushed: the
 * shared rsp_prod is the frontend's to rewrite, so a push judged by it
 * could notify for responses that never came.  Nothing is written when
 * none came since the last push.
 *
 * Context: The ring's one response producer (see struct xnb_queue).
 * Return: true when the frontend is to be notified (xnb_push_notify()).
 */
static inline bool xnb_ring_push(RING_IDX *rsp_prod,
				 const RING_IDX *rsp_event,
				 RING_IDX prod_pvt, RING_IDX *pushed)
{
	RING_IDX old = *pushed;

	if (prod_pvt == old)
		return false;
	*pushed = prod_pvt;
	virt_wmb();	/* the responses before the index that shows them */
	WRITE_ONCE(*rsp_prod, prod_pvt);
	virt_mb();	/* the index out before the guest's rsp_event is read */
	return xnb_push_notify(old, prod_pvt, READ_ONCE(*rsp_event));
}

#endif /* XNB_COMMON_H */
