/*
 * echo_server: the libuv peer of uvgo's examples/echo and Node's
 * bench/node/tcp-echo-server.js, for the tcp-echo and idle-connections
 * workloads of cmd/uvbench (driven by cmd/echoclient and cmd/idleconns).
 *
 *   bin/echo_server [addr:port]      (default 127.0.0.1:7001)
 *
 * A uv_tcp_t listener; every connection reads into one buffer shared by the
 * loop (a read callback consumes it before the next read), and writes back
 * what it read with a request that carries its own copy of the bytes and is
 * freed in its callback. A connection costs its uv_tcp_t and nothing else
 * while idle. Prints nothing but errors; runs until killed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uv.h>

/* A write request and the bytes it writes, in one allocation. */
struct echo_write {
	uv_write_t req;
	char data[];
};

static char read_buf[64 * 1024]; /* shared by every connection */

static void fail(const char *call, int err)
{
	fprintf(stderr, "echo_server: %s: %s (%s)\n", call, uv_strerror(err),
		uv_err_name(err));
	exit(1);
}

static void on_close(uv_handle_t *h)
{
	free(h);
}

static void on_alloc(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	(void)h;
	(void)suggested;
	*buf = uv_buf_init(read_buf, sizeof read_buf);
}

static void on_write(uv_write_t *req, int status)
{
	if (status < 0 && !uv_is_closing((uv_handle_t *)req->handle))
		uv_close((uv_handle_t *)req->handle, on_close);
	free(req); /* req is the first member of its echo_write */
}

static void on_read(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
	struct echo_write *w;
	uv_buf_t out;
	int rc;

	(void)buf;
	if (nread == 0)
		return; /* EAGAIN */
	if (nread < 0) {
		if (!uv_is_closing((uv_handle_t *)s))
			uv_close((uv_handle_t *)s, on_close);
		return;
	}
	w = malloc(sizeof *w + (size_t)nread);
	if (w == NULL) {
		fprintf(stderr, "echo_server: out of memory\n");
		exit(1);
	}
	memcpy(w->data, read_buf, (size_t)nread);
	out = uv_buf_init(w->data, (unsigned int)nread);
	rc = uv_write(&w->req, s, &out, 1, on_write);
	if (rc < 0) {
		free(w);
		uv_close((uv_handle_t *)s, on_close);
	}
}

static void on_connection(uv_stream_t *server, int status)
{
	uv_tcp_t *c;
	int rc;

	if (status < 0) {
		fprintf(stderr, "echo_server: accept: %s\n", uv_strerror(status));
		return;
	}
	c = malloc(sizeof *c);
	if (c == NULL) {
		fprintf(stderr, "echo_server: out of memory\n");
		exit(1);
	}
	rc = uv_tcp_init(server->loop, c);
	if (rc < 0)
		fail("uv_tcp_init", rc);
	rc = uv_accept(server, (uv_stream_t *)c);
	if (rc < 0) {
		fprintf(stderr, "echo_server: uv_accept: %s\n", uv_strerror(rc));
		uv_close((uv_handle_t *)c, on_close);
		return;
	}
	uv_tcp_nodelay(c, 1);
	rc = uv_read_start((uv_stream_t *)c, on_alloc, on_read);
	if (rc < 0)
		uv_close((uv_handle_t *)c, on_close);
}

int main(int argc, char **argv)
{
	const char *arg = argc > 1 ? argv[1] : "127.0.0.1:7001";
	char host[256];
	const char *colon;
	struct sockaddr_in addr;
	uv_tcp_t server;
	uv_loop_t *loop = uv_default_loop();
	int port, rc;

	colon = strrchr(arg, ':');
	if (argc > 2 || colon == NULL || (size_t)(colon - arg) >= sizeof host) {
		fprintf(stderr, "usage: echo_server [addr:port]\n");
		return 2;
	}
	memcpy(host, arg, (size_t)(colon - arg));
	host[colon - arg] = '\0';
	port = atoi(colon + 1);
	if (port <= 0 || port > 65535) {
		fprintf(stderr, "echo_server: bad port in %s\n", arg);
		return 2;
	}
	rc = uv_ip4_addr(host, port, &addr);
	if (rc < 0)
		fail("uv_ip4_addr", rc);
	rc = uv_tcp_init(loop, &server);
	if (rc < 0)
		fail("uv_tcp_init", rc);
	rc = uv_tcp_bind(&server, (const struct sockaddr *)&addr, 0);
	if (rc < 0)
		fail("uv_tcp_bind", rc);
	rc = uv_listen((uv_stream_t *)&server, 1024, on_connection);
	if (rc < 0)
		fail("uv_listen", rc);
	return uv_run(loop, UV_RUN_DEFAULT);
}
