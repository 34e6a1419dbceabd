package nodeprocess

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// maxFrames is how many frames of the panicking goroutine an uncaught error prints (Node
// prints 10 by default, Error.stackTraceLimit).
const maxFrames = 10

// FormatUncaught formats an uncaught exception as Node prints it to stderr before it exits:
// where it was raised (the file and line of the panic), a blank line, then for an error
// "Name: message" (Name is the error's Name method, or "Error") and the frames of the
// panicking goroutine as "    at function (file:line)", and its code if it has a Code
// method; for another value, the value. stack is what runtime/debug.Stack returned while
// the panic was being recovered (nil for a rejection, which has no stack: then the first
// line is the origin).
func FormatUncaught(v any, stack []byte, origin string) string {
	var b strings.Builder
	frames := panicFrames(stack)
	switch {
	case len(frames) > 0:
		b.WriteString(frames[0].pos + "\n\n")
	case origin == "unhandledRejection":
		b.WriteString("(from an unhandled rejection)\n\n")
	}
	err, isErr := v.(error)
	if !isErr {
		fmt.Fprintf(&b, "Uncaught %v\n", v)
		return b.String() + "\n"
	}
	fmt.Fprintf(&b, "%s: %s\n", errorName(err), err.Error())
	for _, f := range frames {
		fmt.Fprintf(&b, "    at %s (%s)\n", f.fn, f.pos)
	}
	if c, ok := err.(interface{ Code() string }); ok && c.Code() != "" {
		fmt.Fprintf(&b, "{\n  code: '%s'\n}\n", c.Code())
	}
	return b.String() + "\n"
}

func errorName(err error) string {
	switch n := err.(type) {
	case interface{ WarningName() string }:
		return n.WarningName()
	case interface{ Name() string }:
		return n.Name()
	}
	return "Error"
}

type frame struct{ fn, pos string }

// panicFrames returns the frames below the last panic call of a goroutine's stack as
// runtime/debug.Stack prints it, without the runtime's own, at most maxFrames.
func panicFrames(stack []byte) []frame {
	var frames []frame
	sc := bufio.NewScanner(bytes.NewReader(stack))
	var fn string
	seenPanic := false
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "\t") {
			fn = line
			if strings.HasPrefix(fn, "panic(") {
				seenPanic, frames = true, frames[:0]
			}
			continue
		}
		if !seenPanic || strings.HasPrefix(fn, "panic(") || strings.HasPrefix(fn, "runtime.") {
			continue
		}
		pos := strings.TrimSpace(line)
		if i := strings.LastIndex(pos, " +0x"); i >= 0 {
			pos = pos[:i]
		}
		name := fn
		if i := strings.LastIndex(name, "("); i > 0 {
			name = name[:i]
		}
		if len(frames) < maxFrames {
			frames = append(frames, frame{fn: name, pos: pos})
		}
	}
	return frames
}

func (p *Process) printUncaught(v any, stack []byte, origin string) {
	fmt.Fprint(p.errOut, FormatUncaught(v, stack, origin))
}

// Warning is a process warning made by EmitWarning from a string, or by this package
// (PromiseRejectionHandledWarning).
type Warning struct {
	Name    string // "Warning" unless the emitter says otherwise
	Message string
	Code    string // optional
}

func (w *Warning) Error() string { return w.Message }

// WarningName is the warning's name, as nodeevents.WarningName reads it.
func (w *Warning) WarningName() string { return w.Name }

// EmitWarning is Node's process.emitWarning: w (an error, or a string that becomes a
// *Warning named "Warning") is emitted as a 'warning' event from a nextTick. By default
// the first listener prints it to stderr as Node does.
func (p *Process) EmitWarning(w any) {
	var err error
	switch w := w.(type) {
	case error:
		err = w
	default:
		err = &Warning{Name: "Warning", Message: fmt.Sprint(w)}
	}
	p.loop.NextTick(func() { p.Emit("warning", err) })
}

// warn is the process's nodeevents warning handler.
func (p *Process) warn(w error) { p.EmitWarning(w) }
