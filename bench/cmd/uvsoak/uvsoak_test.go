package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	if serveFromEnv() { // the test binary is also the server process
		os.Exit(0)
	}
	goleak.VerifyTestMain(m)
}

// TestSoakShort is the CI run: a few seconds of every kind of client against both servers,
// with the server's fd limit low enough to hit EMFILE and its callbacks panicking now and
// then. Every byte is checked; the server's connections, fds and goroutines must come back.
func TestSoakShort(t *testing.T) {
	if testing.Short() {
		t.Skip("soak: not in -short")
	}
	var out strings.Builder
	rep, err := soak(config{duration: 3 * time.Second, echoConns: 200, httpConns: 60, nofile: 200, panicP: 0.01}, &out)
	t.Log("\n" + out.String())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.problems {
		t.Error(p)
	}
	for _, k := range []string{"echo round trips", "echo half-closes", "http requests", "slowloris closed"} {
		if rep.counts[k] == 0 {
			t.Errorf("no %s: the load did not run", k)
		}
	}
	if rep.after.Panics == 0 {
		t.Error("no panic was recovered")
	}
}
