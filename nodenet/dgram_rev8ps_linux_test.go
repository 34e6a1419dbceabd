package nodenet

import (
	"errors"
	"net"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// dgram on both backends, plain and own thread (review rev8-pollsig), each scenario against
// node v20's output for the same script (the JavaScript is in each test's comment; node's
// null is nil here, and an undefined byte count 0).

// rev8Err is an error's code and syscall, as the scripts print them.
func rev8Err(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Code + " " + e.Syscall
	}
	return errCode(err)
}

// TestRev8DgramSelfCloseInMessage: bind, a send to itself, close in 'message' and a send
// after the close.
//
//	const s = dgram.createSocket('udp4');
//	s.on('listening', () => {
//	  console.log('listening');
//	  s.send('hi', s.address().port, '127.0.0.1', (err, n) => console.log('sent', err ? err.code : null, n));
//	});
//	s.on('message', (m, r) => {
//	  console.log('message', m.toString(), r.size);
//	  s.close(() => console.log('close cb'));
//	  try { s.send('again', r.port, '127.0.0.1', () => console.log('send after close cb')); }
//	  catch (e) { console.log('send after close throws', e.code); }
//	  process.nextTick(() => console.log('tick after close'));
//	});
//	s.on('close', () => console.log('close'));
//	s.on('error', (e) => console.log('error', e.code));
//	s.bind(0, '127.0.0.1', () => console.log('bind cb'));
//	console.log('main');
func TestRev8DgramSelfCloseInMessage(t *testing.T) {
	want := []string{"main", "listening", "bind cb", "sent nil 2", "message hi 2",
		"send after close throws ERR_SOCKET_DGRAM_NOT_RUNNING", "close", "close cb", "tick after close"}
	diffModes(t, want, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		var s *DgramSocket
		s, err := CreateDgramSocket(l, "udp4", nil)
		if err != nil {
			t.Fatal(err)
		}
		s.OnListening(func() {
			log("listening")
			addr, _ := s.Address()
			s.SendString("hi", addr.Port, "127.0.0.1", func(err error, n int) { log("sent %s %d", errCode(err), n) })
		})
		s.OnMessage(func(m []byte, r RemoteInfo) {
			log("message %s %d", m, r.Size)
			s.Close(func() { log("close cb") })
			if err := s.SendString("again", r.Port, "127.0.0.1", func(error, int) { log("send after close cb") }); err != nil {
				log("send after close throws %s", errCode(err))
			}
			l.NextTick(func() { log("tick after close") })
		})
		s.OnClose(func() { log("close") })
		s.OnError(func(err error) { log("error %s", errCode(err)) })
		s.Bind(0, "127.0.0.1", func() { log("bind cb") })
		log("main")
	})
}

// TestRev8DgramBindInUse: a bind to a port in use is an 'error' event, and the socket
// closes cleanly from it.
//
//	const a = dgram.createSocket('udp4');
//	a.on('close', () => console.log('a close'));
//	a.on('listening', () => {
//	  console.log('a listening');
//	  const b = dgram.createSocket('udp4');
//	  b.on('error', (e) => { console.log('b error', e.code, e.syscall); b.close(); });
//	  b.on('listening', () => console.log('b listening'));
//	  b.on('close', () => { console.log('b close'); a.close(); });
//	  b.bind(a.address().port, '127.0.0.1', () => console.log('b bind cb'));
//	});
//	a.bind(0, '127.0.0.1');
func TestRev8DgramBindInUse(t *testing.T) {
	want := []string{"a listening", "b error EADDRINUSE bind", "b close", "a close"}
	diffModes(t, want, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		a, err := CreateDgramSocket(l, "udp4", nil)
		if err != nil {
			t.Fatal(err)
		}
		a.OnClose(func() { log("a close") })
		a.OnListening(func() {
			log("a listening")
			b, err := CreateDgramSocket(l, "udp4", nil)
			if err != nil {
				t.Fatal(err)
			}
			b.OnError(func(err error) { log("b error %s", rev8Err(err)); b.Close(nil) })
			b.OnListening(func() { log("b listening") })
			b.OnClose(func() { log("b close"); a.Close(nil) })
			addr, _ := a.Address()
			b.Bind(addr.Port, "127.0.0.1", func() { log("b bind cb") })
		})
		a.Bind(0, "127.0.0.1", nil)
	})
}

// TestRev8DgramConnectedRefused: sends on a socket connected to a closed port: the first
// goes, the port-unreachable it draws fails the second with ECONNREFUSED, the third goes.
//
//	const a = dgram.createSocket('udp4');
//	a.on('error', (e) => console.log('error', e.code, e.syscall));
//	a.on('close', () => console.log('close'));
//	a.on('connect', () => {
//	  console.log('connect');
//	  a.send('x', (err, n) => console.log('sent1', err ? err.code + ' ' + err.syscall : null, n));
//	  a.send('y', (err, n) => {
//	    console.log('sent2', err ? err.code + ' ' + err.syscall : null, n);
//	    a.send('z', (err, n) => { console.log('sent3', err ? err.code : null, n); a.close(); });
//	  });
//	});
//	a.connect(closedPort, '127.0.0.1', () => console.log('connect cb'));
func TestRev8DgramConnectedRefused(t *testing.T) {
	want := []string{"connect", "connect cb", "sent1 nil 1", "sent2 ECONNREFUSED send 0", "sent3 nil 1", "close"}
	diffModes(t, want, func(t *testing.T, l *uvloop.Loop, log func(string, ...any)) {
		pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := pc.LocalAddr().(*net.UDPAddr).Port
		pc.Close()
		a, err := CreateDgramSocket(l, "udp4", nil)
		if err != nil {
			t.Fatal(err)
		}
		a.OnError(func(err error) { log("error %s", rev8Err(err)) })
		a.OnClose(func() { log("close") })
		a.On("connect", func(...any) {
			log("connect")
			a.SendString("x", 0, "", func(err error, n int) { log("sent1 %s %d", errCode(err), n) })
			a.SendString("y", 0, "", func(err error, n int) {
				log("sent2 %s %d", rev8Err(err), n)
				a.SendString("z", 0, "", func(err error, n int) { log("sent3 %s %d", errCode(err), n); a.Close(nil) })
			})
		})
		if err := a.Connect(port, "127.0.0.1", func(err error) { log("connect cb") }); err != nil {
			t.Fatal(err)
		}
	})
}
