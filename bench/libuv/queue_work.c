/*
 * queue-work: the threadpool round trip. N uv_queue_work with an empty work
 * callback, all queued at once; the after-work callback (on the loop, in
 * the poll phase) counts them. libuv's pool has UV_THREADPOOL_SIZE threads
 * (4 unless the environment says otherwise); their completions are batched
 * through one internal uv_async_t.
 *
 * Measured: from just before the first uv_queue_work until uv_run has
 * returned (every after-work callback ran). ns_per_op = total / N items.
 * Extra: queue_ns_per_op (the time of the N uv_queue_work calls alone).
 */
#include "bench.h"

static uint64_t done;

static void work_cb(uv_work_t *req)
{
	(void)req;
}

static void after_cb(uv_work_t *req, int status)
{
	(void)req;
	if (status != 0)
		bench_uv_fail("after_work_cb status", status, __FILE__, __LINE__);
	done++;
}

int main(int argc, char **argv)
{
	uv_loop_t loop;
	uv_work_t *reqs;
	uint64_t n, i;
	int64_t t0, t1, tq;

	n = bench_init("queue-work", argc, argv, 200000);
	reqs = calloc(n, sizeof(*reqs));
	if (reqs == NULL)
		bench_fail("calloc of %" PRIu64 " requests failed", n);
	UV_CHECK(uv_loop_init(&loop));

	t0 = bench_now();
	for (i = 0; i < n; i++)
		UV_CHECK(uv_queue_work(&loop, &reqs[i], work_cb, after_cb));
	tq = bench_now();
	bench_run(&loop);
	t1 = bench_now();

	if (done != n)
		bench_fail("%" PRIu64 " after-work callbacks for %" PRIu64
			   " items", done, n);
	bench_close_all(&loop);
	free(reqs);
	bench_report(n, t1 - t0, "queue_ns_per_op=%.3f",
		     (double)(tq - t0) / (double)n);
	return 0;
}
