package poller_test

import (
	"runtime"
	"slices"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/poller"
)

// A send is asked for poller.MaxSend bytes at most: a buffer of 4 GiB was a SEND of 0 bytes
// (its length truncated to 32 bits), completing with 0, sent again, forever.
func TestSendIovecsCapped(t *testing.T) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("64-bit only")
	}
	// 4 GiB of address space, no memory behind it: only the lengths are looked at.
	huge, err := unix.Mmap(-1, 0, 1<<32, unix.PROT_NONE, unix.MAP_PRIVATE|unix.MAP_ANON|unix.MAP_NORESERVE)
	if err != nil {
		t.Skipf("mmap 4 GiB: %v", err)
	}
	defer unix.Munmap(huge)
	const max = poller.MaxSend
	small := []byte("abcde")
	for _, tc := range []struct {
		name string
		bufs [][]byte
		want []uint64
	}{
		{name: "4 GiB", bufs: [][]byte{huge}, want: []uint64{max}},
		{name: "small, 4 GiB", bufs: [][]byte{small, huge}, want: []uint64{5, max - 5}},
		{name: "halves, then more", bufs: [][]byte{huge[:max/2], huge[:max/2], small}, want: []uint64{max / 2, max / 2}},
		{name: "exactly the cap, then more", bufs: [][]byte{huge[:max], small}, want: []uint64{max}},
		{name: "empty, small", bufs: [][]byte{nil, small}, want: []uint64{0, 5}},
	} {
		if got := poller.SendIovecLens(tc.bufs); !slices.Equal(got, tc.want) {
			t.Errorf("%s: iovec lengths %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A send that another entry to the kernel submitted before Submit (RecvForget's, SendForget's
// wait for another fd's send) is still reported by the next Submit, where the caller looks
// for the sends the socket took at once, not by the next Wait.
func TestSendSubmittedEarly(t *testing.T) {
	for _, early := range []string{"RecvForget", "SendForget"} {
		t.Run(early, func(t *testing.T) {
			f, p := newFds(t), newPoller(t)
			if !p.CanSend() {
				t.Skipf("the %v backend does not write for its caller", p.Backend())
			}
			a, aPeer := f.socketpair()
			b, _ := f.socketpair()
			switch early {
			case "RecvForget":
				if !p.CanRecv() {
					t.Skip("no multishot receives")
				}
				if err := p.RecvStart(b, 9); err != nil {
					t.Fatal(err)
				}
				wantNone(t, p) // the receive is armed
				if err := p.Send(a, [][]byte{[]byte("x")}, 1); err != nil {
					t.Fatal(err)
				}
				if err := p.RecvForget(b); err != nil {
					t.Fatal(err)
				}
			case "SendForget":
				if err := p.Send(a, [][]byte{[]byte("x")}, 1); err != nil {
					t.Fatal(err)
				}
				if err := p.Send(b, [][]byte{[]byte("y")}, 2); err != nil {
					t.Fatal(err)
				}
				if n, ok, err := p.SendForget(b); !ok || n != 1 || err != nil {
					t.Fatalf("SendForget(b): %d, ok=%v, %v", n, ok, err)
				}
			}
			if n, err := submitOne(t, p, a, 1); n != 1 || err != nil {
				t.Fatalf("a's send: %d, %v", n, err)
			}
			if got := readAll(t, aPeer); got != "x" {
				t.Fatalf("a's peer read %q", got)
			}
			wantNone(t, p)
		})
	}
}
