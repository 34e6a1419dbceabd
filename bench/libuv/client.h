/* client.h: what the C load clients of bench/uring.sh (echo_client.c, http_client.c) share:
 * the clock, dying on a failed system call, writing a whole request, parsing HOST:PORT
 * (IPv4), and dialing a connection that epoll watches for reading. */
#ifndef UVGO_BENCH_CLIENT_H
#define UVGO_BENCH_CLIENT_H

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void die(const char *what) {
	perror(what);
	exit(1);
}

/* send_all writes the whole message (a short write to a fresh socket buffer always fits). */
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

/* parse_addr fills sa from "HOST:PORT" (an IPv4 address); it returns 0, or -1 when arg is
 * not one. */
static int parse_addr(const char *arg, struct sockaddr_in *sa) {
	char host[64];
	snprintf(host, sizeof host, "%s", arg);
	char *colon = strrchr(host, ':');
	if (!colon)
		return -1;
	*colon = 0;
	int port = atoi(colon + 1);
	if (port <= 0 || port > 65535)
		return -1;
	memset(sa, 0, sizeof *sa);
	sa->sin_family = AF_INET;
	sa->sin_port = htons((uint16_t)port);
	return inet_pton(AF_INET, host, &sa->sin_addr) == 1 ? 0 : -1;
}

/* dial connects a socket to sa (TCP_NODELAY) and registers it with ep for reading, with
 * index as its event data; it returns the socket. */
static int dial(const struct sockaddr_in *sa, int ep, int index) {
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (const struct sockaddr *)sa, sizeof *sa) < 0)
		die("connect");
	int one = 1;
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
	struct epoll_event ev = {.events = EPOLLIN, .data.u32 = (uint32_t)index};
	if (epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) < 0)
		die("epoll_ctl");
	return fd;
}

#endif
