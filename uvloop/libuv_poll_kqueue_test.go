//go:build darwin || freebsd || netbsd || openbsd

package uvloop_test

import (
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// Port of the kqueue part of libuv's test/test-poll.c.

// TestPollNestedKqueue ports libuv's "poll_nested_kqueue": a poll handle can watch another
// kqueue; an idle one reports nothing, and RunNoWait says the loop is alive.
func TestPollNestedKqueue(t *testing.T) {
	l := newLoop(t)
	fd, err := unix.Kqueue()
	mustOK(t, err)
	defer unix.Close(fd)
	unix.CloseOnExec(fd)
	p, err := l.NewPoll(fd, func(_ *uvloop.Poll, ev uvloop.Events, err error) {
		t.Errorf("an empty kqueue reported %v, %v", ev, err)
	})
	mustOK(t, err)
	mustOK(t, p.Start(uvloop.Readable))
	if !mustRunMode(t, l, uvloop.RunNoWait) {
		t.Error("RunNoWait reports the loop not alive with an active poll handle")
	}
	mustOK(t, p.Close(nil))
	if mustRunMode(t, l, uvloop.RunDefault) {
		t.Error("Run reports the loop alive after the handle was closed")
	}
	closeLoop(t, l)
}
