package poller_test

import (
	"errors"
	"fmt"
	"runtime"
	"syscall"
	"testing"

	"go.uber.org/goleak"

	"github.com/uvgo/uvgo/poller"
)

// backend is the backend newPoller opens. TestMain runs the package's tests once per backend
// that opens here, and says which.
var backend poller.Backend

// threadBound is the Options.ThreadBound newPoller opens with; newPoller then locks the test's
// goroutine to its thread, as the option promises.
var threadBound bool

// backends are the backends the tests run against: the system's default, then io_uring, then
// io_uring ThreadBound (COOP_TASKRUN).
var backends = []struct {
	b     poller.Backend
	bound bool
}{{poller.BackendAuto, false}, {poller.BackendIOURing, false}, {poller.BackendIOURing, true}}

func TestMain(m *testing.M) { goleak.VerifyTestMain(perBackend{m}) }

// perBackend runs the tests once per available backend.
type perBackend struct{ m *testing.M }

func (r perBackend) Run() int {
	code := 0
	for _, bb := range backends {
		if err := poller.Available(bb.b); err != nil {
			fmt.Printf("poller tests: not run with backend %v: %v\n", bb.b, err)
			continue
		}
		backend, threadBound = bb.b, bb.bound
		fmt.Printf("poller tests: backend %v, ThreadBound %v\n", bb.b, bb.bound)
		if c := r.m.Run(); c != 0 {
			code = c
		}
	}
	return code
}

// TestBackendAvailable says, as a skip, why a backend's run did not happen.
func TestBackendAvailable(t *testing.T) {
	for _, b := range []poller.Backend{poller.BackendAuto, poller.BackendIOURing} {
		t.Run(b.String(), func(t *testing.T) {
			if err := poller.Available(b); err != nil {
				t.Skipf("backend %v does not open here (refused setup: ENOSYS, EPERM, io_uring_disabled, seccomp): %v", b, err)
			}
		})
	}
}

func TestParseBackend(t *testing.T) {
	for _, b := range []poller.Backend{poller.BackendAuto, poller.BackendEpoll, poller.BackendKqueue, poller.BackendIOURing} {
		if got, err := poller.ParseBackend(b.String()); got != b || err != nil {
			t.Errorf("ParseBackend(%q) = %v, %v", b.String(), got, err)
		}
	}
	if got, err := poller.ParseBackend(""); got != poller.BackendAuto || err != nil {
		t.Errorf(`ParseBackend("") = %v, %v`, got, err)
	}
	if _, err := poller.ParseBackend("uring"); err == nil {
		t.Error(`ParseBackend("uring") succeeded`)
	}
}

func TestEventsString(t *testing.T) {
	tests := []struct {
		name string
		ev   poller.Events
		want string
	}{
		{name: "none", ev: 0, want: "0"},
		{name: "readable", ev: poller.Readable, want: "Readable"},
		{name: "readable hangup", ev: poller.Readable | poller.Hangup, want: "Readable|Hangup"},
		{name: "all", ev: poller.Readable | poller.Writable | poller.Hangup | poller.Error, want: "Readable|Writable|Hangup|Error"},
		{name: "unknown", ev: 0x30, want: "0x30"},
		{name: "known and unknown", ev: poller.Writable | 0x100, want: "Writable|0x100"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.ev.String(); got != tt.want {
				t.Errorf("Events(%#x).String() = %q, want %q", uint32(tt.ev), got, tt.want)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name   string
		err    error
		target error
	}{
		{name: "interrupted is EINTR", err: poller.ErrInterrupted, target: syscall.EINTR},
		{name: "unsupported is errors.ErrUnsupported", err: poller.ErrUnsupported, target: errors.ErrUnsupported},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !errors.Is(tt.err, tt.target) {
				t.Errorf("errors.Is(%v, %v) = false", tt.err, tt.target)
			}
		})
	}
}

func TestZeroPoller(t *testing.T) {
	var p poller.Poller
	if err := p.Wake(); err != poller.ErrClosed {
		t.Errorf("Wake on a zero Poller: %v, want ErrClosed", err)
	}
	if err := p.Add(0, poller.Readable, 0); err != poller.ErrClosed {
		t.Errorf("Add on a zero Poller: %v, want ErrClosed", err)
	}
	if _, _, err := p.Wait(0); err != poller.ErrClosed {
		t.Errorf("Wait on a zero Poller: %v, want ErrClosed", err)
	}
	if err := p.Close(); err != poller.ErrClosed {
		t.Errorf("Close on a zero Poller: %v, want ErrClosed", err)
	}
}

// TestAutoThreadBound: BackendAuto is io_uring for a ThreadBound Poller when the kernel has
// multishot receives, accepts and sends, and epoll otherwise; without ThreadBound it is epoll.
func TestAutoThreadBound(t *testing.T) {
	want := poller.BackendEpoll
	if runtime.GOOS != "linux" {
		t.Skip("BackendAuto is kqueue here, whatever the options")
	}
	if r, err := poller.Open(poller.BackendIOURing); err == nil {
		if r.CanRecv() && r.CanAccept() && r.CanSend() {
			want = poller.BackendIOURing
		}
		r.Close()
	}
	for _, bound := range []bool{false, true} {
		p, err := poller.OpenWith(poller.BackendAuto, poller.Options{ThreadBound: bound})
		if err != nil {
			t.Fatal(err)
		}
		got := p.Backend()
		p.Close()
		w := poller.BackendEpoll
		if bound {
			w = want
		}
		if got != w {
			t.Errorf("ThreadBound %v: auto opened %v, want %v", bound, got, w)
		}
	}
	t.Logf("auto, ThreadBound: %v", want)
}
