package uvloop_test

import (
	"errors"
	"io"
	"os"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/tty"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test-tty.c that apply without a console: tty (init, window size),
// tty_raw, tty_empty_write, tty_large_write, tty_file, tty_pty; and the rule that the
// handle's O_NONBLOCK does not reach the fd it was given (the parent shell's).

// openPty opens a pseudo-terminal pair: the master and the slave, closed when the test ends.
func openPty(t *testing.T) (master, slave int) {
	t.Helper()
	m, s, err := tty.OpenPty()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	mustOK(t, tty.SetWinSize(s, 80, 24))
	t.Cleanup(func() {
		unix.Close(s)
		unix.Close(m)
	})
	return m, s
}

func TestLibuvTTY(t *testing.T) {
	checkFds(t)
	_, slave := openPty(t)
	l := newLoop(t)
	if got := uvloop.GuessHandle(slave); got != uvloop.HandleTTY {
		t.Fatalf("GuessHandle: %v", got)
	}
	in, err := l.NewTTY(slave, true)
	mustOK(t, err)
	out, err := l.NewTTY(slave, false)
	mustOK(t, err)
	if in.Fd() == slave || out.Fd() == slave {
		t.Error("the handle uses the fd it was given, not a reopened terminal")
	}
	if !in.IsReadable() || out.IsReadable() || !out.IsWritable() {
		t.Error("readable/writable as asked")
	}
	w, h, err := out.WinSize()
	mustOK(t, err)
	if w != 80 || h != 24 {
		t.Fatalf("window %dx%d", w, h)
	}
	mustOK(t, in.SetMode(uvloop.TTYModeNormal))
	in.Close(nil)
	out.Close(nil)
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, l.Close())
	if _, err := unix.FcntlInt(uintptr(slave), unix.F_GETFL, 0); err != nil {
		t.Fatalf("the fd given was closed: %v", err)
	}
}

// The reopened terminal is the handle's own file description: the fd given (the shell's)
// never becomes non-blocking.
func TestTTYNonblockDoesNotLeak(t *testing.T) {
	_, slave := openPty(t)
	l := newLoop(t)
	tt, err := l.NewTTY(slave, true)
	mustOK(t, err)
	mustOK(t, tt.ReadStart(func([]byte, error) {}))
	fl, err := unix.FcntlInt(uintptr(slave), unix.F_GETFL, 0)
	mustOK(t, err)
	if fl&unix.O_NONBLOCK != 0 {
		t.Error("O_NONBLOCK leaked to the fd given")
	}
	fl, err = unix.FcntlInt(uintptr(tt.Fd()), unix.F_GETFL, 0)
	mustOK(t, err)
	if fl&unix.O_NONBLOCK == 0 {
		t.Error("the handle's fd is blocking")
	}
	tt.Close(nil)
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, l.Close())
}

func TestLibuvTTYRaw(t *testing.T) {
	master, slave := openPty(t)
	l := newLoop(t)
	tt, err := l.NewTTY(slave, true)
	mustOK(t, err)
	mustOK(t, tt.SetMode(uvloop.TTYModeRaw))
	echo, icanon, err := tty.Canonical(slave)
	mustOK(t, err)
	if echo || icanon {
		t.Error("raw mode left echo or canonical input on")
	}
	// In raw mode a single byte, without a newline, is read at once.
	var got []byte
	mustOK(t, tt.ReadStart(func(data []byte, err error) {
		mustOK(t, err)
		got = append(got, data...)
		tt.Close(nil)
	}))
	_, err = unix.Write(master, []byte{'x'})
	mustOK(t, err)
	mustRunMode(t, l, uvloop.RunDefault)
	if string(got) != "x" {
		t.Fatalf("read %q", got)
	}
	mustOK(t, uvloop.ResetTTYMode())
	_, icanon, err = tty.Canonical(slave)
	mustOK(t, err)
	if !icanon {
		t.Error("ResetTTYMode did not restore canonical mode")
	}
	mustOK(t, l.Close())
}

func TestLibuvTTYEmptyAndLargeWrite(t *testing.T) {
	master, slave := openPty(t)
	l := newLoop(t)
	tt, err := l.NewTTY(slave, false)
	mustOK(t, err)
	mustOK(t, tt.SetMode(uvloop.TTYModeIO)) // no output processing: bytes arrive as written
	big := make([]byte, 10000)
	for i := range big {
		big[i] = 'a' + byte(i%26)
	}
	writes := 0
	mustOK(t, tt.Write(nil, func(err error) { mustOK(t, err); writes++ }))
	mustOK(t, tt.Write(big, func(err error) { mustOK(t, err); writes++; tt.Close(nil) }))
	// The master end is drained by a goroutine, as a terminal emulator would.
	done := make(chan []byte)
	go func() {
		var got []byte
		buf := make([]byte, 4096)
		for len(got) < len(big) {
			n, err := unix.Read(master, buf)
			if err != nil {
				break
			}
			got = append(got, buf[:n]...)
		}
		done <- got
	}()
	mustRunMode(t, l, uvloop.RunDefault)
	got := <-done
	if writes != 2 || string(got) != string(big) {
		t.Fatalf("%d writes, %d bytes arrived", writes, len(got))
	}
	mustOK(t, uvloop.ResetTTYMode())
	mustOK(t, l.Close())
}

// tty_file: a regular file, /dev/null and a pipe are not terminals.
func TestLibuvTTYFile(t *testing.T) {
	l := newLoop(t)
	f, err := os.CreateTemp(t.TempDir(), "f")
	mustOK(t, err)
	defer f.Close()
	null, err := os.Open(os.DevNull)
	mustOK(t, err)
	defer null.Close()
	r, w, err := os.Pipe()
	mustOK(t, err)
	defer r.Close()
	defer w.Close()
	for _, fd := range []int{int(f.Fd()), int(null.Fd()), int(r.Fd())} {
		if _, err := l.NewTTY(fd, true); !errors.Is(err, syscall.EINVAL) {
			t.Errorf("NewTTY(%d): %v, want EINVAL", fd, err)
		}
	}
	if _, err := l.NewTTY(-1, true); !errors.Is(err, uvloop.ErrBadFd) {
		t.Errorf("NewTTY(-1): %v", err)
	}
	for fd, want := range map[int]uvloop.HandleType{int(f.Fd()): uvloop.HandleFile, int(null.Fd()): uvloop.HandleFile, int(r.Fd()): uvloop.HandlePipe, -1: uvloop.HandleUnknown} {
		if got := uvloop.GuessHandle(fd); got != want {
			t.Errorf("GuessHandle(%d) = %v, want %v", fd, got, want)
		}
	}
	mustRunMode(t, l, uvloop.RunDefault)
	mustOK(t, l.Close())
}

// tty_pty: the slave of a pty reads what the master writes and writes what it reads.
func TestLibuvTTYPty(t *testing.T) {
	master, slave := openPty(t)
	l := newLoop(t)
	tt, err := l.NewTTY(slave, true)
	mustOK(t, err)
	var got []byte
	mustOK(t, tt.ReadStart(func(data []byte, err error) {
		if err == io.EOF {
			return
		}
		mustOK(t, err)
		got = append(got, data...)
		tt.Close(nil)
	}))
	_, err = unix.Write(master, []byte("line\n"))
	mustOK(t, err)
	mustRunMode(t, l, uvloop.RunDefault)
	if string(got) != "line\n" {
		t.Fatalf("read %q", got)
	}
	mustOK(t, l.Close())
}
