/* http_client.c: an HTTP/1.1 load client for bench/uring.sh in C, one thread on epoll, like
 * echo_client.c beside it, so that the client is not what limits a fast server: pinned to
 * its core, wrk saturated it while uvgo's io_uring server had room on its own. Each
 * of CONNS keep-alive connections sends "GET / HTTP/1.1", reads the whole response (its
 * headers, then Content-Length bytes of body), and sends the next request, for SECONDS; one
 * request is in flight per connection, as with wrk. It prints:
 *   http_client 127.0.0.1:8080 50 3
 *   req_per_s=123456 requests=370368 conns=50
 * It stops with an error, and status 1, on a response that is not "HTTP/1.1 200", that has
 * no Content-Length or a bad one, that has a Transfer-Encoding (chunked, say), that exceeds
 * 4 KiB, or on a connection the server closes: every server it measures must answer each
 * request in full.
 * Build: cc -O2 -o http_client http_client.c (no libuv needed). */
#define _GNU_SOURCE
#include "client.h"
#include <strings.h>

enum { BUFSIZE = 4096 };

struct conn {
	int fd;
	size_t got;  /* bytes of the current response in buf */
	size_t want; /* its whole length, once its headers are in; else 0 */
	char buf[BUFSIZE];
};

static void fail(const char *why) {
	fprintf(stderr, "http_client: %s\n", why);
	exit(1);
}

/* header reports whether line (inside the headers, before end) is the header name, and sets
 * *value to the first byte of its value past spaces and tabs. */
static int header(const char *line, const char *end, const char *name, const char **value) {
	size_t n = strlen(name);
	if ((size_t)(end - line) <= n || strncasecmp(line, name, n) != 0 || line[n] != ':')
		return 0;
	const char *p = line + n + 1;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	*value = p;
	return 1;
}

/* measure sets c->want from the headers in c->buf, once they are all in; it fails on a
 * response this client does not take: not "HTTP/1.1 200", no Content-Length or two that
 * differ, a Content-Length that is not digits alone on its line, any Transfer-Encoding. */
static void measure(struct conn *c) {
	char *end = memmem(c->buf, c->got, "\r\n\r\n", 4);
	if (!end) {
		if (c->got == BUFSIZE)
			fail("response headers over 4 KiB");
		return;
	}
	size_t head = (size_t)(end - c->buf) + 4;
	if (c->got < 12 || memcmp(c->buf, "HTTP/1.1 200", 12) != 0)
		fail("a response other than HTTP/1.1 200");
	long length = -1;
	for (char *line = memchr(c->buf, '\n', head); line && line < end; line = memchr(line, '\n', (size_t)(end - line))) {
		line++;
		const char *p;
		if (header(line, end, "Transfer-Encoding", &p))
			fail("a response with Transfer-Encoding");
		if (!header(line, end, "Content-Length", &p))
			continue;
		long v = 0;
		const char *digits = p;
		while (p < end && *p >= '0' && *p <= '9' && v <= 1 << 20)
			v = v * 10 + (*p++ - '0');
		while (p < end && (*p == ' ' || *p == '\t'))
			p++;
		if (p == digits || v > 1 << 20 || *p != '\r' || (length >= 0 && v != length))
			fail("a bad Content-Length");
		length = v;
	}
	if (length < 0)
		fail("a response without Content-Length");
	c->want = head + (size_t)length;
	if (c->want > BUFSIZE)
		fail("a response over 4 KiB");
}

int main(int argc, char **argv) {
	if (argc != 4) {
		fprintf(stderr, "usage: %s HOST:PORT CONNS SECONDS\n", argv[0]);
		return 2;
	}
	struct sockaddr_in sa;
	if (parse_addr(argv[1], &sa) < 0)
		return 2;
	int nconns = atoi(argv[2]);
	double secs = atof(argv[3]);
	if (nconns <= 0 || secs <= 0)
		return 2;
	char req[128];
	int reqlen = snprintf(req, sizeof req, "GET / HTTP/1.1\r\nHost: %s\r\n\r\n", argv[1]);
	if (reqlen < 0 || (size_t)reqlen >= sizeof req)
		return 2;
	int ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0)
		die("epoll_create1");
	struct conn *cs = calloc((size_t)nconns, sizeof *cs);
	if (!cs)
		die("calloc");
	for (int i = 0; i < nconns; i++)
		cs[i].fd = dial(&sa, ep, i);
	long long total = 0;
	double start = now(), deadline = start + secs;
	for (int i = 0; i < nconns; i++)
		send_all(cs[i].fd, req, (size_t)reqlen);
	int live = nconns;
	struct epoll_event evs[256];
	while (live > 0) {
		int n = epoll_wait(ep, evs, 256, 1000);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			die("epoll_wait");
		}
		if (n == 0 && now() > deadline + 5)
			fail("responses still missing 5 seconds after the deadline");
		int past = now() >= deadline;
		for (int k = 0; k < n; k++) {
			struct conn *c = &cs[evs[k].data.u32];
			ssize_t r = read(c->fd, c->buf + c->got, BUFSIZE - c->got);
			if (r < 0 && (errno == EAGAIN || errno == EINTR))
				continue;
			if (r <= 0)
				fail("connection closed or failed");
			c->got += (size_t)r;
			if (c->want == 0)
				measure(c);
			if (c->want == 0 || c->got < c->want)
				continue;
			if (c->got > c->want)
				fail("more than the response (one request is in flight)");
			c->got = c->want = 0;
			total++;
			if (past) { /* done: this connection stops */
				epoll_ctl(ep, EPOLL_CTL_DEL, c->fd, NULL);
				close(c->fd);
				live--;
				continue;
			}
			send_all(c->fd, req, (size_t)reqlen);
		}
	}
	double el = now() - start;
	printf("req_per_s=%.0f requests=%lld conns=%d\n", total / el, total, nconns);
	free(cs);
	close(ep);
	return 0;
}
