package uvloop_test

import (
	"context"
	"errors"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test-getaddrinfo.c and test-getnameinfo.c, and of the lookups of
// test-threadpool-cancel.c. Only names that resolve without a network: localhost, address
// literals and names under .invalid (RFC 6761).

func TestLibuvGetaddrinfoFail(t *testing.T) {
	l := newLoop(t)
	if _, err := l.GetAddrInfo("", "", nil, func([]uvloop.AddrInfo, error) { t.Error("called") }); !errors.Is(err, syscall.EINVAL) {
		t.Fatalf("no node, no service: %v, want EINVAL", err)
	}
	called := 0
	_, err := l.GetAddrInfo("example.invalid.", "", nil, func(res []uvloop.AddrInfo, err error) {
		called++
		if !errors.Is(err, uvloop.EAINoName) || res != nil {
			t.Errorf("got %v, %v; want EAI_NONAME", res, err)
		}
		var de *uvloop.DNSError
		if !errors.As(err, &de) || de.Op != "getaddrinfo" || de.Name != "example.invalid." {
			t.Errorf("error %#v", err)
		}
	})
	mustOK(t, err)
	mustRunMode(t, l, uvloop.RunDefault)
	if called != 1 {
		t.Fatalf("callback ran %d times", called)
	}
	mustOK(t, l.Close())
}

func TestLibuvGetaddrinfoFailSync(t *testing.T) {
	if _, err := uvloop.GetAddrInfoSync("example.invalid.", "", nil); !errors.Is(err, uvloop.EAINoName) {
		t.Fatalf("%v, want EAI_NONAME", err)
	}
}

func TestLibuvGetaddrinfoBasic(t *testing.T) {
	l := newLoop(t)
	called := 0
	_, err := l.GetAddrInfo("localhost", "", nil, func(res []uvloop.AddrInfo, err error) {
		called++
		mustOK(t, err)
		if len(res) == 0 {
			t.Fatal("no results")
		}
		for _, r := range res {
			if !r.Addr.Addr().IsLoopback() {
				t.Errorf("localhost gave %v", r.Addr)
			}
		}
	})
	mustOK(t, err)
	mustRunMode(t, l, uvloop.RunDefault)
	if called != 1 {
		t.Fatalf("callback ran %d times", called)
	}
	mustOK(t, l.Close())
}

func TestLibuvGetaddrinfoBasicSync(t *testing.T) {
	res, err := uvloop.GetAddrInfoSync("localhost", "80", &uvloop.AddrInfoHints{SockType: uvloop.SockStream})
	mustOK(t, err)
	if len(res) == 0 || res[0].Addr.Port() != 80 || res[0].SockType != uvloop.SockStream || res[0].Protocol != uvloop.ProtoTCP {
		t.Fatalf("%+v", res)
	}
}

func TestLibuvGetaddrinfoConcurrent(t *testing.T) {
	const n = 10
	l := newLoop(t)
	var counts [n]int
	for i := 0; i < n; i++ {
		_, err := l.GetAddrInfo("localhost", "", nil, func(res []uvloop.AddrInfo, err error) {
			mustOK(t, err)
			counts[i]++
		})
		mustOK(t, err)
	}
	mustRunMode(t, l, uvloop.RunDefault)
	for i, c := range counts {
		if c != 1 {
			t.Errorf("lookup %d: %d callbacks", i, c)
		}
	}
	mustOK(t, l.Close())
}

// The hints: a family, a socket type, numeric host and service, the passive wildcard, the
// canonical name, a service name.
func TestGetaddrinfoHints(t *testing.T) {
	tests := []struct {
		name, node, service string
		hints               uvloop.AddrInfoHints
		want                []string // the addresses, in order
		err                 error
	}{
		{name: "literal v4", node: "127.0.0.1", service: "80", hints: uvloop.AddrInfoHints{SockType: uvloop.SockStream}, want: []string{"127.0.0.1:80"}},
		{name: "literal v6", node: "::1", hints: uvloop.AddrInfoHints{SockType: uvloop.SockDgram}, want: []string{"[::1]:0"}},
		{name: "all socket types", node: "127.0.0.1", want: []string{"127.0.0.1:0", "127.0.0.1:0", "127.0.0.1:0"}},
		{name: "family mismatch", node: "127.0.0.1", hints: uvloop.AddrInfoHints{Family: uvloop.AFInet6}, err: uvloop.EAIAddrFamily},
		{name: "v4 mapped", node: "127.0.0.1", hints: uvloop.AddrInfoHints{Family: uvloop.AFInet6, SockType: uvloop.SockStream, Flags: uvloop.AIV4Mapped}, want: []string{"[::ffff:127.0.0.1]:0"}},
		{name: "numeric host refuses a name", node: "localhost", hints: uvloop.AddrInfoHints{Flags: uvloop.AINumericHost}, err: uvloop.EAINoName},
		{name: "numeric service refuses a name", node: "127.0.0.1", service: "http", hints: uvloop.AddrInfoHints{Flags: uvloop.AINumericServ}, err: uvloop.EAINoName},
		{name: "passive", service: "8080", hints: uvloop.AddrInfoHints{SockType: uvloop.SockStream, Flags: uvloop.AIPassive}, want: []string{"[::]:8080", "0.0.0.0:8080"}},
		{name: "loopback", service: "8080", hints: uvloop.AddrInfoHints{SockType: uvloop.SockStream}, want: []string{"[::1]:8080", "127.0.0.1:8080"}},
		{name: "invalid domain", node: "invalid", err: uvloop.EAINoName},
		{name: "localhost v4", node: "localhost", hints: uvloop.AddrInfoHints{Family: uvloop.AFInet, SockType: uvloop.SockStream}, want: []string{"127.0.0.1:0"}},
	}
	l := newLoop(t)
	for _, tc := range tests {
		_, err := l.GetAddrInfo(tc.node, tc.service, &tc.hints, func(res []uvloop.AddrInfo, err error) {
			if tc.err != nil {
				if !errors.Is(err, tc.err) {
					t.Errorf("%s: %v, want %v", tc.name, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				return
			}
			var got []string
			for _, r := range res {
				got = append(got, r.Addr.String())
			}
			if len(got) != len(tc.want) {
				t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
				return
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
				}
			}
		})
		mustOK(t, err)
	}
	if _, err := l.GetAddrInfo("x", "", &uvloop.AddrInfoHints{Family: 99}, func([]uvloop.AddrInfo, error) {}); !errors.Is(err, uvloop.EAIFamily) {
		t.Errorf("family 99: %v", err)
	}
	if _, err := l.GetAddrInfo("x", "", nil, nil); !errors.Is(err, uvloop.ErrNilCallback) {
		t.Errorf("nil callback: %v", err)
	}
	canon := ""
	_, err := l.GetAddrInfo("127.0.0.1", "", &uvloop.AddrInfoHints{SockType: uvloop.SockStream, Flags: uvloop.AICanonName}, func(res []uvloop.AddrInfo, err error) {
		mustOK(t, err)
		canon = res[0].CanonName
	})
	mustOK(t, err)
	mustRunMode(t, l, uvloop.RunDefault)
	if canon != "127.0.0.1" {
		t.Errorf("canonical name %q", canon)
	}
	mustOK(t, l.Close())
}

func TestLibuvGetnameinfoBasicIP4(t *testing.T) {
	l := newLoop(t)
	called := 0
	_, err := l.GetNameInfo(netip.MustParseAddrPort("127.0.0.1:80"), 0, func(host, service string, err error) {
		called++
		mustOK(t, err)
		if host == "" || service == "" {
			t.Errorf("host %q service %q", host, service)
		}
	})
	mustOK(t, err)
	_, err = l.GetNameInfo(netip.MustParseAddrPort("127.0.0.1:65000"), uvloop.NINumericHost|uvloop.NINumericServ, func(host, service string, err error) {
		called++
		mustOK(t, err)
		if host != "127.0.0.1" || service != "65000" {
			t.Errorf("numeric: host %q service %q", host, service)
		}
	})
	mustOK(t, err)
	mustRunMode(t, l, uvloop.RunDefault)
	if called != 2 {
		t.Fatalf("%d callbacks", called)
	}
	mustOK(t, l.Close())
}

func TestLibuvGetnameinfoBasicIP6(t *testing.T) {
	l := newLoop(t)
	called := 0
	// ::1 may have no name in /etc/hosts; a numeric host keeps the test off the network.
	_, err := l.GetNameInfo(netip.MustParseAddrPort("[::1]:80"), uvloop.NINumericHost, func(host, service string, err error) {
		called++
		mustOK(t, err)
		if host != "::1" || service == "" {
			t.Errorf("host %q service %q", host, service)
		}
	})
	mustOK(t, err)
	mustRunMode(t, l, uvloop.RunDefault)
	if called != 1 {
		t.Fatalf("%d callbacks", called)
	}
	mustOK(t, l.Close())
}

// threadpool_cancel_getaddrinfo and _getnameinfo: with every worker busy, queued lookups are
// canceled; their callbacks get EAI_CANCELED. Here the lookups' share of the pool (2 of 4) is
// held by two blocked lookups, so the others wait in the loop's queue.
func TestLibuvThreadpoolCancelGetaddrinfo(t *testing.T) {
	l, err := uvloop.New(uvloop.WithWorkers(4))
	mustOK(t, err)
	release := make(chan struct{})
	var running, maxRunning atomic.Int32
	var started sync.WaitGroup
	started.Add(2)
	block := func(ctx context.Context) error {
		n := running.Add(1)
		for {
			m := maxRunning.Load()
			if n <= m || maxRunning.CompareAndSwap(m, n) {
				break
			}
		}
		started.Done()
		<-release
		running.Add(-1)
		return nil
	}
	blocked := 0
	for i := 0; i < 2; i++ {
		_, err := l.QueueLookup(block, func(err error) { mustOK(t, err); blocked++ })
		mustOK(t, err)
	}
	started.Wait()
	canceled := 0
	var reqs []*uvloop.LookupReq
	for i := 0; i < 4; i++ {
		r, err := l.GetAddrInfo("localhost", "", nil, func(res []uvloop.AddrInfo, err error) {
			if !errors.Is(err, uvloop.EAICanceled) || res != nil {
				t.Errorf("getaddrinfo: %v, want EAI_CANCELED", err)
			}
			canceled++
		})
		mustOK(t, err)
		reqs = append(reqs, r)
		r, err = l.GetNameInfo(netip.MustParseAddrPort("127.0.0.1:80"), 0, func(host, service string, err error) {
			if !errors.Is(err, uvloop.EAICanceled) {
				t.Errorf("getnameinfo: %v, want EAI_CANCELED", err)
			}
			canceled++
		})
		mustOK(t, err)
		reqs = append(reqs, r)
	}
	// User work still gets the other half of the pool.
	workDone := make(chan struct{})
	_, err = l.QueueWork(func() { close(workDone) }, func(err error) { mustOK(t, err) })
	mustOK(t, err)
	<-workDone
	for _, r := range reqs {
		mustOK(t, r.Cancel())
	}
	close(release)
	mustRunMode(t, l, uvloop.RunDefault)
	if canceled != 8 || blocked != 2 {
		t.Fatalf("%d canceled, %d blocked ones done", canceled, blocked)
	}
	if m := maxRunning.Load(); m != 2 {
		t.Fatalf("%d lookups ran at once, want 2", m)
	}
	if err := reqs[0].Cancel(); !errors.Is(err, uvloop.ErrBusy) {
		t.Fatalf("Cancel after the callback: %v", err)
	}
	mustOK(t, l.Close())
}

// ConnectString and BindString take host names.
func TestTCPConnectStringHostName(t *testing.T) {
	l := newLoop(t)
	server, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, server.BindString("localhost:0", 0))
	accepted := 0
	mustOK(t, server.Listen(8, func(err error) {
		mustOK(t, err)
		c, _ := l.NewTCP()
		mustOK(t, server.Accept(c))
		accepted++
		c.Close(nil)
		server.Close(nil)
	}))
	la, err := server.LocalAddr()
	mustOK(t, err)
	if !la.Addr().IsLoopback() {
		t.Fatalf("bound to %v", la)
	}
	client, err := l.NewTCP()
	mustOK(t, err)
	host := "localhost:" + strconv.Itoa(int(la.Port()))
	connected := 0
	mustOK(t, client.ConnectString(host, func(err error) {
		mustOK(t, err)
		connected++
		client.Close(nil)
	}))
	bad, err := l.NewTCP()
	mustOK(t, err)
	failed := 0
	mustOK(t, bad.ConnectString("nosuch.invalid:80", func(err error) {
		if !errors.Is(err, uvloop.EAINoName) {
			t.Errorf("connect to nosuch.invalid: %v", err)
		}
		failed++
		bad.Close(nil)
	}))
	canceled, err := l.NewTCP()
	mustOK(t, err)
	mustOK(t, canceled.ConnectString("localhost:1", func(err error) {
		if !errors.Is(err, syscall.ECANCELED) {
			t.Errorf("closed while looking up: %v", err)
		}
		failed++
	}))
	canceled.Close(nil)
	mustRunMode(t, l, uvloop.RunDefault)
	if accepted != 1 || connected != 1 || failed != 2 {
		t.Fatalf("accepted %d connected %d failed %d", accepted, connected, failed)
	}
	mustOK(t, l.Close())
}
