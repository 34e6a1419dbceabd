/*
 * timer-restart: one timer, started with timeout 0; its callback restarts
 * it with timeout 0 until it has fired N times.
 * Measured: the first uv_timer_start + uv_run. ns_per_op = per fire.
 * Extra: iterations, counted by an unreferenced prepare handle.
 *
 * Note: before libuv 1.48 (so in Debian's 1.44) a timer restarted with
 * timeout 0 from its own callback is already due, and the same timers phase
 * runs it again: all N fires happen within one loop iteration
 * (iterations=1), and the number measures the timer heap and the callback,
 * not the loop. libuv 1.48 (PR #4250) collects the due timers before running
 * any callback, so there each restart waits for the next iteration.
 */
#include "bench.h"

static uint64_t target;
static uint64_t fires;
static uint64_t iterations;

static void on_iteration(uv_prepare_t *h)
{
	(void)h;
	iterations++;
}

static void on_timer(uv_timer_t *h)
{
	if (++fires < target)
		UV_CHECK(uv_timer_start(h, on_timer, 0, 0));
}

int main(int argc, char **argv)
{
	uv_loop_t loop;
	uv_timer_t timer;
	uv_prepare_t iter_counter;
	int64_t t0, t1;

	target = bench_init("timer-restart", argc, argv, 1000000);
	UV_CHECK(uv_loop_init(&loop));
	UV_CHECK(uv_prepare_init(&loop, &iter_counter));
	UV_CHECK(uv_prepare_start(&iter_counter, on_iteration));
	uv_unref((uv_handle_t *)&iter_counter);
	UV_CHECK(uv_timer_init(&loop, &timer));
	uv_update_time(&loop);

	t0 = bench_now();
	UV_CHECK(uv_timer_start(&timer, on_timer, 0, 0));
	bench_run(&loop);
	t1 = bench_now();

	if (fires != target)
		bench_fail("timer fired %" PRIu64 " times, want %" PRIu64,
			   fires, target);
	bench_close_all(&loop);
	bench_report(target, t1 - t0, "iterations=%" PRIu64, iterations);
	return 0;
}
