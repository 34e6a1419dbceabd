package uvloop_test

import (
	"errors"
	"os"
	"runtime"
	"testing"

	"github.com/uvgo/uvgo/poller"
	"github.com/uvgo/uvgo/uvloop"
)

// TestBackendChoice pins the choice of backend: WithBackend wins, else UVGO_BACKEND, else
// the system's default (io_uring for a loop WithLockOSThread, when it opens whole); a bad variable is an error, and a backend the system lacks is an
// error wrapping errors.ErrUnsupported. It also logs the backend the other tests of this run
// use (New without options), so that a CI log says which ran.
func TestBackendChoice(t *testing.T) {
	l, err := uvloop.New()
	if err != nil {
		t.Skipf("no backend here: %v", err)
	}
	t.Logf("%s=%q: the tests of this run use the %v backend", uvloop.BackendEnv, os.Getenv(uvloop.BackendEnv), l.Backend())
	if env := os.Getenv(uvloop.BackendEnv); env != "" && env != "auto" && l.Backend().String() != env {
		t.Errorf("%s=%s, but New chose %v", uvloop.BackendEnv, env, l.Backend())
	}
	l.Close()

	def := uvloop.BackendEpoll
	if runtime.GOOS != "linux" {
		def = uvloop.BackendKqueue
	}
	t.Run("env", func(t *testing.T) {
		t.Setenv(uvloop.BackendEnv, "")
		t.Setenv(uvloop.OwnThreadEnv, "") // a loop of its own thread is a locked loop
		l, err := uvloop.New()
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if l.Backend() != def {
			t.Errorf("unset %s: backend %v, want %v", uvloop.BackendEnv, l.Backend(), def)
		}
	})
	t.Run("locked", func(t *testing.T) {
		t.Setenv(uvloop.BackendEnv, "")
		want := def
		if p, err := poller.Open(poller.BackendIOURing); err == nil {
			if p.CanRecv() && p.CanAccept() && p.CanSend() {
				want = uvloop.BackendIOURing
			}
			p.Close()
		}
		l, err := uvloop.New(uvloop.WithLockOSThread())
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if l.Backend() != want {
			t.Errorf("WithLockOSThread, unset %s: backend %v, want %v", uvloop.BackendEnv, l.Backend(), want)
		}
		t.Setenv(uvloop.BackendEnv, "epoll")
		if runtime.GOOS == "linux" {
			l2, err := uvloop.New(uvloop.WithLockOSThread())
			if err != nil {
				t.Fatal(err)
			}
			defer l2.Close()
			if l2.Backend() != uvloop.BackendEpoll {
				t.Errorf("WithLockOSThread, %s=epoll: backend %v", uvloop.BackendEnv, l2.Backend())
			}
		}
	})
	t.Run("bad env", func(t *testing.T) {
		t.Setenv(uvloop.BackendEnv, "uring")
		if l, err := uvloop.New(); err == nil {
			l.Close()
			t.Fatal("New succeeded with a bad variable")
		}
	})
	t.Run("option wins", func(t *testing.T) {
		t.Setenv(uvloop.BackendEnv, "io_uring")
		l, err := uvloop.New(uvloop.WithBackend(def))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if l.Backend() != def {
			t.Errorf("WithBackend(%v) under %s=io_uring: backend %v", def, uvloop.BackendEnv, l.Backend())
		}
	})
	t.Run("io_uring", func(t *testing.T) {
		if err := poller.Available(uvloop.BackendIOURing); err != nil {
			t.Skipf("io_uring refused here: %v", err)
		}
		l, err := uvloop.New(uvloop.WithBackend(uvloop.BackendIOURing))
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		if l.Backend() != uvloop.BackendIOURing || l.Metrics().Backend != uvloop.BackendIOURing {
			t.Errorf("backend %v, Metrics %v", l.Backend(), l.Metrics().Backend)
		}
	})
	t.Run("missing", func(t *testing.T) {
		missing := uvloop.BackendKqueue
		if runtime.GOOS != "linux" {
			missing = uvloop.BackendEpoll
		}
		if l, err := uvloop.New(uvloop.WithBackend(missing)); !errors.Is(err, errors.ErrUnsupported) {
			if l != nil {
				l.Close()
			}
			t.Fatalf("WithBackend(%v): %v, want an error wrapping errors.ErrUnsupported", missing, err)
		}
	})
}
