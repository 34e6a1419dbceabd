package uvloop_test

import (
	"errors"
	"io"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/tty"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's tty_pty_partial (test-tty.c) and pipe_close_stdout_read_stdin, in our own
// words, each run in every mode.

// tty_pty_partial: a TTY handle on the master side of a pty reads what a goroutine writes to
// the slave, 8 writes of 8 KiB, until the slave is closed: all 65536 bytes arrive before the
// read ends with an error or EOF. libuv repeats it ten times, the fault it hunts showing one
// time in three. libuv makes the handle with readable 0 and reads all the same (the access
// mode rules there); uvgo's readable argument says it will be read.
func TestLibuvTTYPtyPartialRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		for i := range 10 {
			master, slave, err := tty.OpenPty()
			if err != nil {
				t.Skipf("no pty: %v", err)
			}
			h, err := l.NewTTY(master, true)
			mustOK(t, err)
			if !h.IsReadable() || !h.IsWritable() {
				t.Fatalf("master: readable %v, writable %v", h.IsReadable(), h.IsWritable())
			}
			count := 0
			var end error
			mustOK(t, h.ReadStart(func(data []byte, err error) {
				if err != nil {
					end = err
					h.Close(nil)
					return
				}
				count += len(data)
			}))
			fed := make(chan error, 1)
			go func() {
				buf := make([]byte, 1<<13)
				for i := range buf {
					buf[i] = 'x'
				}
				var err error
				for range 8 {
					for n := 0; n < len(buf) && err == nil; {
						var w int
						w, err = unix.Write(slave, buf[n:])
						n += w
					}
				}
				unix.Close(slave)
				fed <- err
			}()
			runLoop(t, l)
			mustOK(t, <-fed)
			unix.Close(master)
			if count != 65536 {
				t.Fatalf("round %d: read %d bytes of 65536 before %v", i, count, end)
			}
			if !errors.Is(end, syscall.EIO) && !errors.Is(end, io.EOF) {
				t.Errorf("round %d: the read ended with %v", i, end)
			}
		}
	})
}

// pipe_close_stdout_read_stdin: a pipe handle opened on the read end of a pipe whose write end
// is closed reads EOF and closes in its callback, all in one RunNoWait, which then reports
// nothing left.
func TestLibuvPipeCloseStdoutReadStdinRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		var fds [2]int
		mustOK(t, unix.Pipe2(fds[:], unix.O_CLOEXEC))
		mustOK(t, unix.Close(fds[1]))
		p, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, p.Open(fds[0]))
		reads := 0
		mustOK(t, p.ReadStart(func(data []byte, err error) {
			reads++
			if err != nil {
				p.Close(nil)
			}
		}))
		if alive := mustRunMode(t, l, uvloop.RunNoWait); alive || reads != 1 {
			t.Fatalf("alive %v after one RunNoWait, reads %d", alive, reads)
		}
	})
}
