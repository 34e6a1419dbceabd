/*
 * bench.h - helpers shared by the libuv workload programs.
 *
 * Every program is invoked as `prog [N]`, times the measured part with
 * clock_gettime(CLOCK_MONOTONIC) and prints exactly one line on stdout:
 *
 *   name=<workload> n=<N> ns_per_op=<float> total_ns=<int> [key=value ...]
 *
 * On any failure it prints a message on stderr and exits non-zero.
 */
#ifndef UVGO_BENCH_LIBUV_H
#define UVGO_BENCH_LIBUV_H

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <uv.h>

/* Set by bench_init; used as the prefix of error messages and as name=. */
static const char *bench_name = "bench";

static void bench_fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", bench_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void bench_uv_fail(const char *call, int err, const char *file, int line)
{
	bench_fail("%s:%d: %s failed: %s (%s)", file, line, call,
		   uv_strerror(err), uv_err_name(err));
}

/* UV_CHECK wraps a libuv call that returns 0 on success and a negative
 * error code on failure. */
#define UV_CHECK(call)                                                   \
	do {                                                             \
		int bench_rc_ = (call);                                  \
		if (bench_rc_ != 0)                                      \
			bench_uv_fail(#call, bench_rc_, __FILE__, __LINE__); \
	} while (0)

/* Monotonic clock in nanoseconds. */
static int64_t bench_now(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0)
		bench_fail("clock_gettime: %s", strerror(errno));
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* bench_init records the workload name and returns N: argv[1] if given,
 * otherwise def. N must be a positive integer. */
static uint64_t bench_init(const char *name, int argc, char **argv,
			   uint64_t def)
{
	char *end;
	unsigned long long v;

	bench_name = name;
	if (argc > 2)
		bench_fail("usage: %s [N]", argv[0]);
	if (argc < 2)
		return def;
	errno = 0;
	v = strtoull(argv[1], &end, 10);
	if (errno != 0 || end == argv[1] || *end != '\0' || v == 0 ||
	    argv[1][0] == '-')
		bench_fail("N must be a positive integer, got %s", argv[1]);
	return (uint64_t)v;
}

/* bench_report prints the result line. extra is a printf format for
 * additional space-separated key=value fields, or NULL. */
static void bench_report(uint64_t n, int64_t total_ns, const char *extra, ...)
{
	va_list ap;

	printf("name=%s n=%" PRIu64 " ns_per_op=%.3f total_ns=%" PRId64,
	       bench_name, n, (double)total_ns / (double)n, total_ns);
	if (extra != NULL) {
		putchar(' ');
		va_start(ap, extra);
		vprintf(extra, ap);
		va_end(ap);
	}
	putchar('\n');
	if (fflush(stdout) != 0)
		bench_fail("writing stdout: %s", strerror(errno));
}

/* bench_run runs the loop in UV_RUN_DEFAULT mode; uv_run returns non-zero
 * only if the loop was stopped while handles were still active, which no
 * workload here does. */
static void bench_run(uv_loop_t *loop)
{
	int r = uv_run(loop, UV_RUN_DEFAULT);

	if (r != 0)
		bench_fail("uv_run returned %d: loop still alive", r);
}

/* bench_close_all closes every handle still open on the loop, lets the
 * close callbacks run and closes the loop, failing if anything is left. */
static void bench_close_walk(uv_handle_t *h, void *arg)
{
	(void)arg;
	if (!uv_is_closing(h))
		uv_close(h, NULL);
}

static void bench_close_all(uv_loop_t *loop)
{
	uv_walk(loop, bench_close_walk, NULL);
	bench_run(loop);
	UV_CHECK(uv_loop_close(loop));
}

#endif /* UVGO_BENCH_LIBUV_H */
