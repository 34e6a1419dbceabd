/*
 * fs-stat: N uv_fs_stat calls of one 1 KiB file, each started from the
 * previous one's callback (one request, cleaned up and reused): one
 * threadpool round trip each.
 *
 * Measured: from the first uv_fs_stat until uv_run has returned.
 */
#include "bench.h"

#include <unistd.h>

static uint64_t n, done;
static uv_loop_t loop;
static uv_fs_t req;
static char path[256];

static void stat_cb(uv_fs_t *r)
{
	if (r->result != 0)
		bench_uv_fail("uv_fs_stat", (int)r->result, __FILE__, __LINE__);
	uv_fs_req_cleanup(r);
	if (++done < n)
		UV_CHECK(uv_fs_stat(&loop, &req, path, stat_cb));
}

int main(int argc, char **argv)
{
	int64_t t0, t1;
	const char *tmp = getenv("TMPDIR");
	FILE *f;

	n = bench_init("fs-stat", argc, argv, 100000);
	snprintf(path, sizeof(path), "%s/bench-fs-stat-%d.txt", tmp ? tmp : "/tmp", (int)getpid());
	f = fopen(path, "w");
	if (f == NULL || fwrite(calloc(1, 1024), 1, 1024, f) != 1024 || fclose(f) != 0)
		bench_fail("writing %s: %s", path, strerror(errno));
	UV_CHECK(uv_loop_init(&loop));

	t0 = bench_now();
	UV_CHECK(uv_fs_stat(&loop, &req, path, stat_cb));
	bench_run(&loop);
	t1 = bench_now();

	unlink(path);
	if (done != n)
		bench_fail("%" PRIu64 " stats of %" PRIu64, done, n);
	bench_close_all(&loop);
	bench_report(n, t1 - t0, NULL);
	return 0;
}
