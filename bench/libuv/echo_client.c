/* echo_client.c: the TCP echo client of bench/uring.sh in C, one thread on epoll, so that
 * the client is not what limits a fast echo server (cmd/echoclient, in Go, reached only
 * 50-60 k round trips/s on its core, with the servers at 40% of theirs). Each of CONNS
 * connections sends a SIZE-byte message, waits for all of its echo, and sends again, for
 * SECONDS; it prints what cmd/echoclient prints:
 *   echo_client 127.0.0.1:7000 50 64 3
 *   rtt_per_s=123456 round_trips=370368 conns=50 size=64
 * Build: cc -O2 -o echo_client echo_client.c (no libuv needed). */
#define _GNU_SOURCE
#include "client.h"

struct conn {
	int fd;
	size_t got; /* bytes of the current echo received */
};

int main(int argc, char **argv) {
	if (argc != 5) {
		fprintf(stderr, "usage: %s HOST:PORT CONNS SIZE SECONDS\n", argv[0]);
		return 2;
	}
	struct sockaddr_in sa;
	if (parse_addr(argv[1], &sa) < 0)
		return 2;
	int nconns = atoi(argv[2]);
	size_t size = (size_t)atol(argv[3]);
	double secs = atof(argv[4]);
	if (nconns <= 0 || size == 0 || size > 65536 || secs <= 0)
		return 2;
	char *msg = malloc(size), *buf = malloc(size);
	memset(msg, 'x', size);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		die("epoll_create1");
	struct conn *cs = calloc((size_t)nconns, sizeof *cs);
	for (int i = 0; i < nconns; i++)
		cs[i].fd = dial(&sa, ep, i);
	long long total = 0;
	double start = now(), deadline = start + secs;
	for (int i = 0; i < nconns; i++)
		send_all(cs[i].fd, msg, size);
	int live = nconns;
	struct epoll_event evs[256];
	while (live > 0) {
		int n = epoll_wait(ep, evs, 256, 1000);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("epoll_wait");
		}
		int past = now() >= deadline;
		for (int k = 0; k < n; k++) {
			struct conn *c = &cs[evs[k].data.u32];
			ssize_t r = read(c->fd, buf, size - c->got);
			if (r < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			if (r <= 0) {
				fprintf(stderr, "echo_client: connection closed or failed\n");
				return 1;
			}
			c->got += (size_t)r;
			if (c->got < size)
				continue;
			c->got = 0;
			total++;
			if (past) { /* done: this connection stops */
				epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
				close(c->fd);
				live--;
				continue;
			}
			send_all(c->fd, msg, size);
		}
	}
	double el = now() - start;
	printf("rtt_per_s=%.0f round_trips=%lld conns=%d size=%zu\n", total / el, total, nconns, size);
	return 0;
}
