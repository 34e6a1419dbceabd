/*
 * check-idle: the per-iteration cost that a chain of Node setImmediate
 * calls pays. An idle handle keeps the poll timeout at zero and a check
 * handle runs once per iteration, after poll. The check callback counts
 * iterations and, after N of them, stops both handles so uv_run returns.
 * Measured: uv_run only. ns_per_op = per iteration.
 */
#include "bench.h"

static uint64_t target;
static uint64_t iterations;
static uv_idle_t idle;

static void on_idle(uv_idle_t *h)
{
	(void)h;
}

static void on_check(uv_check_t *h)
{
	if (++iterations == target) {
		UV_CHECK(uv_check_stop(h));
		UV_CHECK(uv_idle_stop(&idle));
	}
}

int main(int argc, char **argv)
{
	uv_loop_t loop;
	uv_check_t check;
	int64_t t0, t1;

	target = bench_init("check-idle", argc, argv, 10000000);
	UV_CHECK(uv_loop_init(&loop));
	UV_CHECK(uv_idle_init(&loop, &idle));
	UV_CHECK(uv_check_init(&loop, &check));
	UV_CHECK(uv_idle_start(&idle, on_idle));
	UV_CHECK(uv_check_start(&check, on_check));

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
