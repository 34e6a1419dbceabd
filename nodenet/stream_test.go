package nodenet

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// An echo server made of sock.Pipe(sock): 4 MiB through two sockets with 1 KiB high-water
// marks, so the pipe pauses and flows on 'drain' many times; every byte comes back in order.
func TestPipeEchoBackpressure(t *testing.T) {
	const size = 4 << 20
	payload := make([]byte, size)
	for i := range payload {
		payload[i] = byte(i * 7)
	}
	var recv bytes.Buffer
	pauses, drains := 0, 0
	run(t, func(l *uvloop.Loop) {
		srv := CreateServer(l, func(sock *Socket) {
			sock.SetHighWaterMark(1<<10, 1<<10)
			sock.On("pause", func(...any) { pauses++ })
			sock.OnDrain(func() { drains++ })
			sock.Pipe(sock, true)
		})
		srv.Listen(0, "127.0.0.1", func() {
			c := Connect(l, srv.Address().Port, "127.0.0.1", nil)
			c.OnConnect(func() {
				c.Write(payload, nil)
				c.End(nil)
			})
			c.OnData(func(b []byte) { recv.Write(b) })
			c.OnClose(func(bool) { srv.Close(nil) })
		})
	})
	if !bytes.Equal(recv.Bytes(), payload) {
		t.Fatalf("echoed %d bytes, want %d intact", recv.Len(), size)
	}
	if pauses == 0 || drains == 0 {
		t.Errorf("pauses %d, drains %d: no backpressure", pauses, drains)
	}
}

// Pipeline of a socket into a socket that is destroyed halfway: the callback gets the
// error, once, and the other socket is destroyed with it.
func TestPipelineError(t *testing.T) {
	boom := errors.New("boom")
	var got []error
	run(t, func(l *uvloop.Loop) {
		var in *Socket
		srv := CreateServer(l, func(sock *Socket) {
			if in == nil {
				in = sock
				return
			}
			out := sock
			Pipeline(func(err error) {
				got = append(got, err)
				if !in.Destroyed() || !out.Destroyed() {
					t.Errorf("destroyed: in %v out %v", in.Destroyed(), out.Destroyed())
				}
			}, in, out)
			out.OnError(func(error) {})
			in.OnError(func(error) {})
			l.SetTimeout(func() { out.Destroy(boom) }, time.Millisecond)
		})
		srv.Listen(0, "127.0.0.1", func() {
			port := srv.Address().Port
			a := Connect(l, port, "127.0.0.1", nil)
			a.OnConnect(func() {
				b := Connect(l, port, "127.0.0.1", nil)
				b.Resume()
				b.OnClose(func(bool) { a.Destroy(nil); srv.Close(nil) })
				a.WriteString("data", nil)
			})
			a.OnError(func(error) {})
		})
	})
	if len(got) != 1 || got[0] != boom {
		t.Errorf("callback got %v, want [boom]", got)
	}
}

// ReadyState and the readable/writable flags through a socket's life; an idle timeout does
// not keep the loop alive; OnDataString gets decoded text.
func TestSocketStateAndTimeout(t *testing.T) {
	var states []string
	var text string
	timeouts := 0
	run(t, func(l *uvloop.Loop) {
		srv := CreateServer(l, func(sock *Socket) {
			sock.SetEncoding("hex")
			sock.OnDataString(func(s string) { text += s })
			sock.OnEnd(func() { states = append(states, "server end "+sock.ReadyState()) })
		})
		srv.Listen(0, "127.0.0.1", func() {
			c := Connect(l, srv.Address().Port, "127.0.0.1", nil)
			states = append(states, c.ReadyState())
			c.OnConnect(func() {
				states = append(states, c.ReadyState())
				// The idle timeout is set once connected: set before, its 1 ms raced the
				// connect on a loaded machine (CI saw "timeout opening").
				c.SetTimeout(time.Millisecond, func() {
					timeouts++
					states = append(states, "timeout "+c.ReadyState())
					c.EndString("\x01\xff")
					states = append(states, "ended "+c.ReadyState())
				})
			})
			c.OnClose(func(bool) {
				states = append(states, "closed "+c.ReadyState())
				srv.Close(nil)
			})
			c.Resume()
		})
	})
	want := []string{"opening", "open", "timeout open", "ended readOnly", "server end writeOnly", "closed closed"}
	if len(states) != len(want) {
		t.Fatalf("states %q, want %q", states, want)
	}
	for i := range want {
		if states[i] != want[i] {
			t.Errorf("states %q, want %q", states, want)
			break
		}
	}
	if text != "01ff" || timeouts != 1 {
		t.Errorf("text %q, timeouts %d", text, timeouts)
	}
}
