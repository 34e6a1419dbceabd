package conformance

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/uvgo/uvgo/nodechild"
	"github.com/uvgo/uvgo/nodeevents"
	"github.com/uvgo/uvgo/nodefs"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the AbortSignal scenarios of fs and child_process (331-): the signal option is
// ReadFileOptions.Signal and ExecOptions.Signal, and the error is a *nodeevents.AbortError.

// showAbort prints an AbortError as the scenarios' show(e): name | code | message | cause.
func showAbort(err error) string {
	var ae *nodeevents.AbortError
	if !errors.As(err, &ae) {
		return fmt.Sprintf("not an AbortError: %v", err)
	}
	return strings.Join([]string{ae.WarningName(), ae.Code(), ae.Error(), ae.Cause.Error()}, " | ")
}

// 331: an aborted readFile (already and in flight) and an aborted exec.
func abortSignalFSExec(l *uvloop.Loop, out func(string)) func() {
	fs := nodefs.New(l)
	file := scriptPath("331-abort-signal-fs-exec")
	fs.ReadFileWith(file, &nodefs.ReadFileOptions{Signal: nodeevents.AbortSignalAbort()}, func(err error, _ []byte) {
		out(logLine("pre-aborted readFile:", showAbort(err)))
	})
	out("after readFile")
	l.NextTick(func() { out("tick") })
	l.SetTimeout(func() {
		ac := nodeevents.NewAbortController()
		fs.ReadFileWith(file, &nodefs.ReadFileOptions{Signal: ac.Signal()}, func(err error, data []byte) {
			out(logLine("readFile:", showAbort(err), "undefined"))
			ac2 := nodeevents.NewAbortController()
			child, _ := nodechild.Exec(l, "sleep 10", &nodechild.ExecOptions{Signal: ac2.Signal()}, func(err error, stdout, stderr string) {
				out(logLine("exec callback:", showAbort(err), strconv.Quote(stdout), strconv.Quote(stderr)))
			})
			child.On("spawn", func(...any) {
				ac2.Abort(errors.New("stop"))
				out(logLine("aborted, killed", child.Killed))
			})
			child.OnExit(func(code *int, signal string) { out(logLine("exit", jsNull(intOrNil(code)), signal)) })
			child.OnClose(func(code *int, signal string) { out(logLine("close", jsNull(intOrNil(code)), signal)) })
		})
		ac.Abort(errors.New("changed my mind"))
		l.NextTick(func() { out("tick after abort") })
		l.SetImmediate(func() { out("immediate after abort") })
	}, ms)
	return nil
}

func intOrNil(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
