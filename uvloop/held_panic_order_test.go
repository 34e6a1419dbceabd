package uvloop_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/uvloop"
)

// (From review rev4.) a stream that stops in every other read callback and starts again from a
// timer, with a panic in one read callback, reads every byte in order, then EOF once, in
// pieces of at most 64 KiB, on both backends.
func TestPauseResumePanicOrder(t *testing.T) {
	for _, mode := range []int{0, 1} {
		for _, panicAt := range []int{0, 2, 3, 5} {
			eachBackend(t, func(t *testing.T, b uvloop.Backend) {
				checkFds(t)
				l := newLoopWith(t, uvloop.WithBackend(b))
				hs, peers := ringStreams(t, l, 1)
				h, peer := hs[0], peers[0]
				want := make([]byte, 700<<10)
				for i := range want {
					want[i] = byte(i % 251)
				}
				done := make(chan struct{})
				go func() {
					defer close(done)
					unix.SetNonblock(peer, false)
					for p := want; len(p) > 0; {
						n, err := unix.Write(peer, p)
						if err != nil {
							return
						}
						p = p[n:]
					}
					unix.Shutdown(peer, unix.SHUT_WR)
				}()
				var got []byte
				calls, eofs, maxPiece := 0, 0, 0
				var other error
				var cb func([]byte, error)
				cb = func(data []byte, err error) {
					calls++
					if err != nil {
						if errors.Is(err, io.EOF) {
							eofs++
						} else {
							other = err
						}
						h.Close(nil)
						return
					}
					got = append(got, data...)
					maxPiece = max(maxPiece, len(data))
					if calls%2 == 1 && mode == 1 {
						h.ReadStop()
						mustOK(t, h.ReadStart(cb)) // again at once, inside the callback
					} else if calls%2 == 1 {
						h.ReadStop()
						tm := l.NewTimer(func(tm *uvloop.Timer) {
							tm.Close(nil)
							if !h.IsClosing() {
								mustOK(t, h.ReadStart(cb))
							}
						})
						mustOK(t, tm.Start(0, 0))
					}
					if calls == panicAt {
						panic("probe")
					}
				}
				mustOK(t, h.ReadStart(cb))
				panics := 0
				for {
					_, err := l.Run(uvloop.RunDefault)
					if err == nil {
						break
					}
					var pe *uvloop.PanicError
					if !errors.As(err, &pe) || panics > 3 {
						t.Fatalf("run: %v", err)
					}
					panics++
				}
				<-done
				if !bytes.Equal(got, want) {
					i := 0
					for i < len(got) && i < len(want) && got[i] == want[i] {
						i++
					}
					t.Errorf("mode %d panicAt %d: got %d bytes, want %d; first difference at %d", mode, panicAt, len(got), len(want), i)
				}
				if eofs != 1 || other != nil {
					t.Errorf("mode %d panicAt %d: %d EOFs, other error %v", mode, panicAt, eofs, other)
				}
				if maxPiece > 64<<10 {
					t.Errorf("mode %d panicAt %d: a piece of %d bytes (over 64 KiB)", mode, panicAt, maxPiece)
				}
				closeLoop(t, l)
			})
		}
	}
}
