package poller_test

import (
	"errors"
	"syscall"
	"testing"

	"go.uber.org/goleak"

	"github.com/uvgo/uvgo/poller"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

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
