/*
 * fs-smallfiles: N files of 1 KiB in a fresh directory, each written as
 * Node's fs.writeFile does it (uv_fs_open O_WRONLY|O_CREAT|O_TRUNC,
 * uv_fs_write, uv_fs_close), then each read back as Node's fs.readFile does
 * it (uv_fs_open, uv_fs_fstat, uv_fs_read into a malloc'd buffer of the
 * file's size, uv_fs_close); at most 64 files in flight in each phase, one
 * request per file reused for every step.
 *
 * Measured: from the first uv_fs_open until the last read's close callback
 * (uv_run has returned). Removing the files is not measured.
 */
#include "bench.h"

#include <fcntl.h>
#include <unistd.h>

#define WINDOW 64
#define SIZE 1024

struct file {
	uv_fs_t req;
	uv_file fd;
	char *buf;
	int i;
};

static uint64_t n, next, done;
static int reading;
static uv_loop_t loop;
static char dir[256];
static char data[SIZE];
static struct file slots[WINDOW];

static void start(struct file *f);

static void path_of(int i, char *p, size_t len)
{
	snprintf(p, len, "%s/f%d", dir, i);
}

static void finished(struct file *f)
{
	if (++done == n) {
		if (!reading) { /* the write phase is over: read them all */
			reading = 1;
			next = done = 0;
			for (int k = 0; k < WINDOW && next < n; k++)
				start(&slots[k]);
		}
		return;
	}
	if (next < n)
		start(f);
}

static void close_cb(uv_fs_t *r)
{
	struct file *f = r->data;

	if (r->result != 0)
		bench_uv_fail("uv_fs_close", (int)r->result, __FILE__, __LINE__);
	uv_fs_req_cleanup(r);
	free(f->buf); /* the caller's use of the bytes */
	f->buf = NULL;
	finished(f);
}

static void read_cb(uv_fs_t *r)
{
	struct file *f = r->data;

	if (r->result != SIZE)
		bench_uv_fail("uv_fs_read", (int)r->result, __FILE__, __LINE__);
	uv_fs_req_cleanup(r);
	UV_CHECK(uv_fs_close(&loop, r, f->fd, close_cb));
}

static void fstat_cb(uv_fs_t *r)
{
	struct file *f = r->data;
	uv_buf_t buf;

	if (r->result != 0)
		bench_uv_fail("uv_fs_fstat", (int)r->result, __FILE__, __LINE__);
	f->buf = malloc((size_t)r->statbuf.st_size);
	buf = uv_buf_init(f->buf, (unsigned)r->statbuf.st_size);
	uv_fs_req_cleanup(r);
	UV_CHECK(uv_fs_read(&loop, r, f->fd, &buf, 1, -1, read_cb));
}

static void write_cb(uv_fs_t *r)
{
	struct file *f = r->data;

	if (r->result != SIZE)
		bench_uv_fail("uv_fs_write", (int)r->result, __FILE__, __LINE__);
	uv_fs_req_cleanup(r);
	UV_CHECK(uv_fs_close(&loop, r, f->fd, close_cb));
}

static void open_cb(uv_fs_t *r)
{
	struct file *f = r->data;
	uv_buf_t buf;

	if (r->result < 0)
		bench_uv_fail("uv_fs_open", (int)r->result, __FILE__, __LINE__);
	f->fd = (uv_file)r->result;
	uv_fs_req_cleanup(r);
	if (reading) {
		UV_CHECK(uv_fs_fstat(&loop, r, f->fd, fstat_cb));
		return;
	}
	buf = uv_buf_init(data, SIZE);
	UV_CHECK(uv_fs_write(&loop, r, f->fd, &buf, 1, -1, write_cb));
}

static void start(struct file *f)
{
	char p[300];

	f->i = (int)next++;
	f->req.data = f;
	path_of(f->i, p, sizeof(p));
	UV_CHECK(uv_fs_open(&loop, &f->req, p,
			    reading ? O_RDONLY : O_WRONLY | O_CREAT | O_TRUNC, 0666, open_cb));
}

int main(int argc, char **argv)
{
	int64_t t0, t1;
	const char *tmp = getenv("TMPDIR");
	char p[300];

	n = bench_init("fs-smallfiles", argc, argv, 10000);
	snprintf(dir, sizeof(dir), "%s/bench-fs-XXXXXX", tmp ? tmp : "/tmp");
	if (mkdtemp(dir) == NULL)
		bench_fail("mkdtemp: %s", strerror(errno));
	memset(data, 'x', sizeof(data));
	UV_CHECK(uv_loop_init(&loop));

	t0 = bench_now();
	for (int k = 0; k < WINDOW && next < n; k++)
		start(&slots[k]);
	bench_run(&loop);
	t1 = bench_now();

	if (!reading || done != n)
		bench_fail("%" PRIu64 " files read of %" PRIu64, done, n);
	for (uint64_t i = 0; i < n; i++) {
		path_of((int)i, p, sizeof(p));
		unlink(p);
	}
	rmdir(dir);
	bench_close_all(&loop);
	bench_report(n, t1 - t0, NULL);
	return 0;
}
