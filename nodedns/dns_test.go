package nodedns_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/uvgo/uvgo/nodedns"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

func run(t *testing.T, main func(l *uvloop.Loop, out func(string))) []string {
	t.Helper()
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	main(l, func(s string) { lines = append(lines, s) })
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return lines
}

func TestLookupOrderOfCallbacks(t *testing.T) {
	got := run(t, func(l *uvloop.Loop, out func(string)) {
		nodedns.Lookup(l, "localhost", nil, func(err error, a string, f int) { out(fmt.Sprint("name ", err, " ", a, " ", f)) })
		nodedns.Lookup(l, "127.0.0.1", nil, func(err error, a string, f int) { out(fmt.Sprint("literal ", err, " ", a, " ", f)) })
		nodedns.Lookup(l, "", &nodedns.LookupOptions{Family: 6}, func(err error, a string, f int) { out(fmt.Sprint("empty ", err, " ", a, " ", f)) })
		l.SetImmediate(func() { out("immediate") })
	})
	want := []string{"literal <nil> 127.0.0.1 4", "empty <nil>  6", "immediate", "name <nil> 127.0.0.1 4"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		// The lookup may finish before the check phase; only the ticks' order is fixed.
		if got[0] != want[0] || got[1] != want[1] || len(got) != 4 {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}

func TestLookupNotFound(t *testing.T) {
	var e *nodedns.Error
	run(t, func(l *uvloop.Loop, out func(string)) {
		nodedns.Lookup(l, "nosuch.invalid", nil, func(err error, a string, f int) {
			if !errors.As(err, &e) {
				t.Errorf("error %T %v", err, err)
			}
			if a != "" || f != 0 {
				t.Errorf("address %q family %d", a, f)
			}
		})
	})
	if e == nil || e.Message != "getaddrinfo ENOTFOUND nosuch.invalid" || e.Code != "ENOTFOUND" || e.Errno != -3008 ||
		e.Syscall != "getaddrinfo" || e.Hostname != "nosuch.invalid" || !errors.Is(e, nodedns.ErrNotFound) || !errors.Is(e, uvloop.EAINoName) {
		t.Fatalf("%+v", e)
	}
}

func TestLookupBadArguments(t *testing.T) {
	run(t, func(l *uvloop.Loop, out func(string)) {
		err := nodedns.Lookup(l, "x", &nodedns.LookupOptions{Family: 5}, func(error, string, int) { t.Error("called") })
		var e *nodedns.Error
		if !errors.As(err, &e) || e.Code != "ERR_INVALID_ARG_VALUE" || e.Message != "The property 'options.family' must be one of: 0, 4, 6. Received 5" {
			t.Errorf("family 5: %v", err)
		}
		if err := nodedns.Lookup(l, "x", &nodedns.LookupOptions{Order: "random"}, func(error, string, int) {}); err == nil {
			t.Error("order random accepted")
		}
		if err := nodedns.LookupService(l, "nope", 80, func(error, string, string) {}); err == nil || err.Error() != "The argument 'address' is invalid. Received 'nope'" {
			t.Errorf("lookupService: %v", err)
		}
		if err := nodedns.Reverse(l, "nope", func(error, []string) {}); err == nil {
			t.Error("reverse of a name accepted")
		}
	})
}

func TestLookupAllOrder(t *testing.T) {
	f := false
	run(t, func(l *uvloop.Loop, out func(string)) {
		nodedns.LookupAll(l, "localhost", &nodedns.LookupOptions{Verbatim: &f}, func(err error, addrs []nodedns.LookupAddress) {
			if err != nil || len(addrs) == 0 || addrs[0].Family != 4 {
				t.Errorf("%v %v", err, addrs)
			}
		})
		nodedns.LookupAll(l, "localhost", &nodedns.LookupOptions{Family: 4}, func(err error, addrs []nodedns.LookupAddress) {
			for _, a := range addrs {
				if a.Family != 4 {
					t.Errorf("family 4 gave %v", a)
				}
			}
		})
		nodedns.LookupAll(l, "::1", nil, func(err error, addrs []nodedns.LookupAddress) {
			if len(addrs) != 1 || addrs[0] != (nodedns.LookupAddress{Address: "::1", Family: 6}) {
				t.Errorf("::1: %v", addrs)
			}
		})
	})
}

func TestLookupServiceAndResolve(t *testing.T) {
	run(t, func(l *uvloop.Loop, out func(string)) {
		nodedns.LookupService(l, "127.0.0.1", 80, func(err error, host, service string) {
			if err != nil || host == "" || service != "http" {
				t.Errorf("lookupService: %v %q %q", err, host, service)
			}
		})
		nodedns.Resolve4(l, "nosuch.invalid", func(err error, addrs []string) {
			var e *nodedns.Error
			if !errors.As(err, &e) || e.Message != "queryA ENOTFOUND nosuch.invalid" || e.Syscall != "queryA" || e.Errno != 0 {
				t.Errorf("resolve4: %v", err)
			}
		})
		nodedns.ResolveMx(l, "nosuch.invalid", func(err error, _ []nodedns.MxRecord) {
			if !errors.Is(err, nodedns.ErrNotFound) {
				t.Errorf("resolveMx: %v", err)
			}
		})
	})
}

func TestPromises(t *testing.T) {
	run(t, func(l *uvloop.Loop, out func(string)) {
		p := nodedns.Promises(l).Lookup("nosuch.invalid", nil)
		p.Catch(func(err error) (nodedns.LookupAddress, error) {
			if err.Error() != "getaddrinfo ENOTFOUND nosuch.invalid" {
				t.Errorf("rejected with %v", err)
			}
			return nodedns.LookupAddress{}, nil
		})
		q := nodedns.Promises(l).Lookup("localhost", &nodedns.LookupOptions{Family: 4})
		promise.Then(q, func(a nodedns.LookupAddress) (int, error) {
			if a.Address != "127.0.0.1" || a.Family != 4 {
				t.Errorf("resolved with %v", a)
			}
			return 0, nil
		}, nil)
		nodedns.Promises(l).Resolve4("x.invalid").Catch(func(err error) ([]string, error) { return nil, nil })
	})
}

func ExampleLookup() {
	l, _ := uvloop.New()
	nodedns.Lookup(l, "localhost", &nodedns.LookupOptions{Family: 4}, func(err error, address string, family int) {
		fmt.Println(address, family)
	})
	nodedns.Lookup(l, "nosuch.invalid", nil, func(err error, address string, family int) {
		fmt.Println(err)
	})
	l.Run(uvloop.RunDefault)
	l.Close()
	// Unordered output:
	// 127.0.0.1 4
	// getaddrinfo ENOTFOUND nosuch.invalid
}
