package conformance

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the scenarios that read a file (004, 007, 031): fs.readFile is uvloop's ReadFile,
// which reads on the work pool and calls back in the poll phase, as libuv's threadpool and
// Node's fs.readFile do. The file read is the scenario's own script, as __filename is.

// scriptPath is the scenario's __filename, relative to the package directory (where go test
// runs).
func scriptPath(folder string) string { return filepath.Join("testdata", folder, "scenario.js") }

// jsErr prints an error as console.log prints a Node callback's err: null when there is none.
func jsErr(err error) string {
	if err == nil {
		return "null"
	}
	return err.Error()
}

// 004: a 100 ms timeout waits for the readFile callback that runs in the poll phase and
// spins 10 ms; it fires no earlier than 100 ms after it was set.
func readFileVs100msTimer(l *uvloop.Loop, out func(string)) func() {
	someAsyncOperation := func(callback func(err error)) {
		l.ReadFile(scriptPath("004-seed-readfile-vs-100ms-timer"), func(_ []byte, err error) { callback(err) })
	}
	timeoutScheduled := time.Now()
	l.SetTimeout(func() {
		delay := time.Since(timeoutScheduled).Milliseconds()
		out(fmt.Sprintf("timeout fired; delay >= 99: %v", delay >= 99))
	}, 100*ms)
	someAsyncOperation(func(err error) {
		out(fmt.Sprintf("readFile callback start; err: %s", jsErr(err)))
		busyWait(10 * ms)
		out("readFile callback end (busy 10ms)")
	})
	return nil
}

// 007: inside an I/O callback an immediate always runs before a 0 ms timeout: the check
// phase comes before the next timers phase.
func readFileImmediateBeforeTimeout(l *uvloop.Loop, out func(string)) func() {
	l.ReadFile(scriptPath("007-seed-readfile-immediate-before-timeout"), func([]byte, error) {
		l.SetTimeout(func() { out("timeout") }, 0)
		l.SetImmediate(func() { out("immediate") })
	})
	return nil
}

// 031: inside an I/O callback, its synchronous code, then nextTicks, then promise reactions,
// then the check phase, then the next timers phase.
func readFileCallbackThenQueues(l *uvloop.Loop, out func(string)) func() {
	l.ReadFile(scriptPath("031-readfile-callback-then-queues"), func(data []byte, err error) {
		text := string(data) // 'utf8'
		out(logLine("readFile callback, err =", jsErr(err), ", got text:", len(text) > 0))
		l.SetTimeout(func() { out("timeout 0") }, 0)
		l.SetImmediate(func() { out("immediate") })
		logThen(resolved(l), out, "promise")
		l.NextTick(func() { out("nextTick") })
		out("readFile callback end")
	})
	out("main end")
	return nil
}
