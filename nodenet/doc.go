// Package nodenet is a Node.js-shaped net layer for code ported from Node to uvgo: a
// Server (CreateServer, Listen, Close, Address) and a Socket (Connect, Write, End,
// Destroy, SetEncoding, Pause/Resume, SetTimeout, SetKeepAlive, SetNoDelay) over uvloop's
// TCP and Pipe handles, dgram's DgramSocket over uvloop's UDP handle, with Node v20's events
// in Node's order, and the stream shape that Node's streams share (Readable, Writable, Duplex,
// with Pipe, Pipeline and Finished). Their EventEmitter is package nodeevents' (EventEmitter
// here is an alias of it), which ported code can embed in its own types.
//
//	server := nodenet.CreateServer(loop, func(sock *nodenet.Socket) {
//		sock.OnData(func(b []byte) { sock.Write(b, nil) }) // echo
//	})
//	server.Listen(0, "127.0.0.1", func() { fmt.Println("on", server.Address()) })
//
// # Order
//
// What Node emits from a nextTick, nodenet emits from a nextTick (uvloop's NextTick); what
// Node emits from a libuv callback, nodenet emits from the same uvloop callback; 'close'
// comes from the handle's close callback, in the close phase. In short:
//
//	"listening"        nextTick after the listener is set up (itself a nextTick later
//	                   when Listen has a host: Node's DNS lookup of an IP address)
//	"connection"       poll phase, when the connection is accepted
//	"connect"          poll (or pending) phase, when the connect completes; Connect starts
//	                   connecting from a nextTick
//	"data"             from the read callback, while the socket flows
//	"end"              nextTick after the end of the stream was read
//	"finish"           nextTick after End's shutdown is done
//	"error"            nextTick after Destroy(err)
//	"close" (Socket)   close phase; (Server) nextTick once closed and drained
//
// allowHalfOpen is false by default: after "end" a socket ends its own side (from a
// nextTick), and a socket is destroyed once it emitted both "end" and "finish".
// Server.Close's callback runs once the connections the server accepted are gone.
// A Write's callback runs from a nextTick if the write completes at once, else in the poll
// phase that completes it. Writes made while connecting wait for "connect" in a listener
// that the first of them adds (listeners added before it run first); that first write's
// callback then runs at once, and what is written until it is done waits behind it.
//
// # Buffers
//
// Write does not keep the caller's bytes: what the kernel does not take at once is copied.
// Each "data" event hands a fresh copy that the listener owns (Node hands a fresh Buffer),
// or a string after SetEncoding.
//
// # Streams
//
// Socket is a Duplex; nodefs's ReadStream and WriteStream are a Readable and a Writable, and
// any type can be one (see Readable and Writable): Pipe is readable.pipe with Node's
// backpressure (Write returning false pauses the source, "drain" makes it flow again at
// once), Pipeline is stream.pipeline, Finished is stream.finished. SetEncoding takes every
// encoding of Node's Buffer (package internal/bufenc's StringDecoder, shared with nodefs);
// OnData and OnDataString take a chunk either way.
//
// # Addresses
//
// A server listening without a host listens on "::" and sees IPv4 peers as
// "::ffff:127.0.0.1" (family IPv6), as Node does; it falls back to 0.0.0.0 only where IPv6
// is missing.
//
// # Errors
//
// Failures are *Error values with Node's code ("ECONNREFUSED",
// "ERR_STREAM_WRITE_AFTER_END", ...) and message; system call failures wrap the errno. An
// "error" event with no listener panics, as Node throws: uvloop's Run then returns a
// *uvloop.PanicError whose Value is the error.
//
// # Not (yet) here
//
// The 'readable' event and read(), Transform streams, dgram's send of a list of
// buffers and its buffer-size options, Node 20's autoSelectFamily (a name's first address is
// the one connected to), Node's ERR_SOCKET_CLOSED_BEFORE_CONNECTION for the first write
// pending when a connecting socket is destroyed (every pending write's callback gets
// Destroy's error, or ErrDestroyed, from a nextTick, as Node's later ones do).
//
// Everything in this package belongs to the loop goroutine.
package nodenet
