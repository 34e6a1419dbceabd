package nodeprocess

import (
	"bytes"
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodeevents"
)

func TestFormatUncaught(t *testing.T) {
	var stderr bytes.Buffer
	status, err := Run(func(p *Process) {
		p.Loop().SetTimeout(func() { panicHere() }, 0)
	}, WithStderr(&stderr))
	if err != nil || status != StatusFatal {
		t.Fatalf("status %d, err %v", status, err)
	}
	// The site of the panic, a blank line, Name: message, the frames from the panic down.
	re := regexp.MustCompile(`^\S+/report_test\.go:\d+\n\nError: from panicHere\n    at github\.com/uvgo/uvgo/nodeprocess\.panicHere \(\S+/report_test\.go:\d+\)\n    at `)
	if !re.MatchString(stderr.String()) {
		t.Fatalf("stderr:\n%s", stderr.String())
	}
}

func panicHere() { panic(errors.New("from panicHere")) }

func TestFormatUncaughtValues(t *testing.T) {
	tests := []struct {
		v      any
		origin string
		want   string
	}{
		{"a string", "uncaughtException", "Uncaught a string\n\n"},
		{&UnhandledPromiseRejection{Reason: 42}, "unhandledRejection",
			"(from an unhandled rejection)\n\nUnhandledPromiseRejection: This error originated either by throwing inside " +
				"of an async function without a catch block, or by rejecting a promise which was not handled with " +
				".catch(). The promise rejected with the reason \"42\".\n{\n  code: 'ERR_UNHANDLED_REJECTION'\n}\n\n"},
		{&nodeevents.AbortError{}, "unhandledRejection",
			"(from an unhandled rejection)\n\nAbortError: The operation was aborted\n{\n  code: 'ABORT_ERR'\n}\n\n"},
	}
	for _, tt := range tests {
		if got := FormatUncaught(tt.v, nil, tt.origin); got != tt.want {
			t.Errorf("FormatUncaught(%v):\n%q\nwant\n%q", tt.v, got, tt.want)
		}
	}
}

// The leak warning of an emitter reaches the running process's 'warning' event and its
// default printer; after Run, the handler is the default again.
func TestWarningsRouted(t *testing.T) {
	var stderr bytes.Buffer
	var got []string
	Run(func(p *Process) {
		p.OnWarning(func(w error) { got = append(got, nodeevents.WarningName(w)) })
		var e nodeevents.EventEmitter
		e.SetMaxListeners(1)
		e.On("x", func(...any) {})
		e.On("x", func(...any) {})
		p.EmitWarning("plain")
	}, WithStderr(&stderr))
	if len(got) != 2 || got[0] != "MaxListenersExceededWarning" || got[1] != "Warning" {
		t.Fatalf("warnings %v", got)
	}
	if !strings.Contains(stderr.String(), ") MaxListenersExceededWarning: Possible EventEmitter memory leak") ||
		!strings.Contains(stderr.String(), ") Warning: plain\n") {
		t.Fatalf("stderr %q", stderr.String())
	}
	var quiet bytes.Buffer
	Run(func(p *Process) { p.EmitWarning("not printed") }, WithStderr(&quiet), WithoutWarnings())
	if quiet.Len() != 0 {
		t.Fatalf("WithoutWarnings printed %q", quiet.String())
	}
}

func TestRunTwicePanics(t *testing.T) {
	Run(func(p *Process) {
		defer func() {
			if r := recover(); r == nil {
				t.Error("second Run did not panic")
			}
		}()
		p.Run(func() {})
	})
}
