package uvloop_test

import (
	"errors"
	"io"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test-close-fd.c and closed_fd_events (test-spawn.c), in our own words,
// each run in every mode.

// close_fd: a pipe opened on the read end of a pipe whose writer wrote one byte and closed:
// the first read gets the byte and stops reading, which ends the loop with the handle
// inactive; reading again gets EOF, and the callback closes the handle.
func TestLibuvCloseFdRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		var fds [2]int
		mustOK(t, unix.Pipe2(fds[:], unix.O_CLOEXEC))
		p, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, p.Open(fds[0]))
		_, err = unix.Write(fds[1], []byte{0})
		mustOK(t, err)
		mustOK(t, unix.Close(fds[1]))
		reads := 0
		onRead := func(data []byte, err error) {
			switch reads++; reads {
			case 1:
				if len(data) != 1 || err != nil {
					t.Fatalf("read 1: %q, %v", data, err)
				}
				mustOK(t, p.ReadStop())
			case 2:
				if !errors.Is(err, io.EOF) {
					t.Fatalf("read 2: %q, %v; want EOF", data, err)
				}
				p.Close(nil)
			default:
				t.Fatalf("read %d: %q, %v", reads, data, err)
			}
		}
		mustOK(t, p.ReadStart(onRead))
		runLoop(t, l)
		if reads != 1 || p.IsActive() {
			t.Fatalf("reads %d, active %v", reads, p.IsActive())
		}
		mustOK(t, p.ReadStart(onRead))
		runLoop(t, l)
		if reads != 2 || !p.IsClosing() {
			t.Fatalf("reads %d, closing %v", reads, p.IsClosing())
		}
	})
}

// closed_fd_events: the read end of a pipe is shared with a child, so closing the handle's
// fd does not close the pipe; once the handle is closed, bytes written to the pipe must not
// wake the loop: the RunOnce calls that follow wait for a 10 ms timer and run it.
func TestLibuvClosedFdEventsRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		var fds [2]int
		mustOK(t, unix.Pipe2(fds[:], unix.O_CLOEXEC))
		defer unix.Close(fds[1])
		proc, err := l.Spawn(&uvloop.ProcessOptions{File: "/bin/sh", Args: []string{"sh", "-c", "exec sleep 1000"},
			Stdio:  []uvloop.StdioContainer{{Flags: uvloop.StdioInheritFd, Fd: fds[0]}},
			OnExit: func(*uvloop.Process, int64, syscall.Signal) {}})
		mustOK(t, err)
		proc.Unref()
		p, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, p.Open(fds[0]))
		got := 0
		mustOK(t, p.ReadStart(func(data []byte, err error) {
			mustOK(t, err)
			got += len(data)
			mustOK(t, p.ReadStop())
		}))
		_, err = unix.Write(fds[1], []byte{0})
		mustOK(t, err)
		mustRunMode(t, l, uvloop.RunOnce)
		if got != 1 {
			t.Fatalf("read %d bytes, want 1", got)
		}
		closed := 0
		closeHandle(t, p, &closed)
		_, err = unix.Write(fds[1], []byte{0})
		mustOK(t, err)
		ticks := 0
		tm := l.NewTimer(func(*uvloop.Timer) { ticks++ })
		mustOK(t, tm.Start(10*time.Millisecond, 0))
		if mustRunMode(t, l, uvloop.RunOnce) {
			mustRunMode(t, l, uvloop.RunOnce)
		}
		if ticks != 1 || closed != 1 {
			t.Fatalf("timer callbacks %d, close %d (a stale event woke the loop?)", ticks, closed)
		}
		mustOK(t, proc.Kill(syscall.SIGTERM))
		tm.Close(nil)
		proc.Close(nil)
	})
}

// iouring_pollhup: a pipe handle reads EOF from a pipe whose write end is closed, while a dup
// of its read end stays open (so the old open file description lives on), and is closed; in
// the next iteration an idle callback opens a second pipe's read end (likely on the fd number
// just freed) and reads; a stale hang-up of the first pipe must not reach it: its EOF comes
// only after the idle callback's second turn closes its own write end.
func TestLibuvIOURingPollhupRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		var fds, newFds [2]int
		mustOK(t, unix.Pipe2(fds[:], unix.O_CLOEXEC))
		mustOK(t, unix.Pipe2(newFds[:], unix.O_CLOEXEC))
		p1, err := l.NewPipe()
		mustOK(t, err)
		p2, err := l.NewPipe()
		mustOK(t, err)
		mustOK(t, p1.Open(fds[0]))
		duped, err := unix.Dup(fds[0])
		mustOK(t, err)
		iters, eofs := 0, 0
		writerClosed := false
		idle := l.NewIdle(func(h *uvloop.Idle) {
			if iters++; iters == 1 {
				mustOK(t, p2.Open(newFds[0]))
				mustOK(t, p2.ReadStart(func(data []byte, err error) {
					if err == nil {
						if len(data) == 0 {
							t.Error("an empty read")
						}
						return
					}
					if !errors.Is(err, io.EOF) || !writerClosed {
						t.Errorf("p2 read %v before its writer closed (a stale hang-up?)", err)
					}
					eofs++
					unix.Close(duped)
					p2.Close(nil)
					h.Close(nil)
				}))
				return
			}
			mustOK(t, h.Stop())
			writerClosed = true
			mustOK(t, unix.Close(newFds[1]))
		})
		mustOK(t, p1.ReadStart(func(data []byte, err error) {
			if !errors.Is(err, io.EOF) {
				t.Errorf("p1 read %q, %v; want EOF", data, err)
			}
			p1.Close(nil)
			mustOK(t, idle.Start())
		}))
		mustOK(t, unix.Close(fds[1])) // the write end: p1 hangs up
		runLoop(t, l)
		if eofs != 1 || iters != 2 {
			t.Fatalf("p2 EOFs %d, idle turns %d", eofs, iters)
		}
	})
}
