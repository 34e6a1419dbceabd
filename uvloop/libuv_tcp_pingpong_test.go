package uvloop_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test-ping-pong.c (tcp_ping_pong, tcp_ping_pong_vec, pipe_ping_pong):
// a client sends "PING\n" and waits for the echo, NUM_PINGS times, then closes; every pong
// must come back whole. The vec variant sends each ping as two buffers in one request.

const numPings = 1000

// pingPong drives a ping-pong over client, which is connected (or connecting) to an echo
// server, and returns how many pongs came back. With vec it writes "PI","NG\n" as one
// Writev request.
func pingPong(t *testing.T, client uvloop.Stream, vec bool, done func()) *int {
	pongs := 0
	ping := []byte("PING\n")
	var got []byte
	send := func() {
		var err error
		if vec {
			err = client.Writev([][]byte{ping[:2], ping[2:]}, func(err error) { mustOK(t, err) })
		} else {
			err = client.Write(ping, func(err error) { mustOK(t, err) })
		}
		mustOK(t, err)
	}
	mustOK(t, client.ReadStart(func(data []byte, err error) {
		if err != nil {
			t.Fatalf("client read: %v", err)
		}
		got = append(got, data...)
		for len(got) >= len(ping) {
			if !bytes.Equal(got[:len(ping)], ping) {
				t.Fatalf("pong %d: got %q", pongs, got)
			}
			got = got[len(ping):]
			pongs++
			if pongs == numPings {
				client.Close(done)
				return
			}
			send()
		}
	}))
	send()
	return &pongs
}

func TestTCPPingPong(t *testing.T)    { testTCPPingPong(t, false) }
func TestTCPPingPongVec(t *testing.T) { testTCPPingPong(t, true) }

func testTCPPingPong(t *testing.T, vec bool) {
	checkFds(t)
	l := newLoop(t)
	closed := 0
	var server *uvloop.TCP
	server, addr := listenTCP(t, l, func(s *uvloop.TCP, err error) {
		mustOK(t, err)
		c := acceptTCP(t, s)
		echo(t, c, 1<<20, func() { closed++ })
	})
	client, err := l.NewTCP()
	mustOK(t, err)
	var pongs *int
	connected := false
	mustOK(t, client.Connect(addr, func(err error) {
		mustOK(t, err)
		connected = true
		pongs = pingPong(t, client, vec, func() {
			closed++
			server.Close(func() { closed++ })
		})
	}))
	runLoop(t, l)
	if !connected || *pongs != numPings {
		t.Fatalf("connected %v, %d pongs, want %d", connected, *pongs, numPings)
	}
	if closed != 3 {
		t.Fatalf("%d close callbacks, want 3", closed)
	}
	closeLoop(t, l)
}

var _ = errors.Is
var _ = io.EOF
