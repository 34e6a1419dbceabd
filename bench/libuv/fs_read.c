/*
 * fs-read: N uv_fs_read calls of 64 bytes at offset 0 of an open 1 KiB
 * file, each started from the previous one's callback.
 *
 * Measured: from the first uv_fs_read until uv_run has returned.
 */
#include "bench.h"

#include <fcntl.h>
#include <unistd.h>

static uint64_t n, done;
static uv_loop_t loop;
static uv_fs_t req;
static uv_file fd;
static char data[64];
static uv_buf_t buf;

static void read_cb(uv_fs_t *r)
{
	if (r->result != 64)
		bench_uv_fail("uv_fs_read", (int)r->result, __FILE__, __LINE__);
	uv_fs_req_cleanup(r);
	if (++done < n)
		UV_CHECK(uv_fs_read(&loop, &req, fd, &buf, 1, 0, read_cb));
}

int main(int argc, char **argv)
{
	int64_t t0, t1;
	const char *tmp = getenv("TMPDIR");
	char path[256];
	FILE *f;

	n = bench_init("fs-read", argc, argv, 100000);
	snprintf(path, sizeof(path), "%s/bench-fs-read-%d.txt", tmp ? tmp : "/tmp", (int)getpid());
	f = fopen(path, "w");
	if (f == NULL || fwrite(calloc(1, 1024), 1, 1024, f) != 1024 || fclose(f) != 0)
		bench_fail("writing %s: %s", path, strerror(errno));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		bench_fail("open %s: %s", path, strerror(errno));
	buf = uv_buf_init(data, sizeof(data));
	UV_CHECK(uv_loop_init(&loop));

	t0 = bench_now();
	UV_CHECK(uv_fs_read(&loop, &req, fd, &buf, 1, 0, read_cb));
	bench_run(&loop);
	t1 = bench_now();

	close(fd);
	unlink(path);
	if (done != n)
		bench_fail("%" PRIu64 " reads of %" PRIu64, done, n);
	bench_close_all(&loop);
	bench_report(n, t1 - t0, NULL);
	return 0;
}
