package nodechild

import (
	"strings"
	"time"

	"github.com/uvgo/uvgo/internal/bufenc"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodenet"
	"github.com/uvgo/uvgo/promise"
	"github.com/uvgo/uvgo/uvloop"
)

// ExecOptions are exec's and execFile's options. The zero value (or nil) is Node's default.
type ExecOptions struct {
	Cwd string
	Env []string
	// Timeout, if positive, kills the child with KillSignal once it has run that long. As
	// in Node, a kill (Timeout's or MaxBuffer's) first destroys the child's stdout and
	// stderr: what it writes after is not read, and cb has what came before.
	Timeout time.Duration
	// KillSignal is the signal of Timeout and of MaxBuffer, its name in any case; "" is
	// SIGTERM. An unknown name fails ExecFile and Exec at once (ERR_UNKNOWN_SIGNAL).
	KillSignal string
	// MaxBuffer is the most bytes of stdout or of stderr read; beyond it the child is killed
	// and the error is ERR_CHILD_PROCESS_STDIO_MAXBUFFER. As Node does with its default
	// utf8 encoding, the chunk that crosses it is cut after as many UTF-16 units of its text
	// as there were bytes left, on a character boundary (so the output may hold more bytes).
	// 0 is Node's 1 MiB.
	MaxBuffer int
	// Encoding is how the output is decoded, as Node's encoding option: "" is Node's
	// "utf8" (a character split between reads is whole, invalid bytes become U+FFFD as
	// Node's StringDecoder makes them), any of Node's Buffer encodings ("latin1", "hex",
	// "base64", ...) decodes with it, and "buffer" (or a name Node does not know, as in
	// Node) hands the raw bytes. MaxBuffer counts what Node counts: the decoded text's
	// Buffer.byteLength in the encoding (so a U+FFFD counts three), or the bytes.
	Encoding string
	// Shell runs the file through /bin/sh -c (ExecFile; Exec always does).
	Shell bool
	// Signal, if not nil, aborts the command as Node's does: the child is sent SIGTERM
	// (Spawn's Signal; as in Node, not KillSignal), and cb gets the *nodeevents.AbortError itself
	// (Cause the signal's reason) with empty output, as soon as the signal is aborted.
	Signal *nodeevents.AbortSignal
}

// DefaultMaxBuffer is Node's maxBuffer: 1 MiB.
const DefaultMaxBuffer = 1024 * 1024

// ExecError is the error exec and execFile report when the command fails: Node's
// "Command failed: cmd\nstderr" with the exit code (an int, or the errno's name when the
// program did not start), whether it was killed and by which signal. Err is the spawn
// error when there was one (then Message is its message).
type ExecError struct {
	Message string
	Code    any    // the exit code (int), the errno's name ("ENOENT"), a Node code, or nil
	Killed  bool   // the child was killed (timeout, maxBuffer or Kill)
	Signal  string // the signal that ended it, or ""
	Cmd     string // the command with its arguments
	Stdout  string // what the child wrote, for the promise forms
	Stderr  string
	Err     error // the spawn error or the maxBuffer error, or nil
}

func (e *ExecError) Error() string { return e.Message }
func (e *ExecError) Unwrap() error { return e.Err }

// Exec is child_process.exec(command, options, callback): command runs through /bin/sh -c,
// and cb gets what it wrote on stdout and stderr once it has ended and both have closed
// (the child's "close"), with a nil error if it exited with 0, else an *ExecError.
func Exec(l *uvloop.Loop, command string, opts *ExecOptions, cb func(err error, stdout, stderr string)) (*ChildProcess, error) {
	var o ExecOptions
	if opts != nil {
		o = *opts
	}
	o.Shell = true
	return ExecFile(l, command, nil, &o, cb)
}

// ExecFile is child_process.execFile(file, args, options, callback): as Exec, without a shell
// unless options ask for one. A program that cannot be started gives cb the spawn error (an
// *ExecError wrapping the *Error with code ENOENT, ...).
func ExecFile(l *uvloop.Loop, file string, args []string, opts *ExecOptions, cb func(err error, stdout, stderr string)) (*ChildProcess, error) {
	var o ExecOptions
	if opts != nil {
		o = *opts
	}
	if o.MaxBuffer <= 0 {
		o.MaxBuffer = DefaultMaxBuffer
	}
	if o.KillSignal != "" && signalNumber(o.KillSignal) == 0 {
		return nil, errUnknownSignal(o.KillSignal) // Node's sanitizeKillSignal throws
	}
	enc := execEncoding(o.Encoding)
	c, err := Spawn(l, file, args, &SpawnOptions{Cwd: o.Cwd, Env: o.Env, Shell: o.Shell, Signal: o.Signal})
	if err != nil {
		return nil, err
	}
	cmd := file
	if len(args) > 0 {
		cmd += " " + strings.Join(args, " ")
	}
	var (
		stdout, stderr strings.Builder
		ex             *ExecError
		killed, exited bool
		timer          *uvloop.Timeout
		aborted        *nodeevents.AbortError
	)
	// kill is Node's: the output streams are destroyed first, so that nothing more is read
	// and a child (or a grandchild) that outlives the signal gets EPIPE on its next write
	// instead of being read from forever.
	kill := func() {
		if c.Stdout != nil {
			c.Stdout.Destroy(nil)
		}
		if c.Stderr != nil {
			c.Stderr.Destroy(nil)
		}
		killed = true
		c.Kill(o.KillSignal)
	}
	exithandler := func() {
		if exited {
			return
		}
		exited = true
		if timer != nil {
			l.ClearTimeout(timer)
			timer = nil
		}
		if cb == nil {
			return
		}
		if aborted != nil {
			cb(aborted, "", "")
			return
		}
		so, se := stdout.String(), stderr.String()
		if ex == nil && c.ExitCode != nil && *c.ExitCode == 0 && c.SignalCode == "" {
			cb(nil, so, se)
			return
		}
		if ex == nil {
			ex = &ExecError{Message: "Command failed: " + cmd + "\n" + se, Killed: c.Killed || killed, Signal: c.SignalCode}
			if c.ExitCode != nil {
				ex.Code = *c.ExitCode
			}
		}
		ex.Cmd, ex.Stdout, ex.Stderr = cmd, so, se
		cb(ex, so, se)
	}
	c.On("close", func(...any) { exithandler() })
	c.OnError(func(err error) {
		if ae, ok := err.(*nodeevents.AbortError); ok {
			aborted = ae // Node hands the AbortError itself to the callback
		} else {
			e := &ExecError{Message: err.Error(), Err: err}
			if ce, ok := err.(*Error); ok {
				e.Code = ce.Code
			}
			ex = e
		}
		if c.Stdout != nil {
			c.Stdout.Destroy(nil)
		}
		if c.Stderr != nil {
			c.Stderr.Destroy(nil)
		}
		exithandler()
	})
	if o.Timeout > 0 {
		timer = l.SetTimeout(func() { timer = nil; kill() }, o.Timeout)
	}
	// collect is Node's onChildStdout and onChildStderr, fed by the stream's "data" (decoded
	// as setEncoding(encoding) would) and, at its end, by what the decoder held back.
	collect := func(st *nodenet.Socket, b *strings.Builder, name string) {
		var dec *bufenc.StringDecoder
		if enc != "" {
			dec = bufenc.NewStringDecoder(enc)
		}
		n := 0 // the output's length as Node counts it
		add := func(chunk string) {
			if killed {
				return // (kill destroyed the streams: in Node nothing more comes)
			}
			length := len(chunk)
			if dec != nil {
				length = byteLength(chunk, enc)
			}
			n += length
			if n > o.MaxBuffer {
				keep := o.MaxBuffer - (n - length)
				if dec != nil {
					b.WriteString(utf16Slice(chunk, keep))
				} else {
					b.WriteString(chunk[:keep])
				}
				ex = &ExecError{Code: "ERR_CHILD_PROCESS_STDIO_MAXBUFFER",
					Message: name + " maxBuffer length exceeded"}
				kill()
				return
			}
			b.WriteString(chunk)
		}
		st.OnData(func(data []byte) {
			if dec != nil {
				add(dec.Write(data))
			} else {
				add(string(data))
			}
		})
		if dec != nil {
			st.OnEnd(func() {
				if rest := dec.End(); rest != "" {
					add(rest)
				}
			})
		}
	}
	if c.Stdout != nil {
		collect(c.Stdout, &stdout, "stdout")
	}
	if c.Stderr != nil {
		collect(c.Stderr, &stderr, "stderr")
	}
	return c, nil
}

// execEncoding is the decoder's encoding for exec's encoding option ("" for raw bytes),
// as Node picks it: "" is utf8, a name Node does not know is "buffer".
func execEncoding(name string) string {
	if name == "" {
		return "utf8"
	}
	enc, ok := bufenc.Normalize(name)
	if !ok {
		return ""
	}
	return enc
}

// byteLength is Node's Buffer.byteLength(s, enc) for a string decoded from enc.
func byteLength(s, enc string) int {
	switch enc {
	case "hex":
		return bufenc.ChunkLen(s) / 2
	case "base64", "base64url":
		n := len(s) // (the text is ASCII)
		if n > 0 && s[n-1] == '=' {
			n--
		}
		if n > 1 && s[n-1] == '=' {
			n--
		}
		return n * 3 / 4
	case "latin1", "ascii":
		return bufenc.ChunkLen(s)
	case "utf16le":
		return 2 * bufenc.ChunkLen(s)
	}
	return len(s)
}

// Output is what the promise forms of exec and execFile resolve to.
type Output struct{ Stdout, Stderr string }

// ExecPromise is util.promisify(child_process.exec): it resolves to the output, or rejects
// with the *ExecError (whose Stdout and Stderr are set).
func ExecPromise(l *uvloop.Loop, command string, opts *ExecOptions) *promise.Promise[Output] {
	p, r := promise.WithResolvers[Output](l)
	if _, err := Exec(l, command, opts, settleOutput(r)); err != nil {
		r.Reject(err)
	}
	return p
}

// ExecFilePromise is util.promisify(child_process.execFile).
func ExecFilePromise(l *uvloop.Loop, file string, args []string, opts *ExecOptions) *promise.Promise[Output] {
	p, r := promise.WithResolvers[Output](l)
	if _, err := ExecFile(l, file, args, opts, settleOutput(r)); err != nil {
		r.Reject(err)
	}
	return p
}

func settleOutput(r *promise.Resolvers[Output]) func(error, string, string) {
	return func(err error, stdout, stderr string) {
		if err != nil {
			r.Reject(err)
			return
		}
		r.Resolve(Output{stdout, stderr})
	}
}

// utf16Slice is String.prototype.slice(0, n) of text (decoded, so valid UTF-8): the first
// n UTF-16 code units, where Node cuts the chunk that crosses maxBuffer. A character outside
// the BMP counts two units; one cut in half leaves its high surrogate in Node, which is
// U+FFFD once the string is written anywhere, and is U+FFFD here.
func utf16Slice(text string, n int) string {
	for i, r := range text {
		units := 1
		if r >= 0x10000 {
			units = 2
		}
		switch {
		case n == 0:
			return text[:i]
		case units > n:
			return text[:i] + "\uFFFD"
		}
		n -= units
	}
	return text
}
