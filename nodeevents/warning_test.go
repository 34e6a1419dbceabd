package nodeevents

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// Without a handler, the leak warning goes to slog's default logger at level Warn.
func TestMaxListenersWarningLogged(t *testing.T) {
	var buf bytes.Buffer
	old := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&buf, nil)))
	defer slog.SetDefault(old)
	restore := SetWarningHandler(nil)
	defer restore()
	var e EventEmitter
	for range 11 {
		e.On("foo", func(...any) {})
	}
	s := buf.String()
	if !strings.Contains(s, "level=WARN") || !strings.Contains(s, "warning=MaxListenersExceededWarning") ||
		!strings.Contains(s, "11 foo listeners added") || strings.Count(s, "\n") != 1 {
		t.Errorf("log %q", s)
	}
}
