/*
 * timers-zero: N timers, all with timeout 0, then uv_run until every one
 * has fired. With no sleeping involved this measures the timer heap
 * (N inserts, N removals in deadline order) and the dispatch of N callbacks.
 * Measured: N x uv_timer_start + uv_run. ns_per_op = per timer.
 * Extra: start_ns_per_op (the starts alone), init_ns_per_op (uv_timer_init,
 * done before the clock starts, not part of total_ns), iterations.
 */
#include "timers.h"

int main(int argc, char **argv)
{
	uv_timer_t *t;
	uint64_t n, i;
	int64_t init_ns, t0, t1, t2;

	n = bench_init("timers-zero", argc, argv, 1000000);
	t = timers_setup(n, &init_ns);

	t0 = bench_now();
	for (i = 0; i < n; i++)
		UV_CHECK(uv_timer_start(&t[i], on_timer, 0, 0));
	t1 = bench_now();
	bench_run(&loop);
	t2 = bench_now();

	timers_check_fired(n);
	bench_close_all(&loop);
	free(t);
	bench_report(n, t2 - t0,
		     "start_ns_per_op=%.3f init_ns_per_op=%.3f "
		     "iterations=%" PRIu64,
		     (double)(t1 - t0) / n, (double)init_ns / n, iterations);
	return 0;
}
