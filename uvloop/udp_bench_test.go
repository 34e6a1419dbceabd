package uvloop_test

import (
	"net/netip"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// BenchmarkUDPPingPong: two UDP handles on one loop bounce a 64-byte datagram; ns/op is one
// round trip (ping sent, received and answered, pong received). The receive callbacks answer
// at once, from pre-made buffers and callbacks; Send reports through its callback, TrySend
// does not.
func BenchmarkUDPPingPong(b *testing.B) {
	for _, bm := range []struct {
		name string
		try  bool
	}{
		{name: "Send"},
		{name: "TrySend", try: true},
	} {
		b.Run(bm.name, func(b *testing.B) { benchUDPPingPong(b, bm.try) })
	}
}

func benchUDPPingPong(b *testing.B, try bool) {
	l := newLoop(b)
	ping, _ := bindUDP(b, l, loopback4)
	pong, pongAddr := bindUDP(b, l, loopback4)
	pingMsg, pongMsg := make([]byte, 64), make([]byte, 64)
	left := 0
	onSent := func(err error) {
		if err != nil {
			b.Error(err)
		}
	}
	send := func(u *uvloop.UDP, msg []byte, to netip.AddrPort) {
		var err error
		if try {
			err = u.TrySend(msg, to)
		} else {
			err = u.Send(msg, to, onSent)
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	onPong := func(u *uvloop.UDP, data []byte, from netip.AddrPort, err error) {
		if err != nil || len(data) != len(pingMsg) {
			b.Fatalf("pong got %d bytes, %v", len(data), err)
		}
		send(u, pongMsg, from)
	}
	onPing := func(u *uvloop.UDP, data []byte, _ netip.AddrPort, err error) {
		if err != nil || len(data) != len(pongMsg) {
			b.Fatalf("ping got %d bytes, %v", len(data), err)
		}
		if left--; left > 0 {
			send(u, pingMsg, pongAddr)
			return
		}
		mustOK(b, ping.RecvStop()) // nothing is left active: Run returns
		mustOK(b, pong.RecvStop())
	}
	rounds := func(n int) {
		left = n
		mustOK(b, ping.RecvStart(onPing))
		mustOK(b, pong.RecvStart(onPong))
		send(ping, pingMsg, pongAddr)
		mustRunMode(b, l, uvloop.RunDefault)
		if left != 0 {
			b.Fatalf("%d round trips left", left)
		}
	}
	rounds(100) // warm up: the send queues, the pending ring, the receive buffer
	b.ReportAllocs()
	b.ResetTimer()
	rounds(b.N)
	b.StopTimer()
	closeLoop(b, l)
}
