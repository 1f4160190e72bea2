// SPDX-License-Identifier: GPL-2.0
/*
 * hostile: foreign pages.  In the guest, grant dom0 one page holding a
 * pattern; in dom0, map it (gntdev) and send it over TCP with
 * MSG_ZEROCOPY, so that skbs carrying a foreign page reach the backend's
 * guest RX path.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <linux/errqueue.h>

#include "cases.h"

#define FOREIGN_PATTERN "XNB-FOREIGN-PAG\n"	/* 16 bytes, as `yes` prints it */

int grant_page(int seconds)
{
	struct xs_handle *xs = xs_open(0);
	xengntshr_handle *gs = xengntshr_open(NULL, 0);
	uint32_t ref;
	char buf[16];
	char *p;
	unsigned int i;

	if (!xs || !gs)
		die("xs_open/xengntshr_open (is xen-gntalloc loaded?)");
	p = xengntshr_share_pages(gs, 0, 1, &ref, 0);	/* dom0 reads only */
	if (!p)
		die("sharing a page with dom0");
	for (i = 0; i < PAGE; i += 16)
		memcpy(p + i, FOREIGN_PATTERN, 16);
	snprintf(buf, sizeof(buf), "%u", ref);
	xs_write(xs, XBT_NULL, "data/foreign-gref", buf, strlen(buf));
	printf("HOSTILE-GRANT gref=%u\n", ref);
	fflush(stdout);
	if (fork() == 0) {
		freopen("/dev/null", "w", stdout);
		freopen("/dev/null", "w", stderr);
		setsid();
		sleep(seconds);
		xengntshr_unshare(gs, p, 1);
		_exit(0);
	}
	return 0;
}

/* Zerocopy completions: the highest notification id seen so far, and
 * whether the kernel had to copy (then no foreign page reached the vif).
 */
static void zc_reap(int fd, int64_t *hi, int *copied, int ms)
{
	char ctl[256];
	struct pollfd pfd = { .fd = fd, .events = 0 };

	while (poll(&pfd, 1, ms) > 0 && (pfd.revents & POLLERR)) {
		struct msghdr mh = { .msg_control = ctl,
				     .msg_controllen = sizeof(ctl) };
		struct cmsghdr *c;

		if (recvmsg(fd, &mh, MSG_ERRQUEUE) < 0)
			break;
		for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
			struct sock_extended_err *e = (void *)CMSG_DATA(c);

			if (e->ee_origin != SO_EE_ORIGIN_ZEROCOPY)
				continue;
			if ((int64_t)e->ee_data > *hi)
				*hi = e->ee_data;
			if (e->ee_code & SO_EE_CODE_ZEROCOPY_COPIED)
				*copied = 1;
		}
	}
}

int foreign_send(int domid, uint32_t gref, const char *ip, int port,
			int pages)
{
	xengnttab_handle *gt = xengnttab_open(NULL, 0);
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port) };
	int fd, one = 1, i, copied = 0, sent = 0;
	int64_t hi = -1;
	long t0;
	char *p;

	if (!gt)
		die("xengnttab_open (is xen-gntdev loaded?)");
	p = xengnttab_map_grant_ref(gt, domid, gref, PROT_READ);
	if (!p)
		die("mapping gref %u of domain %d", gref, domid);
	if (memcmp(p, FOREIGN_PATTERN, 16))
		die("mapped page does not hold the pattern");
	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || inet_pton(AF_INET, ip, &sa.sin_addr) != 1)
		die("socket/address %s", ip);
	if (setsockopt(fd, SOL_SOCKET, SO_ZEROCOPY, &one, sizeof(one)))
		die("SO_ZEROCOPY");
	if (connect(fd, (void *)&sa, sizeof(sa)))
		die("connect %s:%d", ip, port);
	{
		struct timeval tv = { .tv_sec = 2 };

		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	}
	t0 = now_ms();
	for (i = 0; i < pages && now_ms() - t0 < 40000; i++) {
		ssize_t n = send(fd, p, PAGE, MSG_ZEROCOPY);

		if (n < 0 && errno == EAGAIN) {		/* stalled: try on */
			zc_reap(fd, &hi, &copied, 0);
			i--;
			continue;
		}
		if (n < 0 && errno == ENOBUFS) {	/* optmem full: reap, retry */
			zc_reap(fd, &hi, &copied, 100);
			i--;
			continue;
		}
		if (n != (ssize_t)PAGE)
			die("send returned %zd after %d pages", n, i);
		sent += n;
		zc_reap(fd, &hi, &copied, 0);
	}
	shutdown(fd, SHUT_WR);
	/* The page stays mapped until the stack let go of every send. */
	while (hi < pages - 1 && now_ms() - t0 < 50000)
		zc_reap(fd, &hi, &copied, 500);
	printf("HOSTILE-FOREIGN sent=%d completions=%lld copied=%d ms=%ld\n",
	       sent, (long long)hi + 1, copied, now_ms() - t0);
	fflush(stdout);
	if (hi < pages - 1) {
		/* The stack still holds the page: abort the connection (RST
		 * purges what waits to be sent) and give it time to let go
		 * before exit unmaps the page.
		 */
		struct linger lg = { .l_onoff = 1, .l_linger = 0 };

		setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
		close(fd);
		sleep(3);
		return 1;
	}
	close(fd);
	xengnttab_unmap(gt, p, 1);
	return copied ? 3 : 0;
}
