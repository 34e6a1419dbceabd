/*
 * loop-count: the cost of one empty loop iteration.
 *
 * One idle handle is active, so the poll phase never blocks. Its callback
 * counts iterations and stops the handle after N of them, which leaves the
 * loop with nothing active, so uv_run returns.
 * Measured: uv_run only. ns_per_op = per iteration.
 */
#include "bench.h"

static uint64_t target;
static uint64_t iterations;

static void on_idle(uv_idle_t *h)
{
	if (++iterations == target)
		UV_CHECK(uv_idle_stop(h));
}

int main(int argc, char **argv)
{
	uv_loop_t loop;
	uv_idle_t idle;
	int64_t t0, t1;

	target = bench_init("loop-count", argc, argv, 10000000);
	UV_CHECK(uv_loop_init(&loop));
	UV_CHECK(uv_idle_init(&loop, &idle));
	UV_CHECK(uv_idle_start(&idle, on_idle));

	t0 = bench_now();
	bench_run(&loop);
	t1 = bench_now();

	if (iterations != target)
		bench_fail("ran %" PRIu64 " iterations, want %" PRIu64,
			   iterations, target);
	bench_close_all(&loop);
	bench_report(target, t1 - t0, NULL);
	return 0;
}
