// Package nodehttp is Node.js's http module for code ported from Node to uvgo: a server
// (CreateServer) on the http1 engine, and a client (Request, Get, Agent) on nodenet's
// sockets and http1's response parser, with Node v20's events in Node's order.
//
//	server := nodehttp.CreateServer(loop, func(req *nodehttp.IncomingMessage, res *nodehttp.ServerResponse) {
//		res.WriteHead(200, []string{"Content-Type", "text/plain"})
//		res.EndString("Hello, World!")
//	})
//	server.Listen(8080, "127.0.0.1", nil)
//
// # Order
//
// What Node does from a nextTick, nodehttp does from a nextTick; what Node does in a
// libuv callback, nodehttp does in the same uvloop callback (conformance 250-255 pin it):
//
//	"connection"        poll phase, when the connection is accepted
//	"request"           in the read callback that completed the request's head
//	req "data"          a "data" listener makes the request flow from a nextTick: what
//	                    arrived before waits for it; later chunks come at once
//	req "end"           a nextTick after the last chunk was read; "close" two ticks later
//	res "finish"        a nextTick after End (a pipelined response: a tick after the one
//	                    before it finished); "close" a tick after "finish"
//	res/req "close"     in the close phase, with the connection's, if the response did
//	                    not finish (the request gets "aborted" first)
//	client "socket"     a nextTick after Request; "response" in the read callback;
//	                    the request's "close" a nextTick after the response's "end" when
//	                    the socket goes back to its agent
//
// # Differences from Node
//
// Requests pipelined on one connection are dispatched one at a time: http1 holds a
// request's bytes until the response before it ended (Node emits "request" for it at
// once and queues its response). Request bodies are streamed without a size cap (as
// Node), under http1's other limits. A response's "finish" follows End by a tick even when
// the connection's output is still queued (Node waits for the socket's write callback).
// A client that takes none of a response's bytes for a whole keepAliveTimeout (one to two
// in all) is disconnected; Node has no such limit unless server.timeout is set.
// The request parser is http1's, not llhttp: it counts every byte of a head against
// maxHeaderSize (Node counts the target, field names and values) and refuses a request with
// more than maxHeadersCount fields (Node keeps the first ones), and it differs from llhttp
// on some odd requests (methods Node does not know, repeated or malformed Host, repeated
// equal Content-Lengths, a Transfer-Encoding coding before chunked, chunk-size lines over
// 4 KiB): see TestRawNodeParityRev9h for what is held to Node. The client's parser refuses
// what llhttp refuses in a response (both framings, a repeated Content-Length, bytes after
// it in the same read) and takes what it takes (any byte but CR and LF in a reason
// phrase), but words some faults of a status line or field otherwise: see
// TestClientHostileServerRev10c. Its strings hold the head's bytes as they came (Node's
// read them as latin1).
// The 'readable' event, read(), setTimeout, https and HTTP/2 are not here.
//
// Everything in this package belongs to the loop goroutine.
package nodehttp
