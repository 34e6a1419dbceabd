package nodedns_test

import (
	"encoding/binary"
	"net"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/uvgo/uvgo/nodedns"
	"github.com/uvgo/uvgo/uvloop"
)

// fakeDNS is a UDP name server on 127.0.0.1 that answers every A question with addr, or,
// with silent, reads and never answers. It counts the queries it got.
type fakeDNS struct {
	conn    net.PacketConn
	mu      sync.Mutex
	queries int
	wg      sync.WaitGroup
}

func startFakeDNS(t *testing.T, addr [4]byte, silent bool) *fakeDNS {
	t.Helper()
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeDNS{conn: c}
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		buf := make([]byte, 512)
		for {
			n, from, err := c.ReadFrom(buf)
			if err != nil {
				return
			}
			f.mu.Lock()
			f.queries++
			f.mu.Unlock()
			if !silent && n > 12 {
				c.WriteTo(answerA(buf[:n], addr), from)
			}
		}
	}()
	t.Cleanup(func() {
		c.Close()
		f.wg.Wait()
	})
	return f
}

func (f *fakeDNS) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.queries
}

// answerA answers query (one question) with one A record for its name: the header with QR,
// RD, RA and one answer, the question as asked, and the answer pointing at the question's name.
func answerA(query []byte, addr [4]byte) []byte {
	end := 12
	for end < len(query) && query[end] != 0 {
		end += int(query[end]) + 1
	}
	end += 5 // the root label, QTYPE, QCLASS
	if end > len(query) {
		return nil
	}
	out := append([]byte(nil), query[:end]...)
	binary.BigEndian.PutUint16(out[2:], 0x8180)
	binary.BigEndian.PutUint16(out[4:], 1) // QDCOUNT
	binary.BigEndian.PutUint16(out[6:], 0) // ANCOUNT, set below for A questions
	binary.BigEndian.PutUint16(out[8:], 0)
	binary.BigEndian.PutUint16(out[10:], 0)
	if binary.BigEndian.Uint16(query[end-4:]) != 1 { // not A: no answer
		return out
	}
	binary.BigEndian.PutUint16(out[6:], 1)
	out = append(out, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4)
	return append(out, addr[:]...)
}

// SetServers sends the resolver's queries to its servers, and only its: the package's
// functions still use the system's.
func TestResolverServers(t *testing.T) {
	f := startFakeDNS(t, [4]byte{192, 0, 2, 7}, false)
	lines := run(t, func(l *uvloop.Loop, out func(string)) {
		r := nodedns.NewResolver(l, nil)
		if err := r.SetServers([]string{f.conn.LocalAddr().String()}); err != nil {
			t.Fatal(err)
		}
		r.Resolve4("uvgo.example", func(err error, addrs []string) {
			out(strings.Join(addrs, ",") + " " + errString(err))
		})
	})
	if got := strings.Join(lines, "|"); got != "192.0.2.7 <nil>" {
		t.Errorf("got %q", got)
	}
	if f.count() == 0 {
		t.Error("the server got no query")
	}
}

// A server that never answers makes a query with Timeout fail with ETIMEOUT.
func TestResolverTimeout(t *testing.T) {
	f := startFakeDNS(t, [4]byte{}, true)
	lines := run(t, func(l *uvloop.Loop, out func(string)) {
		r := nodedns.NewResolver(l, &nodedns.ResolverOptions{Timeout: 100, Tries: 1})
		r.SetServers([]string{f.conn.LocalAddr().String()})
		r.Resolve4("uvgo.example", func(err error, addrs []string) {
			e, _ := err.(*nodedns.Error)
			if e == nil {
				out("no error")
				return
			}
			out(e.Code + " " + e.Message)
		})
	})
	if got := strings.Join(lines, "|"); got != "ETIMEOUT queryA ETIMEOUT uvgo.example" {
		t.Errorf("got %q", got)
	}
}

// Cancel from inside a callback, with queries made before and after it: only those pending
// at the time get ECANCELLED; a later query answers normally; the loop ends and closes (the
// check handle is gone).
func TestResolverCancelFromCallback(t *testing.T) {
	f := startFakeDNS(t, [4]byte{192, 0, 2, 8}, false)
	slow := startFakeDNS(t, [4]byte{}, true)
	lines := run(t, func(l *uvloop.Loop, out func(string)) {
		r := nodedns.NewResolver(l, nil)
		r.SetServers([]string{slow.conn.LocalAddr().String()})
		cb := func(label string) func(error, []string) {
			return func(err error, addrs []string) { out(label + " " + strings.Join(addrs, ",") + " " + errString(err)) }
		}
		r.Resolve4("a.example", cb("a"))
		l.SetTimeout(func() {
			r.Cancel()
			r.SetServers([]string{f.conn.LocalAddr().String()})
			r.Resolve4("b.example", cb("b"))
		}, 20e6)
	})
	// b's answer may come in the poll phase before the check phase that calls a back.
	slices.Sort(lines)
	want := "a  queryA ECANCELLED a.example|b 192.0.2.8 <nil>"
	if got := strings.Join(lines, "|"); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
