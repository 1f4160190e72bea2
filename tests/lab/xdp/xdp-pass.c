// SPDX-License-Identifier: GPL-2.0
/*
 * xdp-pass IFNAME [off]: attach (or remove) an XDP program that passes
 * every packet, in driver mode, for the lab's xdp scenario.  The guest
 * image has no clang or libbpf: the program is two instructions loaded
 * with bpf(2) and attached with an RTM_SETLINK IFLA_XDP request.  The
 * kernel keeps the program while it is attached; we may exit.
 */
#include <errno.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/bpf.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

static int load_pass(void)
{
	struct bpf_insn insn[2] = {
		/* r0 = XDP_PASS */
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0,
		  .imm = XDP_PASS },
		/* return r0 */
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[4096];
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_XDP;
	a.insn_cnt = 2;
	a.insns = (uintptr_t)insn;
	a.license = (uintptr_t)"GPL";
	a.log_buf = (uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	fd = syscall(__NR_bpf, BPF_PROG_LOAD, &a, sizeof(a));
	if (fd < 0)
		fprintf(stderr, "BPF_PROG_LOAD: %s\n%s\n", strerror(errno), log);
	return fd;
}

static void put_attr(struct nlmsghdr *nh, unsigned short type,
		     const void *data, unsigned short len)
{
	struct nlattr *na = (void *)((char *)nh + NLMSG_ALIGN(nh->nlmsg_len));

	na->nla_type = type;
	na->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)na + NLA_HDRLEN, data, len);
	nh->nlmsg_len = NLMSG_ALIGN(nh->nlmsg_len) + NLA_ALIGN(na->nla_len);
}

static int attach(int ifindex, int fd)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		char buf[128];
	} req;
	char ans[4096];
	uint32_t flags = XDP_FLAGS_DRV_MODE;
	struct nlattr *nest;
	struct nlmsghdr *nh;
	struct nlmsgerr *e;
	int s, n;

	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi));
	req.nh.nlmsg_type = RTM_SETLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	req.ifi.ifi_family = AF_UNSPEC;
	req.ifi.ifi_index = ifindex;
	nest = (void *)((char *)&req + NLMSG_ALIGN(req.nh.nlmsg_len));
	put_attr(&req.nh, IFLA_XDP | NLA_F_NESTED, NULL, 0);
	put_attr(&req.nh, IFLA_XDP_FD, &fd, sizeof(fd));
	put_attr(&req.nh, IFLA_XDP_FLAGS, &flags, sizeof(flags));
	nest->nla_len = (char *)&req + req.nh.nlmsg_len - (char *)nest;

	s = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE);
	if (s < 0 || send(s, &req, req.nh.nlmsg_len, 0) < 0) {
		perror("netlink");
		return -1;
	}
	n = recv(s, ans, sizeof(ans), 0);
	close(s);
	nh = (void *)ans;
	if (n < (int)NLMSG_LENGTH(sizeof(*e)) || nh->nlmsg_type != NLMSG_ERROR) {
		fprintf(stderr, "netlink: no answer\n");
		return -1;
	}
	e = NLMSG_DATA(nh);
	if (e->error) {
		fprintf(stderr, "IFLA_XDP: %s\n", strerror(-e->error));
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int ifindex, fd = -1;

	if (argc < 2) {
		fprintf(stderr, "usage: xdp-pass IFNAME [off]\n");
		return 2;
	}
	ifindex = if_nametoindex(argv[1]);
	if (!ifindex) {
		perror(argv[1]);
		return 1;
	}
	if (argc < 3 || strcmp(argv[2], "off")) {
		fd = load_pass();
		if (fd < 0)
			return 1;
	}
	if (attach(ifindex, fd))
		return 1;
	printf("%s: XDP %s\n", argv[1], fd < 0 ? "removed" : "pass attached");
	return 0;
}
