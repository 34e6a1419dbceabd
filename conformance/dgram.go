package conformance

import (
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/uvloop"
)

// Port of 330: dgram.createSocket is nodenet.CreateDgramSocket, a thrown error is the error
// the method returns, and a list of buffers sent as one datagram is their concatenation.

func nullOr(err error) string {
	if err == nil {
		return "null"
	}
	return err.Error()
}

func dgramSendMessageOrder(l *uvloop.Loop, out func(string)) func() {
	server, _ := nodenet.CreateDgramSocket(l, "udp4", nil)
	client, _ := nodenet.CreateDgramSocket(l, "udp4", nil)
	got := 0
	port := func(s *nodenet.DgramSocket) int {
		a, err := s.Address()
		if err != nil {
			return -1
		}
		return a.Port
	}
	server.OnListening(func() {
		a, _ := server.Address()
		out(logLine("server listening", a.Address, a.Family, "number"))
		client.SendString("one", a.Port, "127.0.0.1", func(err error, n int) { out(logLine("sent one", nullOr(err), n)) })
		l.NextTick(func() { out("tick after send") })
		l.SetImmediate(func() { out("immediate after send") })
		client.SendString("two", a.Port, "127.0.0.1", func(err error, n int) { out(logLine("sent two", nullOr(err), n)) })
		client.OnListening(func() {
			ca, _ := client.Address()
			out(logLine("client listening", ca.Address))
		})
	})
	server.OnMessage(func(msg []byte, rinfo nodenet.RemoteInfo) {
		out(logLine("message", string(msg), rinfo.Address, rinfo.Family, rinfo.Size, rinfo.Port == port(client)))
		got++
		switch got {
		case 2:
			client.Connect(port(server), "127.0.0.1", func(error) {
				ra, _ := client.RemoteAddress()
				out(logLine("connected", ra.Address, ra.Port == port(server)))
				client.SendString("three", 0, "", func(err error, _ int) { out(logLine("sent three", nullOr(err))) })
				if err := client.Connect(1, "127.0.0.1", nil); err != nil {
					e := err.(*nodenet.Error)
					out(logLine("connect again", e.Code, e.Message))
				}
			})
		case 3:
			client.Disconnect()
			if _, err := client.RemoteAddress(); err != nil {
				e := err.(*nodenet.Error)
				out(logLine("remoteAddress", e.Code, e.Message))
			}
			client.Close(func() { out("client closed") })
			server.Close(nil)
		}
	})
	server.OnClose(func() { out("server close") })
	server.Bind(0, "127.0.0.1", func() { out("bind callback") })
	out("main end")
	return nil
}
