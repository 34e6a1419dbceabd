package uvloop_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// More buffers than IOV_MAX (1024): libuv's uv_fs_write writes them all (in chunks of
// IOV_MAX), its uv_fs_read fills the first IOV_MAX; Node's fs.writev of 2000 two-byte
// buffers reports 4000 and fs.readv of them 2048. Both backends (the pool runs vectored
// requests); a single pwritev or preadv refuses more than IOV_MAX with EINVAL.
func TestFsVectorsBeyondIovMax(t *testing.T) {
	l := fsOnRingLoop(t)
	defer closeLoop(t, l)
	p := filepath.Join(t.TempDir(), "f")
	f, err := os.Create(p)
	mustOK(t, err)
	defer f.Close()
	bufs := make([][]byte, 2000)
	for i := range bufs {
		bufs[i] = []byte("ab")
	}
	r := fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSWritev(r, int(f.Fd()), bufs, 0, cb) })
	if r.Err() != nil || r.Result() != 4000 {
		t.Errorf("writev of 2000 buffers: result %d err %v, want 4000", r.Result(), r.Err())
	}
	mustOK(t, f.Truncate(4000))
	for i := range bufs {
		bufs[i] = make([]byte, 2)
	}
	r = fsRun(t, l, func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSReadv(r, int(f.Fd()), bufs, 0, cb) })
	if r.Err() != nil || r.Result() != 2048 {
		t.Errorf("readv into 2000 buffers: result %d err %v, want 2048 (the first IOV_MAX)", r.Result(), r.Err())
	}
}
