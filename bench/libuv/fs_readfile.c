/*
 * fs-readfile: N readFile calls of one file, each started from the previous
 * one's callback, composed as Node's fs.readFile composes them: uv_fs_open,
 * uv_fs_fstat, uv_fs_read of at most 512 KiB at a time into a buffer of the
 * file's size (malloc'd per call and handed to the "caller", which frees it),
 * uv_fs_close. One request per step, each a threadpool round trip.
 *
 * FILE_SIZE and NAME pick the workload: 1 KiB is fs-readfile (the default),
 * fs_readfile_1m.c includes this file with 1 MiB (fs-readfile-1m).
 *
 * Measured: from the first uv_fs_open until uv_run has returned.
 */
#include "bench.h"

#include <fcntl.h>
#include <unistd.h>

#ifndef FILE_SIZE
#define FILE_SIZE 1024
#define NAME "fs-readfile"
#define DEFAULT_N 50000
#endif
#define CHUNK (512 * 1024)

static uint64_t n, done;
static uv_loop_t loop;
static uv_fs_t req;
static char path[256];
static uv_file fd;
static char *data;
static size_t size, pos;

static void start_one(void);

static void close_cb(uv_fs_t *r)
{
	if (r->result != 0)
		bench_uv_fail("uv_fs_close", (int)r->result, __FILE__, __LINE__);
	uv_fs_req_cleanup(r);
	if (pos != FILE_SIZE)
		bench_fail("read %zu bytes of %d", pos, FILE_SIZE);
	free(data); /* the caller's use of the bytes */
	data = NULL;
	if (++done < n)
		start_one();
}

static void read_cb(uv_fs_t *r)
{
	uv_buf_t buf;

	if (r->result < 0)
		bench_uv_fail("uv_fs_read", (int)r->result, __FILE__, __LINE__);
	uv_fs_req_cleanup(r);
	pos += (size_t)r->result;
	if (r->result == 0 || pos == size) {
		UV_CHECK(uv_fs_close(&loop, &req, fd, close_cb));
		return;
	}
	buf = uv_buf_init(data + pos, size - pos < CHUNK ? size - pos : CHUNK);
	UV_CHECK(uv_fs_read(&loop, &req, fd, &buf, 1, -1, read_cb));
}

static void fstat_cb(uv_fs_t *r)
{
	uv_buf_t buf;

	if (r->result != 0)
		bench_uv_fail("uv_fs_fstat", (int)r->result, __FILE__, __LINE__);
	size = (size_t)r->statbuf.st_size;
	uv_fs_req_cleanup(r);
	data = malloc(size);
	if (data == NULL)
		bench_fail("malloc %zu", size);
	pos = 0;
	buf = uv_buf_init(data, size < CHUNK ? size : CHUNK);
	UV_CHECK(uv_fs_read(&loop, &req, fd, &buf, 1, -1, read_cb));
}

static void open_cb(uv_fs_t *r)
{
	if (r->result < 0)
		bench_uv_fail("uv_fs_open", (int)r->result, __FILE__, __LINE__);
	fd = (uv_file)r->result;
	uv_fs_req_cleanup(r);
	UV_CHECK(uv_fs_fstat(&loop, &req, fd, fstat_cb));
}

static void start_one(void)
{
	UV_CHECK(uv_fs_open(&loop, &req, path, O_RDONLY, 0, open_cb));
}

int main(int argc, char **argv)
{
	int64_t t0, t1;
	const char *tmp = getenv("TMPDIR");
	char *fill;
	FILE *f;

	n = bench_init(NAME, argc, argv, DEFAULT_N);
	snprintf(path, sizeof(path), "%s/bench-%s-%d.bin", tmp ? tmp : "/tmp", NAME, (int)getpid());
	fill = calloc(1, FILE_SIZE);
	f = fopen(path, "w");
	if (fill == NULL || f == NULL || fwrite(fill, 1, FILE_SIZE, f) != FILE_SIZE || fclose(f) != 0)
		bench_fail("writing %s: %s", path, strerror(errno));
	free(fill);
	UV_CHECK(uv_loop_init(&loop));

	t0 = bench_now();
	start_one();
	bench_run(&loop);
	t1 = bench_now();

	unlink(path);
	if (done != n)
		bench_fail("%" PRIu64 " readFiles of %" PRIu64, done, n);
	bench_close_all(&loop);
	bench_report(n, t1 - t0, NULL);
	return 0;
}
