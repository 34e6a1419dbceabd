package uvloop_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

func TestZZProbe(t *testing.T) {
	l := newLoop(t)
	p := filepath.Join(t.TempDir(), "f")
	os.WriteFile(p, []byte("hello world"), 0o600)
	var r uvloop.FSReq
	l.FSOpen(&r, p, os.O_RDWR, 0, nil)
	fd := int(r.Result())
	buf := make([]byte, 5)
	var r2 uvloop.FSReq
	err := l.FSRead(&r2, fd, buf, -2, nil)
	t.Logf("read at -2: %d %v %q", r2.Result(), err, buf)
	var r3 uvloop.FSReq
	err = l.FSWrite(&r3, fd, []byte("X"), -5, nil)
	t.Logf("write at -5: %d %v", r3.Result(), err)
	var r4 uvloop.FSReq
	err = l.FSReadv(&r4, fd, nil, 0, nil)
	t.Logf("readv no bufs: %d %v", r4.Result(), err)
	var r5 uvloop.FSReq
	err = l.FSWritev(&r5, fd, nil, 0, nil)
	t.Logf("writev no bufs: %d %v", r5.Result(), err)
	var r6 uvloop.FSReq
	err = l.FSRead(&r6, fd, nil, 0, nil)
	t.Logf("read nil buf: %d %v", r6.Result(), err)
	l.FSClose(&r, fd, nil)
	closeLoop(t, l)
}
