package uvloop_test

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// The fs ports of libuv_fs_rev10l_test.go that read Linux's struct stat.

// fs_fstat: fstat of a file just written reports what fstat(2) does: size, mode, inode,
// links, owner, times; just after the file is created, its birth time is 0 or the change
// time.
func TestLibuvFsFstatRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		fd := fsOpenRev10l(t, l, filepath.Join(t.TempDir(), "test_file"), os.O_RDWR|os.O_CREATE, 0o600)
		// Just created, before the write changes its change time: birth time is 0 or the
		// change time.
		var created unix.Stat_t
		mustOK(t, unix.Fstat(fd, &created))
		a, s := fsBothRev10l(t, l, "fstat", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFstat(r, fd, cb) })
		for _, r := range []*uvloop.FSReq{a, s} {
			mustOK(t, r.Err())
			if b := r.Stat().Birthtime; b.Sec != 0 && (b.Sec != created.Ctim.Sec || b.Nsec != created.Ctim.Nsec) {
				t.Errorf("birth time %+v, change time %+v", b, created.Ctim)
			}
		}
		fsOKRev10l(t, l, "write", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error {
			return l.FSWrite(r, fd, fsTestBufRev10l, -1, cb)
		})
		var want unix.Stat_t
		mustOK(t, unix.Fstat(fd, &want))
		a, s = fsBothRev10l(t, l, "fstat", func(r *uvloop.FSReq, cb func(*uvloop.FSReq)) error { return l.FSFstat(r, fd, cb) })
		for _, r := range []*uvloop.FSReq{a, s} {
			mustOK(t, r.Err())
			st := r.Stat()
			if st.Size != int64(len(fsTestBufRev10l)) || st.Size != want.Size || st.Mode != uint64(want.Mode) ||
				st.Ino != want.Ino || st.Nlink != uint64(want.Nlink) || st.UID != uint64(want.Uid) ||
				st.GID != uint64(want.Gid) || st.Mtime.Sec != want.Mtim.Sec || st.Mtime.Nsec != want.Mtim.Nsec ||
				st.Ctime.Sec != want.Ctim.Sec || st.Ctime.Nsec != want.Ctim.Nsec {
				t.Errorf("fstat %+v; fstat(2) says %+v", st, want)
			}
		}
		fsCloseRev10l(t, l, fd)
	})
}
