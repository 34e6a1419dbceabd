/*
 * timer-restart-iter: like timer-restart (one timer with timeout 0 fired N
 * times), but with one loop iteration per fire, as libuv >= 1.48 and the
 * Node.js event loop behave. On libuv 1.44 that takes a helper: the timer
 * callback only marks the timer for restart, and an unreferenced prepare
 * handle (the prepare phase follows the timers phase in the same iteration)
 * restarts it with timeout 0. The poll phase then does not block, and the
 * next iteration's timers phase fires it.
 * Per fire: one iteration (epoll_wait with timeout 0), one prepare callback,
 * one uv_timer_start and one timer callback.
 * Measured: the first uv_timer_start + uv_run. ns_per_op = per fire.
 * Extra: iterations, counted by the prepare handle.
 */
#include "bench.h"

static uint64_t target;
static uint64_t fires;
static uint64_t iterations;
static int restart;
static uv_timer_t timer;

static void on_timer(uv_timer_t *h)
{
	(void)h;
	if (++fires < target)
		restart = 1;
}

static void on_prepare(uv_prepare_t *h)
{
	(void)h;
	iterations++;
	if (restart) {
		restart = 0;
		UV_CHECK(uv_timer_start(&timer, on_timer, 0, 0));
	}
}

int main(int argc, char **argv)
{
	uv_loop_t loop;
	uv_prepare_t prepare;
	int64_t t0, t1;

	target = bench_init("timer-restart-iter", argc, argv, 1000000);
	UV_CHECK(uv_loop_init(&loop));
	UV_CHECK(uv_prepare_init(&loop, &prepare));
	UV_CHECK(uv_prepare_start(&prepare, on_prepare));
	uv_unref((uv_handle_t *)&prepare);
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
