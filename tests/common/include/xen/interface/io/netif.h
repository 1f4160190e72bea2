/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's <xen/interface/io/netif.h> for the userspace builds (see
 * tests/common/xnb_user.h): libxen-dev's copy of the same Xen header,
 * which spells the ring types without the kernel's xen_ prefix.
 */
#ifndef XNB_USER_NETIF_H
#define XNB_USER_NETIF_H

#include <xen/xen.h>
#include <xen/io/netif.h>

#define xen_netif_tx_request		netif_tx_request
#define xen_netif_extra_info		netif_extra_info
#define xen_netif_tx_sring_entry	netif_tx_sring_entry
#define XEN_NETTXF_csum_blank		NETTXF_csum_blank
#define XEN_NETTXF_data_validated	NETTXF_data_validated
#define XEN_NETTXF_more_data		NETTXF_more_data
#define XEN_NETTXF_extra_info		NETTXF_extra_info

#endif /* XNB_USER_NETIF_H */
