package main

import (
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func get(t *testing.T, c *http.Client, url string) string {
	t.Helper()
	resp, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %v", url, resp.StatusCode, err)
	}
	return string(b)
}

// A request that holds the loop shows as a long task and in the delay.
func TestMetrics(t *testing.T) {
	var logBuf strings.Builder
	s, err := Serve("127.0.0.1:0", Options{Resolution: 5e6, LongTask: 20e6, Log: slog.New(slog.NewTextHandler(&logBuf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	c := &http.Client{Transport: tr}
	base := "http://" + s.Addr.String()
	if got := get(t, c, base+"/"); got != "Hello, World!" {
		t.Errorf("/ = %q", got)
	}
	get(t, c, base+"/block?ms=40")
	report := get(t, c, base+"/metrics")
	// The blocking request is a long task in the poll phase; on a loaded machine another
	// callback may be held past 20 ms too, so the count is at least 1, not exactly 1.
	for _, want := range []string{"event loop utilization:", "delay (resolution 5ms", "long tasks: ", "in poll: ", "poll ", "active handles:", "tcp"} {
		if !strings.Contains(report, want) {
			t.Errorf("report lacks %q:\n%s", want, report)
		}
	}
	tr.CloseIdleConnections()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(logBuf.String(), "long task") {
		t.Errorf("log %q", logBuf.String())
	}
}
