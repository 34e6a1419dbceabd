/*
 * timers.h - setup shared by timers_zero.c, timers_spread.c and
 * timers_cancel.c.
 *
 * Besides the timers, the loop carries one unreferenced prepare handle that
 * counts loop iterations (reported as iterations=). Being unreferenced, it
 * never keeps the loop alive; it costs one callback per iteration.
 */
#ifndef UVGO_BENCH_LIBUV_TIMERS_H
#define UVGO_BENCH_LIBUV_TIMERS_H

#include "bench.h"

static uv_loop_t loop;
static uv_prepare_t iter_counter;
static uint64_t iterations;
static uint64_t fired;

static void on_iteration(uv_prepare_t *h)
{
	(void)h;
	iterations++;
}

static void on_timer(uv_timer_t *h)
{
	(void)h;
	fired++;
}

/* timers_setup initialises the loop and the iteration counter, and returns
 * n initialised (not started) timers. *init_ns receives the time spent in
 * uv_timer_init for all of them. */
static uv_timer_t *timers_setup(uint64_t n, int64_t *init_ns)
{
	uv_timer_t *t;
	uint64_t i;
	int64_t t0;

	UV_CHECK(uv_loop_init(&loop));
	UV_CHECK(uv_prepare_init(&loop, &iter_counter));
	UV_CHECK(uv_prepare_start(&iter_counter, on_iteration));
	uv_unref((uv_handle_t *)&iter_counter);

	t = calloc(n, sizeof(*t));
	if (t == NULL)
		bench_fail("cannot allocate %" PRIu64 " timers", n);
	/* Fault the pages in now, so init_ns does not count page faults. */
	for (i = 0; i < n * sizeof(*t); i += 4096)
		((volatile char *)t)[i] = 0;
	t0 = bench_now();
	for (i = 0; i < n; i++)
		UV_CHECK(uv_timer_init(&loop, &t[i]));
	*init_ns = bench_now() - t0;

	/* Timeouts are relative to the loop's cached time: make it current. */
	uv_update_time(&loop);
	return t;
}

static void timers_check_fired(uint64_t want)
{
	if (fired != want)
		bench_fail("%" PRIu64 " timers fired, want %" PRIu64, fired,
			   want);
}

#endif /* UVGO_BENCH_LIBUV_TIMERS_H */
