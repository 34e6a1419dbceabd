/*
 * timers-cancel: N timers, timer i with timeout (i % 1000) + 1 ms; once all
 * are started, every odd-numbered one (i = 1, 3, 5, ...) is stopped, then
 * uv_run until the remaining ceil(N/2) have fired (up to ~1 s of sleeping).
 * Measured: N starts + N/2 stops + uv_run. ns_per_op = total / N.
 * Extra: start_stop_ns_per_op (starts and stops alone, divided by N),
 * init_ns_per_op (uv_timer_init, done before the clock starts, not part of
 * total_ns), fired, iterations.
 */
#include "timers.h"

int main(int argc, char **argv)
{
	uv_timer_t *t;
	uint64_t n, i;
	int64_t init_ns, t0, t1, t2;

	n = bench_init("timers-cancel", argc, argv, 1000000);
	t = timers_setup(n, &init_ns);

	t0 = bench_now();
	for (i = 0; i < n; i++)
		UV_CHECK(uv_timer_start(&t[i], on_timer, (i % 1000) + 1, 0));
	for (i = 1; i < n; i += 2)
		UV_CHECK(uv_timer_stop(&t[i]));
	t1 = bench_now();
	bench_run(&loop);
	t2 = bench_now();

	timers_check_fired(n - n / 2);
	bench_close_all(&loop);
	free(t);
	bench_report(n, t2 - t0,
		     "start_stop_ns_per_op=%.3f init_ns_per_op=%.3f "
		     "fired=%" PRIu64 " iterations=%" PRIu64,
		     (double)(t1 - t0) / n, (double)init_ns / n, fired,
		     iterations);
	return 0;
}
