/*
 * async-pingpong: cross-thread round-trip latency. A second thread
 * (pthread) calls uv_async_send, then waits on a POSIX semaphore that the
 * loop's async callback posts; it repeats this N times. Since the sender
 * waits for each acknowledgement, nothing is coalesced: the loop sees
 * exactly N callbacks. After the N-th it closes the handle and uv_run
 * returns.
 *
 * Measured: from just before pthread_create until uv_run has returned and
 * the thread is joined. ns_per_op = per round trip.
 */
#include <pthread.h>
#include <semaphore.h>

#include "bench.h"

static uv_async_t async;
static sem_t ack;
static uint64_t n;
static uint64_t callbacks;

static void on_async(uv_async_t *h)
{
	callbacks++;
	if (sem_post(&ack) != 0)
		bench_fail("sem_post: %s", strerror(errno));
	if (callbacks == n)
		uv_close((uv_handle_t *)h, NULL);
}

static void *sender(void *arg)
{
	uint64_t i;

	(void)arg;
	for (i = 0; i < n; i++) {
		UV_CHECK(uv_async_send(&async));
		while (sem_wait(&ack) != 0)
			if (errno != EINTR)
				bench_fail("sem_wait: %s", strerror(errno));
	}
	return NULL;
}

int main(int argc, char **argv)
{
	uv_loop_t loop;
	pthread_t thread;
	int64_t t0, t1;
	int err;

	n = bench_init("async-pingpong", argc, argv, 200000);
	if (sem_init(&ack, 0, 0) != 0)
		bench_fail("sem_init: %s", strerror(errno));
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

	if (callbacks != n)
		bench_fail("%" PRIu64 " callbacks for %" PRIu64 " round trips",
			   callbacks, n);
	bench_close_all(&loop);
	if (sem_destroy(&ack) != 0)
		bench_fail("sem_destroy: %s", strerror(errno));
	bench_report(n, t1 - t0, NULL);
	return 0;
}
