/*
 * async-send: cross-thread wake-up throughput. A second thread (pthread)
 * calls uv_async_send N times as fast as it can; the loop counts the
 * callbacks it gets. libuv coalesces sends that arrive while one is still
 * pending, so callbacks <= N.
 *
 * Ending: the sender makes N-1 sends, sets an atomic flag (sequentially
 * consistent store), then makes its N-th send. Any callback that runs after
 * that last send was issued sees the flag; the first callback that sees it
 * unreferences the handle, so uv_run returns after that iteration. The
 * handle is closed only after the thread is joined, so no send can race
 * with uv_close.
 *
 * Measured: from just before pthread_create until uv_run has returned and
 * the thread is joined. ns_per_op = total / N sends.
 * Extra: callbacks, coalesced = N - callbacks, send_ns_per_op (the sender's
 * own time for its N sends, measured on the sending thread).
 */
#include <pthread.h>
#include <stdatomic.h>

#include "bench.h"

static uv_async_t async;
static atomic_int done;
static uint64_t n;
static uint64_t callbacks;
static int64_t send_ns;

static void on_async(uv_async_t *h)
{
	callbacks++;
	if (atomic_load(&done))
		uv_unref((uv_handle_t *)h);
}

static void *sender(void *arg)
{
	uint64_t i;
	int64_t t0;

	(void)arg;
	t0 = bench_now();
	for (i = 1; i < n; i++)
		UV_CHECK(uv_async_send(&async));
	atomic_store(&done, 1);
	UV_CHECK(uv_async_send(&async));
	send_ns = bench_now() - t0;
	return NULL;
}

int main(int argc, char **argv)
{
	uv_loop_t loop;
	pthread_t thread;
	int64_t t0, t1;
	int err;

	n = bench_init("async-send", argc, argv, 1000000);
	UV_CHECK(uv_loop_init(&loop));
	UV_CHECK(uv_async_init(&loop, &async, on_async));

	t0 = bench_now();
	err = pthread_create(&thread, NULL, sender, NULL);
	if (err != 0)
		bench_fail("pthread_create: %s", strerror(err));
	bench_run(&loop);
	err = pthread_join(thread, NULL);
	if (err != 0)
		bench_fail("pthread_join: %s", strerror(err));
	t1 = bench_now();

	if (callbacks == 0 || callbacks > n)
		bench_fail("%" PRIu64 " callbacks for %" PRIu64 " sends",
			   callbacks, n);
	bench_close_all(&loop);
	bench_report(n, t1 - t0,
		     "callbacks=%" PRIu64 " coalesced=%" PRIu64
		     " send_ns_per_op=%.3f",
		     callbacks, n - callbacks, (double)send_ns / n);
	return 0;
}
