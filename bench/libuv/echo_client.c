/* echo_client.c: the TCP echo client of bench/uring.sh in C, one thread on epoll, so that
 * the client is not what limits a fast echo server (cmd/echoclient, in Go, reached only
 * 50-60 k round trips/s on its core, with the servers at 40% of theirs). Each of CONNS
 * connections sends a SIZE-byte message, waits for all of its echo, and sends again, for
 * SECONDS; it prints what cmd/echoclient prints:
 *   echo_client 127.0.0.1:7000 50 64 3
 *   rtt_per_s=123456 round_trips=370368 conns=50 size=64
 * Build: cc -O2 -o echo_client echo_client.c (no libuv needed). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct conn {
	int fd;
	size_t got; /* bytes of the current echo received */
};

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what) {
	perror(what);
	exit(1);
}

/* send_all writes the whole message (a 64-byte write to a fresh socket buffer always fits). */
static void send_all(int fd, const char *msg, size_t size) {
	size_t off = 0;
	while (off < size) {
		ssize_t n = write(fd, msg + off, size - off);
		if (n < 0) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			die("write");
		}
		off += (size_t)n;
	}
}

int main(int argc, char **argv) {
	if (argc != 5) {
		fprintf(stderr, "usage: %s HOST:PORT CONNS SIZE SECONDS\n", argv[0]);
		return 2;
	}
	char host[64];
	snprintf(host, sizeof host, "%s", argv[1]);
	char *colon = strrchr(host, ':');
	if (!colon)
		return 2;
	*colon = 0;
	int port = atoi(colon + 1), nconns = atoi(argv[2]);
	size_t size = (size_t)atol(argv[3]);
	double secs = atof(argv[4]);
	if (nconns <= 0 || size == 0 || size > 65536 || secs <= 0)
		return 2;
	struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port)};
	if (inet_pton(AF_INET, host, &sa.sin_addr) != 1)
		return 2;
	char *msg = malloc(size), *buf = malloc(size);
	memset(msg, 'x', size);
	int ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		die("epoll_create1");
	struct conn *cs = calloc((size_t)nconns, sizeof *cs);
	for (int i = 0; i < nconns; i++) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0)
			die("connect");
		int one = 1;
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		cs[i].fd = fd;
		struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)i};
		if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0)
			die("epoll_ctl");
	}
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
