// Package nodefs is Node's fs module for code ported from Node to uvgo: the callback API
// (FS), the promise API (Promises, FileHandle) and the file streams (ReadStream,
// WriteStream), on uvloop's file system requests (uvloop.FSReq), which run on the loop's
// work pool and complete in the poll phase, as libuv's do under Node.
//
//	fs := nodefs.New(loop)
//	fs.ReadFileString("config.json", "utf8", func(err error, text string) { ... })
//	fsp := fs.Promises()
//	promise.Async(loop, func() (nodefs.Void, error) {
//		st, err := promise.Await(fsp.Stat("config.json"))
//		...
//	})
//
// # Shapes
//
// Callbacks take Node's arguments in Node's order, the error first: fs.stat(p, (err, st))
// is f.Stat(p, func(err error, st *Stats)). Options objects are small structs whose nil
// pointer is Node's default; Node's string flags ("r", "w", "a+", ...) are accepted as they
// are. Calls that Node overloads on an encoding have a String variant (ReadFileString,
// WriteFileString, WriteString). Promise calls that resolve to undefined resolve to Void.
//
// The synchronous calls (ReadFileSync, WriteFileSync, ExistsSync, StatSync, MkdirSync,
// ReaddirSync, UnlinkSync, RmSync, ...) block the loop goroutine, as Node's do, and fail
// with the same errors.
//
// # Streams
//
// CreateReadStream and CreateWriteStream follow Node's state machine: the open is
// constructed on a nextTick; "open" and "ready" come together from its completion (not for
// a descriptor given as Fd), and the stream reads or writes from a nextTick after them, so
// writes made by their listeners go out with the ones before; a "data" listener (On, Once,
// OnData) starts the flow unless Pause was called; each read is one pool round trip of at
// most HighWaterMark bytes, made only while the stream flows (Node's paused stream reads
// ahead up to HighWaterMark; the events are the same); "end" comes from a nextTick after
// the read that returned 0, "close" after the descriptor is closed. A WriteStream's Write
// reports whether the buffer is below its HighWaterMark ("drain" follows when it empties,
// before the write's callback); End's callback runs just before "finish", or with the error
// if the stream fails first. Destroy waits for an open or a read/write in flight (Node's
// construct and kIsPerformingIO) before it closes the descriptor; a write in flight then
// fails with ERR_STREAM_DESTROYED, and the buffered ones with Destroy's error. With
// autoClose off a failure does not destroy the stream: it is emitted, and the descriptor
// stays open until Destroy.
//
// # Encodings
//
// Encode, Decode and the streams' decoding speak Buffer's encodings: utf8 (invalid bytes
// become U+FFFD as V8 replaces them), base64, base64url, hex, latin1 (binary), ascii,
// utf16le (ucs2), and raw bytes. A stream with an encoding (the Encoding option or
// SetEncoding) never splits a character or a base64 group between two "data" events.
//
// # Order
//
// Every callback runs in the poll phase, followed by the nextTick/microtask drain, so an
// immediate queued there runs before a 0 ms timeout. Calls that Node builds from several
// libuv requests take as many work-pool round trips here: readFile is open, fstat, read(s),
// close; writeFile and appendFile are open, write(s), close; truncate is open, ftruncate,
// close; rm is an lstat and then the removal. Recursive mkdir, rm's removal and
// fs.realpath's walk each run as one work item.
//
// # Errors
//
// Failures are *Error values with Node's code, errno (negative), syscall, path, dest and
// message, e.g. "ENOENT: no such file or directory, open 'missing.txt'"; they wrap the
// errno, so errors.Is(err, fs.ErrNotExist) and errors.Is(err, syscall.ENOENT) work. What
// Node throws synchronously (a nil callback: ERR_INVALID_ARG_TYPE; an unknown flag, a path
// with a NUL byte, an empty buffer, an unknown encoding: ERR_INVALID_ARG_VALUE; a negative
// descriptor, an offset, length or position outside the buffer or the file:
// ERR_OUT_OF_RANGE; each with Node's message) is returned by the call, whose callback then
// never runs; the promise API rejects instead, and the streams emit an unknown flag
// ("error", then "close") as Node's open in their construct throws it. Bad input that
// reaches the system (an empty path, a closed descriptor, a directory where a file is
// expected) fails in the callback with Node's error, and the loop runs on.
//
// # Buffers
//
// Bytes handed to a callback (ReadFile's data, a stream's chunks) belong to the callee. A
// buffer given to Read, Write, WriteFile or a stream's Write must not be touched until its
// callback runs.
//
// Everything in this package belongs to the loop goroutine.
package nodefs
