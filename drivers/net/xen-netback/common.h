/* SPDX-License-Identifier: GPL-2.0 */
/* Shared types; docs/design.md maps the contexts and locks.  Lock order:
 *   backend lock -> xnb_assign_mutex -> group sync_mutex
 *   backend lock -> rtnl: no ethtool op may take the backend lock
 *   CPU hotplug lock -> xnb_assign_mutex: no cpus_read_lock() under it
 *   xnb_sysfs_mutex -> xnb_assign_mutex -> group lock, xnb_bal_lock
 *   pass lock (trylock only) -> group lock, mcast lock, credit_lock,
 *     carrier_lock, rx_skbs; through a bridge, another vif's xmit lock
 *     -> its hash_lock, rx_skbs, group lock
 *   innermost: group lock, mcast lock, credit_lock, carrier_lock,
 *     stats_lock, hash_lock, xnb_bal_lock
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

/* main.c parameters; those writable at runtime are read with READ_ONCE. */
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

/* Per-queue counters (u64_stats): one writer; readers take stats_lock. */
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

/* mcast.c.  addrs: RCU; flood: read lockless, one packet late at worst. */
#define XNB_MCAST_MAX		64u

struct xnb_mcast {
	spinlock_t lock;		/* writers: the list, count, flood */
	struct list_head addrs;		/* RCU */
	unsigned int count;
	bool flood;			/* an ADD was refused: pass all */
};

/* coalesce.c: ethtool -C; adaptive: net_dim picks each queue's limits. */
#define XNB_COAL_USECS_DEF	64u
#define XNB_COAL_FRAMES_DEF	64u

struct xnb_coal {
	bool adaptive;
	u32 usecs;
	u32 frames;
};

/* A direction; also each channel's bit in xnb_queue.eoi (an EOI owed). */
enum {
	XNB_DIR_TX,		/* guest -> dom0 */
	XNB_DIR_RX,		/* dom0 -> guest */
	XNB_DIR_NR
};

/* Late-EOI back-off (group.c); no lock: one EOI owed, by its one owner. */
struct xnb_backoff {
	struct xnb_spurious spurious;
	unsigned int irq;		/* whose EOI the timer sends */
	struct timer_list timer;	/* sends the held EOI */
};

/* Locking:
 *  - vif, id, name, irqs, ring mappings: set while in no group, then fixed.
 *  - group: RCU; written under xnb_assign_mutex and group->lock, so either
 *    holder sees it stable; under another group's lock only compared.
 *  - Ring state, stats, rxmod, rx_dim, turn_*: the pass lock of its group
 *    (a detach waits for the poll), else the xenbus thread or an attach.
 *  - req_cons, tx_held, rx_blocked_since, rx_want, tx_prod_eoi: WRITE_ONCE,
 *    read by the event handlers with READ_ONCE (barriers: rx.c, group.c).
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
	struct list_head settle_node;	/* group.c: drained, EOI after flush */
	u32 share_pass;			/* group->pass_seq of its last turn */
	u32 share_slots;		/* the slots it was given then */
	struct xnb_pass_ways turn_left;	/* a cut turn's rest, pass lock */
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
	struct sk_buff_head rx_skbs;	/* its own lock */
	atomic_t rx_bytes_queued;	/* their truesize, summed */
	bool rx_kick_owed;		/* xmit_more; under the xmit lock */
	unsigned long rx_blocked_since;	/* jiffies; 0 when not blocked */
	unsigned int rx_want;		/* slots a blocked queue waits for */
	bool stalled;			/* counted in vif->stalled_queues */
	struct timer_list stall_timer;

	/* Notification moderation; rx_dim_*: WRITE_ONCE by net_dim's work. */
	u32 rx_done_pkts;
	u32 rx_done_slots;
	struct xnb_rxmod rxmod;
	struct hrtimer rx_notify_timer;
	struct dim rx_dim;
	u16 rx_dim_usecs;
	u16 rx_dim_frames;

	atomic_long_t unsupported_dropped; /* more than the guest can take */
	unsigned long eoi;		/* XNB_DIR_* owed: atomic bitops */
	unsigned long worked;		/* BIT(XNB_DIR_*); none: EOI spurious */
	RING_IDX tx_prod_eoi;		/* TX producer at our last EOI */
	struct xnb_backoff backoff[XNB_DIR_NR]; /* one channel: TX's */
	struct xnb_group *flush_group;	/* within one xnb_copy_flush */
	struct xnb_queue_stats stats;

	/* Balancer: load WRITE_ONCE by the pass, the rest xnb_assign_mutex. */
	unsigned long load;		/* packets served, both ways */
	unsigned long bal_load;		/* load at the last sample */
	u32 bal_sample;			/* that sample's number; 0: none */
	u32 bal_hold;			/* samples before it may move again */
	int last_group;			/* last attach's; ethtool: READ_ONCE */
};

/* Locking:
 *  - The connection (queues, num_queues, features, pinned_group, control
 *    ring mapping): the xenbus thread under the backend lock; queues and
 *    num_queues under stats_lock too.  connected: smp_store_release() once
 *    they are set, smp_load_acquire() by xnb_start_xmit before it reads
 *    them; a disconnect clears it, then waits (synchronize_net(), detach).
 *  - Read lockless, so WRITE_ONCE/READ_ONCE: num_queues, pinned_group, the
 *    features, disabled, mcast_ctrl, xdp_headroom, coal, max_queues,
 *    credit.bytes, ctrl_dead, ctrl_irq.
 *  - ctrl and the other ctrl_* fields: ctrl_work alone while the ring is up.
 *  - hash: hash_lock, writers with BHs off; readers with IRQs off skip it.
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
	bool mcast_ctrl;		/* watched: may change at any time */
	u16 xdp_headroom;
	struct xnb_mcast mcast;
	struct xnb_coal coal;		/* written under rtnl */

	struct xnb_queue *queues;	/* num_queues entries when connected */
	unsigned int num_queues;
	int pinned_group;		/* "worker-group" key, -1 when unset */
	bool connected;
	bool disabled;			/* protocol error, until reconnect */
	atomic_t stalled_queues;	/* guest posts no RX buffers */
	struct ratelimit_state log_rl;	/* guest-caused lines, per vif */
	atomic_t log_missed;
	struct ratelimit_state fatal_rl; /* not the guest's to spend first */

	spinlock_t carrier_lock;	/* carrier decisions from any context */
	spinlock_t stats_lock;
	struct xnb_queue_stats saved;	/* past connections', stats_lock */
	u64 saved_unsupported;
	unsigned int stats_queues;	/* ethtool's per-queue rows, rtnl */
	unsigned int max_queues;	/* offered: ethtool -l's maximum */
	struct dentry *debugfs;		/* xen-netback/vif-<domid>-<devid>/ */

	spinlock_t credit_lock;		/* "rate" shaping, shared by queues */
	struct xnb_credit credit;

	/* Control ring (ctrlring.c), the hash rx.c reads; ctrl_irq 0: none. */
	struct xen_netif_ctrl_back_ring ctrl;
	RING_IDX ctrl_pushed;		/* rsp_prod we last published */
	unsigned int ctrl_irq;
	bool ctrl_dead;			/* overflowed: served, EOI'd no more */
	struct delayed_work ctrl_work;	/* delayed: the budget is spent */
	struct xnb_ctrl_budget ctrl_budget;	/* across connections */
	struct xnb_backoff ctrl_backoff;	/* spurious events */
	void *ctrl_buf;			/* grant copy target, one page */
	char ctrl_name[IFNAMSIZ + 8];	/* "<ifname>-ctrl" */
	seqlock_t hash_lock;
	struct xnb_hash hash;
};

/* A packet in a group's batch; bit flags keep it 32 bytes on 64-bit. */
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

/* Written by the group's pass only (xnb_gstat_add()); read: xnb_gstat(). */
struct xnb_group_stats {
	u64_stats_t passes;
	u64_stats_t packets;		/* both ways */
	u64_stats_t batches;		/* GNTTABOP_copy hypercalls */
	u64_stats_t ops;
	u64_stats_t eagain_retries;	/* ops retried after GNTST_eagain */
	u64_stats_t busy_ns;		/* time in passes */
	u64_stats_t full_flushes;	/* flushes forced by a full batch */
	u64_stats_t handoffs;		/* light context -> thread */
	struct u64_stats_sync sync;
};

/* group.c's pass lock: a bit lock only ever tried; dep_map for lockdep. */
struct xnb_pass_lock {
	unsigned long bits;
	struct lockdep_map dep_map;
};

/* xnb_group.run: the context that owns the group's passes. */
enum {
	XNB_RUN_WORKER,		/* napi: worker=kthread's thread, or softirq */
	XNB_RUN_LIGHT,		/* light: softirq, worker=kthread only */
};

/* Locking:
 *  - lock (irq-safe: kicks run in hard irq): queues, active, their counts,
 *    woken, pass_seq, member queues' scheduling fields; queues, nr_queues
 *    also under xnb_assign_mutex.  nr_active: WRITE_ONCE, a lockless hint.
 *  - pass_busy: the batch, deliver, polling, stats, writes of run and
 *    pass_seq, member queues' ring state.  The batch is swapped with the
 *    group paused (sync_mutex), under xnb_assign_mutex.
 *  - napi_dev, napi, light_dev, light, thread: made by xnb_group_prepare()
 *    under xnb_assign_mutex, freed once in no published set.  Without
 *    napi_dev a group never had a queue: nothing kicks or polls it.
 *  - cpu, moves_*: xnb_assign_mutex.  run, max_pass_*: READ_ONCE readers.
 */
struct xnb_group {
	unsigned int index;		/* its place in its set (xnb_groups) */
	int cpu;			/* where it runs now */
	int home_cpu;			/* (index mod n)th of n online CPUs */
	spinlock_t lock;
	struct list_head queues;
	struct list_head active;
	unsigned int nr_queues;
	unsigned int nr_active;
	bool woken;			/* a poll is due: a kick only queues */
	u32 pass_seq;			/* the pass's number: vifs' turns */

	/* Passes run in napi's poll, or light's (softirq) under light load. */
	struct net_device *napi_dev;	/* dummy, carries napi: "xnb-g<N>" */
	struct napi_struct napi;
	struct net_device *light_dev;	/* NULL with worker=tasklet */
	struct napi_struct light;
	u8 run;				/* XNB_RUN_*: who owns the passes */
	struct xnb_pass_lock pass_busy;	/* XNB_PASS_* bits, group.c */
	struct mutex sync_mutex;	/* pause/resume, one at a time */

	/* The batch (copy.c): one block at ops; none while serving no queue. */
	unsigned int batch;
	struct gnttab_copy *ops;
	unsigned int nr_ops;
	struct xnb_inflight *inflight;
	unsigned int nr_inflight;
	struct sk_buff_head deliver;	/* guest TX skbs ready for the stack */
	struct napi_struct *polling;	/* the context running the pass */

	struct xnb_group_stats stats;
	unsigned long moves_in;		/* by the balancer */
	unsigned long moves_out;
	unsigned long max_pass_ns;	/* since start or the sysfs reset */
	u32 max_pass_slots;		/* both ways, in one pass */
};

/* xnb_assign_mutex serialises who serves what; xnb_nr_groups: READ_ONCE. */
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
void xnb_group_pass(struct xnb_group *group, struct xnb_pass_acct *a)
	__must_hold(&group->pass_busy);
void xnb_group_kick(struct xnb_queue *queue);
void xnb_group_kick_task(struct xnb_queue *queue);
void xnb_group_move_locked(struct xnb_queue *queue, unsigned int to);
const char *xnb_group_mode(const struct xnb_group *group);
int xnb_queue_group_index(struct xnb_queue *queue);
int xnb_groups_set_batch(unsigned int batch);
int xnb_groups_set_count(unsigned int n);
void xnb_vif_replace(struct xnb_vif *vif, int group);
/* group.c: the queues' event channels (interface.c binds them), EOIs */
irqreturn_t xnb_tx_interrupt(int irq, void *dev_id);
irqreturn_t xnb_rx_interrupt(int irq, void *dev_id);
irqreturn_t xnb_interrupt(int irq, void *dev_id);
void xnb_backoff_init(struct xnb_backoff *b);
void xnb_lateeoi(struct xnb_backoff *b, unsigned int irq, u32 progress,
		 bool spurious);
void xnb_backoff_stop(struct xnb_backoff *b);
/* xen-netback/ in debugfs, or an ERR_PTR or NULL, which debugfs takes. */
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

/* A group's batch arrays: one block, at ops (for xnb_copy_swap()). */
struct xnb_copy_arrays {
	struct gnttab_copy *ops;
	struct xnb_inflight *inflight;
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
void xnb_credit_timer_fn(struct timer_list *t);

/* rx.c; xnb_copy_flush() calls the complete and push */
u16 xnb_select_queue(struct net_device *dev, struct sk_buff *skb,
		     struct net_device *sb_dev);
void xnb_rx_complete(struct xnb_group *group, struct xnb_inflight *f,
		     bool ok);
void xnb_rx_push(struct xnb_queue *queue);
void xnb_rx_notify_check(struct xnb_queue *queue);
netdev_tx_t xnb_start_xmit(struct sk_buff *skb, struct net_device *dev);
int xnb_rx_gather(struct xnb_group *group, struct xnb_queue *queue,
		  int budget, unsigned int *slots);
bool xnb_rx_pending(struct xnb_queue *queue);
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
void xnb_vif_set_pinned(struct xnb_vif *vif, int group);

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

/* stats.c: ethtool's statistics and channels */
struct ethtool_stats;
struct ethtool_channels;
int xnb_get_sset_count(struct net_device *dev, int sset);
void xnb_get_strings(struct net_device *dev, u32 sset, u8 *data);
void xnb_get_ethtool_stats(struct net_device *dev,
			   struct ethtool_stats *stats, u64 *data);
void xnb_get_channels(struct net_device *dev, struct ethtool_channels *ch);
void xnb_get_stats64(struct net_device *dev, struct rtnl_link_stats64 *s);
void xnb_stats_save(struct xnb_vif *vif);
void xnb_vif_update_carrier(struct xnb_vif *vif);
void xnb_vif_log_missed(struct xnb_vif *vif);
bool xnb_vif_log_ok(struct xnb_vif *vif);
void xnb_vif_fatal(struct xnb_vif *vif, const char *why);

/* ctrlring.c */
int xnb_ctrl_wq_init(void);
void xnb_ctrl_wq_exit(void);
void xnb_ctrl_init(struct xnb_vif *vif);
int xnb_ctrl_connect(struct xnb_vif *vif, grant_ref_t ref,
		     unsigned int evtchn);
void xnb_ctrl_disconnect(struct xnb_vif *vif);

/* xenbus.c */
int xnb_xenbus_init(void);
void xnb_xenbus_exit(void);
void xnb_backend_assert_held(struct xnb_vif *vif);

/* The counters' one writer adds; readers retry (u64_stats). */
static inline void xnb_stat_add(struct xnb_queue *q, u64_stats_t *field,
				unsigned long v)
{
	u64_stats_update_begin(&q->stats.sync);
	u64_stats_add(field, v);
	u64_stats_update_end(&q->stats.sync);
}

static inline void xnb_gstat_add(struct xnb_group *g, u64_stats_t *field,
				 u64 v)
{
	u64_stats_update_begin(&g->stats.sync);
	u64_stats_add(field, v);
	u64_stats_update_end(&g->stats.sync);
}

static inline u64 xnb_gstat(const struct xnb_group *g,
			    const u64_stats_t *field)
{
	unsigned int start;
	u64 v;

	do {
		start = u64_stats_fetch_begin(&g->stats.sync);
		v = u64_stats_read(field);
	} while (u64_stats_fetch_retry(&g->stats.sync, start));
	return v;
}

/**
 * xnb_ring_push() - Publish a back ring's new responses.
 * @rsp_prod: the shared ring's rsp_prod
 * @rsp_event: the shared ring's rsp_event
 * @prod_pvt: the ring's private response producer
 * @pushed: the rsp_prod last published; ours: the guest may rewrite its own
 * Context: the ring's one response producer.
 * Return: true when the frontend is to be notified.
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
