/* SPDX-License-Identifier: GPL-2.0 */
/* Tracepoints, system xen_netback; docs/admin.md has one-liners. */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM xen_netback

/* The events' enums, once (this header is read several times). */
#ifndef XNB_TRACE_ENUMS
#define XNB_TRACE_ENUMS

#include <xen/xnb_proto.h>

enum xnb_handoff_dir {
	XNB_HANDOFF_TO_THREAD,
	XNB_HANDOFF_TO_LIGHT,
};

/* enum xnb_handoff_reason is proto.c's (xnb_proto.h). */

enum xnb_move_reason {
	XNB_MOVE_BALANCE,	/* the balancer, by measured load */
	XNB_MOVE_PIN,		/* the vif's worker-group key */
	XNB_MOVE_REGROUP,	/* the groups parameter written */
};

#endif /* XNB_TRACE_ENUMS */

#if !defined(XNB_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define XNB_TRACE_H

#include <linux/jiffies.h>
#include <linux/tracepoint.h>

#include "xnb_compat.h"

TRACE_DEFINE_ENUM(XNB_HANDOFF_TO_THREAD);
TRACE_DEFINE_ENUM(XNB_HANDOFF_TO_LIGHT);
TRACE_DEFINE_ENUM(XNB_HANDOFF_BUDGET);
TRACE_DEFINE_ENUM(XNB_HANDOFF_REQUEUED);
TRACE_DEFINE_ENUM(XNB_HANDOFF_PASSES);
TRACE_DEFINE_ENUM(XNB_HANDOFF_IDLE);
TRACE_DEFINE_ENUM(XNB_HANDOFF_CAP);
TRACE_DEFINE_ENUM(XNB_MOVE_BALANCE);
TRACE_DEFINE_ENUM(XNB_MOVE_PIN);
TRACE_DEFINE_ENUM(XNB_MOVE_REGROUP);

/* slots (both ways; an empty turn counts one) last: tools read by position. */
TRACE_EVENT(xnb_group_pass,
	    TP_PROTO(unsigned int group, unsigned int queues, unsigned int tx,
		     unsigned int rx, unsigned int ops, u64 duration_ns,
		     unsigned int slots),
	    TP_ARGS(group, queues, tx, rx, ops, duration_ns, slots),
	    TP_STRUCT__entry(__field(unsigned int, group)
			     __field(unsigned int, queues)
			     __field(unsigned int, tx)
			     __field(unsigned int, rx)
			     __field(unsigned int, ops)
			     __field(u64, duration_ns)
			     __field(unsigned int, slots)),
	    TP_fast_assign(__entry->group = group;
			   __entry->queues = queues;
			   __entry->tx = tx;
			   __entry->rx = rx;
			   __entry->ops = ops;
			   __entry->duration_ns = duration_ns;
			   __entry->slots = slots;),
	    TP_printk("group=%u queues=%u tx=%u rx=%u ops=%u duration_ns=%llu slots=%u",
		      __entry->group, __entry->queues, __entry->tx, __entry->rx,
		      __entry->ops, __entry->duration_ns, __entry->slots)
);

TRACE_EVENT(xnb_group_handoff,
	    TP_PROTO(unsigned int group, int dir, int reason),
	    TP_ARGS(group, dir, reason),
	    TP_STRUCT__entry(__field(unsigned int, group)
			     __field(int, dir)
			     __field(int, reason)),
	    TP_fast_assign(__entry->group = group;
			   __entry->dir = dir;
			   __entry->reason = reason;),
	    TP_printk("group=%u %s reason=%s", __entry->group,
		      __print_symbolic(__entry->dir,
				       { XNB_HANDOFF_TO_THREAD, "light->thread" },
				       { XNB_HANDOFF_TO_LIGHT, "thread->light" }),
		      __print_symbolic(__entry->reason,
				       { XNB_HANDOFF_BUDGET, "budget" },
				       { XNB_HANDOFF_REQUEUED, "requeued" },
				       { XNB_HANDOFF_PASSES, "passes" },
				       { XNB_HANDOFF_IDLE, "idle" },
				       { XNB_HANDOFF_CAP, "cap" }))
);

/* busy_*: the groups' busy share over the balancer's interval, in 1/1000;
 * load: the queue's packets over it.  All 0 for a pin or a regroup.
 */
TRACE_EVENT(xnb_queue_move,
	    TP_PROTO(const char *queue, int from, int to, int reason,
		     u32 busy_from, u32 busy_to, u64 load),
	    TP_ARGS(queue, from, to, reason, busy_from, busy_to, load),
	    TP_STRUCT__entry(__string(queue, queue)
			     __field(int, from)
			     __field(int, to)
			     __field(int, reason)
			     __field(u32, busy_from)
			     __field(u32, busy_to)
			     __field(u64, load)),
	    TP_fast_assign(xnb_assign_str(queue, queue);
			   __entry->from = from;
			   __entry->to = to;
			   __entry->reason = reason;
			   __entry->busy_from = busy_from;
			   __entry->busy_to = busy_to;
			   __entry->load = load;),
	    TP_printk("%s from=%d to=%d reason=%s busy_from=%u/1000 busy_to=%u/1000 load=%llu",
		      __get_str(queue), __entry->from, __entry->to,
		      __print_symbolic(__entry->reason,
				       { XNB_MOVE_BALANCE, "balance" },
				       { XNB_MOVE_PIN, "pin" },
				       { XNB_MOVE_REGROUP, "regroup" }),
		      __entry->busy_from, __entry->busy_to, __entry->load)
);

TRACE_EVENT(xnb_vif_disabled,
	    TP_PROTO(const char *vif, unsigned int domid, const char *reason),
	    TP_ARGS(vif, domid, reason),
	    TP_STRUCT__entry(__string(vif, vif)
			     __field(unsigned int, domid)
			     __string(reason, reason)),
	    TP_fast_assign(xnb_assign_str(vif, vif);
			   __entry->domid = domid;
			   xnb_assign_str(reason, reason);),
	    TP_printk("%s domid=%u reason=%s", __get_str(vif), __entry->domid,
		      __get_str(reason))
);

/* packets: queued for the guest (stall, unstall) or dropped (drain). */
DECLARE_EVENT_CLASS(xnb_rx_queue,
		    TP_PROTO(const char *queue, unsigned long blocked_since,
			     unsigned int packets),
		    TP_ARGS(queue, blocked_since, packets),
		    TP_STRUCT__entry(__string(queue, queue)
				     __field(unsigned int, blocked_ms)
				     __field(unsigned int, packets)),
		    TP_fast_assign(xnb_assign_str(queue, queue);
				   __entry->blocked_ms =
					jiffies_to_msecs(jiffies - blocked_since);
				   __entry->packets = packets;),
		    TP_printk("%s blocked_ms=%u packets=%u", __get_str(queue),
			      __entry->blocked_ms, __entry->packets)
);

DEFINE_EVENT(xnb_rx_queue, xnb_rx_stall,
	     TP_PROTO(const char *queue, unsigned long blocked_since,
		      unsigned int packets),
	     TP_ARGS(queue, blocked_since, packets)
);

DEFINE_EVENT(xnb_rx_queue, xnb_rx_drain,
	     TP_PROTO(const char *queue, unsigned long blocked_since,
		      unsigned int packets),
	     TP_ARGS(queue, blocked_since, packets)
);

DEFINE_EVENT(xnb_rx_queue, xnb_rx_unstall,
	     TP_PROTO(const char *queue, unsigned long blocked_since,
		      unsigned int packets),
	     TP_ARGS(queue, blocked_since, packets)
);

#endif /* XNB_TRACE_H */

/* Out of tree: define_trace.h finds this file through -I$(src) (Kbuild). */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE trace
#include <trace/define_trace.h>
