// Package http1 is an HTTP/1.1 server engine for uvgo loops: an incremental request parser
// (Parser) and a server on uvloop's TCP and Pipe handles (Server).
//
// # The parser
//
// Parser keeps its position between reads: a request may arrive split at any byte, and
// each byte is examined once however the bytes arrive (a head that arrives in pieces is
// also copied once into the parser's buffer, which the head's slices then point into).
// Parse reports events — EventHead, EventBody (a slice of the caller's bytes, never
// copied), EventEnd — and allocates nothing once its buffers have grown.
//
// Framing follows RFC 9112 strictly; what is refused is an *Error carrying the status to
// answer before closing the connection:
//
//   - 400: a malformed request line or field line; a line not ended by CRLF (a bare LF
//     or CR is refused, where net/http's ReadRequest takes a bare LF); obsolete line
//     folding; a field name that is not a token (ReadRequest keeps a name with a space);
//     a field value with a control byte; a missing (HTTP/1.1), repeated or invalid Host;
//     a Content-Length that is not digits, is 2^63 or more (checked before each multiply,
//     so 18446744073709551621 cannot wrap to 5), or differs from another Content-Length;
//     Transfer-Encoding beside Content-Length, or in an HTTP/1.0 request (RFC 9112
//     section 6.1: faulty framing); a chunk size that is empty, not hex or longer than 16
//     digits; a chunk not followed by CRLF; a chunk-size line over 4 KiB.
//   - 413: a Content-Length, or chunks adding up to more, than MaxBodySize.
//   - 414: a request line longer than MaxRequestLineSize.
//   - 417: an HTTP/1.1 Expect other than 100-continue (as net/http's server).
//   - 431: a head (or trailer section) over MaxHeaderSize; more than MaxHeadersCount
//     fields.
//   - 501: a Transfer-Encoding other than one "chunked".
//   - 505: a version other than HTTP/1.0 and HTTP/1.1.
//
// Up to 64 bytes of empty lines before a request line are skipped (RFC 9112 section 2.2;
// ReadRequest refuses them). The target is checked byte by byte (visible ASCII), not
// parsed as a URL. The fuzz test holds the parser to net/http's ReadRequest with the input
// cut at random places, and lists these differences.
//
// # The server
//
// A Server serves one loop's connections (TCP or Pipe): run N loops on N goroutines with
// uvloop.TCPReusePort to use N cores, as examples/http -loops N does. Its Handler runs on
// the loop goroutine when a request's head has arrived; the body streams to Request.OnBody
// (or is gathered first by BufferBody), and the Response streams out. One request is
// served at a time per connection: pipelined requests wait (their bytes held, up to 64 KiB,
// then reading stops) until the response before them ends, so responses keep their order
// even when handlers answer later.
//
// Safe by default, each limit an Option:
//
//   - HeadersTimeout 60 s, from a request's first byte (or the connection's start) to the
//     end of its head; RequestTimeout 300 s, to the end of its body: 408, then close.
//     KeepAliveTimeout 5 s between requests, and for a client that takes none of its
//     output (see KeepAliveTimeout). Each kind of timeout is one loop timer for the
//     whole server, over its connections in order of deadline: entering, leaving and
//     moving cost a few pointer writes, and there is no goroutine per connection.
//   - MaxHeaderSize 16 KiB, MaxRequestLineSize 8 KiB, MaxHeadersCount 2000, MaxBodySize
//     1 MiB: refused with 431, 414, 431, 413.
//   - MaxBufferedBytes 32 MiB over all connections: split heads, held pipelined requests
//     and gathered bodies count; a connection that would go over is answered 503.
//   - MaxConnections 16384; past it, and when the process runs out of fds (uvloop's
//     listener then accepts and closes what it cannot keep), connections are shed at once.
//   - HighWaterMark 64 KiB of output per connection: past it the connection stops reading
//     until its output drains (Response.NeedDrain and OnDrain let a streaming handler wait).
//
// A request cut short by the end of the client's stream is answered 400 (ErrIncomplete),
// after the responses before it, as Node's server answers it.
//
// Refused requests get their status and "Connection: close"; the server then shuts its side
// down and reads until the client closes (LingerTimeout, 2 s), so that the client reads the
// answer rather than a reset. net/http handlers run on a Server through FromNetHTTP and
// FromNetHTTPBlocking (see FromNetHTTP).
package http1
