package uvloop_test

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/tty"
	"github.com/uvgo/uvgo/uvloop"
)

// A TTY reading the slave of a pty whose master hangs up: the bytes written before the
// hang-up are read, then EOF (read(2) on a hung-up slave returns 0, which libuv passes on
// as UV_EOF); a write then fails with EIO (write(2) says so), and the handle closes from
// the callback; the same on both backends, plain and own thread.
func TestRev9TTYHangupDiff(t *testing.T) {
	rev7Diff(t, func(t *testing.T, l *uvloop.Loop) []string {
		m, s, err := tty.OpenPty()
		if err != nil {
			t.Skipf("no pty: %v", err)
		}
		defer unix.Close(s)
		tt, err := l.NewTTY(s, true)
		mustOK(t, err)
		var log []string
		mustOK(t, tt.ReadStart(func(data []byte, err error) {
			switch {
			case err == io.EOF:
				log = append(log, "EOF")
				werr := tt.Write([]byte("x"), func(err error) { log = append(log, fmt.Sprintf("write cb EIO %v", errors.Is(err, syscall.EIO))) })
				if werr != nil {
					log = append(log, fmt.Sprintf("write EIO %v", errors.Is(werr, syscall.EIO)))
				}
				tt.Close(func() { log = append(log, "closed") })
			case err != nil:
				log = append(log, fmt.Sprintf("read error %v", err))
			default:
				log = append(log, fmt.Sprintf("data %q", data))
			}
		}))
		_, err = unix.Write(m, []byte("line\n"))
		mustOK(t, err)
		mustRunMode(t, l, uvloop.RunOnce) // the line
		unix.Close(m)
		mustRunMode(t, l, uvloop.RunDefault)
		if want := []string{`data "line\n"`, "EOF", "write cb EIO true", "closed"}; !reflect.DeepEqual(log, want) {
			t.Errorf("got %q, want libuv's %q", log, want)
		}
		return log
	})
}
