// Package conformance holds Go ports of the Node.js ordering scenarios in testdata/: each
// folder has the scenario as a Node.js script (scenario.js), the lines Node v20 prints
// (expected.txt) and, for the timing-dependent ones, the other allowed output
// (expected-alt.txt). Scenarios maps every folder to its port; the package's test runs each
// port on a fresh loop and, when node is on $PATH, the script with node, and compares both
// with the recorded lines.
//
// A port is the scenario written with uvloop's Node-style API: the "main script" is
// Scenario.Main, console.log is the out function it is given, and process.on('exit') is the
// function Main returns; promises and async functions are package promise's; fs.readFile is
// uvloop's ReadFile. A scenario without a port would be listed with the reason in
// Scenario.Skip (none is, today).
package conformance

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/uvgo/uvgo/nodeprocess"
	"github.com/uvgo/uvgo/uvloop"
)

// Scenario is the Go port of one testdata folder.
type Scenario struct {
	// Skip, if not empty, says why the scenario has no port yet; Main is then nil.
	Skip string
	// Main is the main script: it schedules work on l before the loop runs and prints with
	// out, one call per console.log. It returns what the script prints on process 'exit'
	// (run after the loop has ended), or nil.
	Main func(l *uvloop.Loop, out func(string)) (onExit func())
	// Process, instead of Main, is a port that runs under package nodeprocess, as the
	// scripts that use process events, process.exit or exit codes need: it is the main
	// script, and the process's exit status is compared with expected-status.txt.
	Process func(p *nodeprocess.Process, out func(string))
	// Racy, if not empty, says why the scenario's order can change on a loaded machine, in
	// uvgo as in node (a pool worker descheduled for a few round trips, say): the test then
	// runs its port up to three times, as it runs node, before a mismatch counts; each
	// mismatching attempt is logged.
	Racy string
}

// Scenarios maps each testdata folder name to its port.
var Scenarios = map[string]Scenario{
	"001-seed-script-start-promise-timeout":      {Main: scriptStartPromiseTimeout("script start", "script end")},
	"002-seed-async1-async2":                     {Main: async1Async2},
	"003-seed-await-native-promise":              {Main: awaitNativePromise},
	"004-seed-readfile-vs-100ms-timer":           {Main: readFileVs100msTimer},
	"005-seed-timer1-timer2-promise3":            {Main: timer1Timer2Promise3},
	"006-seed-timeout-vs-immediate-main":         {Main: timeoutVsImmediateMain},
	"007-seed-readfile-immediate-before-timeout": {Main: readFileImmediateBeforeTimeout},
	"008-seed-nexttick-bar-timeout-immediate":    {Main: nextTickBarTimeoutImmediate},
	"009-seed-apicall-nexttick-error":            {Main: apiCallNextTickError},
	"010-seed-sync-callback-bar-undefined":       {Main: syncCallbackBarUndefined},
	"011-seed-nexttick-callback-bar-1":           {Main: nextTickCallbackBar1},
	"012-seed-server-listening-event":            {Main: serverListeningEvent},
	"013-seed-promises-nextticks-immediates":     {Main: promisesNextTicksImmediates},
	"014-seed-start-promise-chain-timeout-end":   {Main: scriptStartPromiseTimeout("start", "end")},
	"015-seed-executor-runs-synchronously":       {Main: executorRunsSynchronously},
	"016-seed-executor-two-timeouts":             {Main: executorTwoTimeouts},
	"017-seed-timer1-timer2-microtasks":          {Main: timer1Timer2Microtasks},
	"018-seed-timeout-immediate-after-sync-code": {Main: timeoutImmediateAfterSyncCode},
	"019-seed-nexttick-recursion-1000":           {Main: nextTickRecursion},
	"020-seed-setimmediate-recursion-1000":       {Main: setImmediateRecursion},
	"021-nexttick-before-promise-then":           {Main: nextTickBeforePromiseThen},
	"022-microtask-fifo-queuemicrotask-then":     {Main: microtaskFIFOQueueMicrotaskThen},
	"023-timeouts-fire-in-delay-order":           {Main: timeoutsFireInDelayOrder},
	"024-equal-delay-fifo":                       {Main: equalDelayFIFO},
	"025-setinterval-three-runs":                 {Main: setIntervalThreeRuns},
	"026-cleartimeout-and-clearimmediate":        {Main: clearTimeoutAndClearImmediate},
	"027-callback-arguments":                     {Main: callbackArguments},
	"028-microtasks-between-immediates":          {Main: microtasksBetweenImmediates},
	"029-promise-then-catch-finally-basic":       {Main: promiseThenCatchFinally},
	"030-async-await-sequence":                   {Main: asyncAwaitSequence},
	"031-readfile-callback-then-queues":          {Main: readFileCallbackThenQueues},
	"032-unref-timer-does-not-keep-alive":        {Main: unrefTimerDoesNotKeepAlive},
	"033-tcp-connect-send-close":                 {Main: tcpConnectSendClose},

	"100-nexttick-from-timeout-before-next-timeout": {Main: nextTickFromTimeoutBeforeNextTimeout},
	"101-immediate-from-immediate-waits-for-timers": {Main: immediateFromImmediateWaitsForTimers},
	"102-setinterval-cleared-by-another-timeout":    {Main: setIntervalClearedByAnotherTimeout},
	"103-unref-then-ref-timeout":                    {Main: unrefThenRefTimeout},
	"104-refresh-in-own-callback":                   {Main: refreshInOwnCallback},

	"110-net-connect-refused":                   {Main: netConnectRefused},
	"111-net-server-close-with-connection-open": {Main: netServerCloseWithConnectionOpen},
	"112-net-write-after-end":                   {Main: netWriteAfterEnd},
	"113-net-cork-uncork":                       {Main: netCorkUncork},
	"510-net-write-callback-timing":             {Main: netWriteCallbackTiming},

	"200-fs-error-objects":                            {Main: fsErrorObjects},
	"201-fs-callback-chain-queues":                    {Main: fsCallbackChainQueues},
	"202-fs-stat-before-readfile-round-trips":         {Main: fsStatBeforeReadFile, Racy: "a pool worker descheduled for readFile's three more round trips lets it call back first"},
	"203-fs-read-stream-pipe-write-stream":            {Main: fsReadStreamPipe},
	"204-fs-watch-rename":                             {Main: fsWatchRename},
	"205-fs-promises-await-loop":                      {Main: fsPromisesAwaitLoop},
	"206-fs-stream-events-ticks-immediates":           {Main: fsStreamEventsTicksImmediates},
	"207-fs-readfile-round-trips-vs-1s-timer":         {Main: fsReadFileRoundTripsVs100msTimer},
	"208-fs-immediate-before-timeout-in-fs-callbacks": {Main: fsImmediateBeforeTimeoutInCallbacks},

	"250-http-request-response-cycle":      {Main: httpRequestResponseCycle},
	"251-http-pipelined-pair":              {Main: httpPipelinedPair},
	"252-http-client-error":                {Main: httpClientError},
	"253-http-server-close-idle-keepalive": {Main: httpServerCloseIdleKeepAlive},
	"254-http-finish-vs-close":             {Main: httpFinishVsClose},
	"255-http-chunked-response":            {Main: httpChunkedResponse},
	"256-http-listener-throws":             {Process: httpListenerThrows},

	"331-abort-signal-fs-exec": {Main: abortSignalFSExec},

	"350-child-exit-before-close": {Main: childExitBeforeClose},
	"351-child-killed-sigterm":    {Main: childKilledSigterm},
	"352-child-missing-binary":    {Main: childMissingBinary},
	"353-exec-callback":           {Main: execCallback},
	"354-signal-to-self":          {Main: signalToSelf},
	"355-dns-lookup-localhost":    {Main: dnsLookupLocalhost},
	"356-dns-lookup-invalid":      {Main: dnsLookupInvalid},
	"357-dns-resolver-cancel":     {Main: dnsResolverCancel},

	"300-process-beforeexit-exit-sequence":   {Process: processBeforeExitExitSequence},
	"301-process-uncaught-exception-resumes": {Process: processUncaughtExceptionResumes},
	"302-process-uncaught-in-microtask":      {Process: processUncaughtInMicrotask},
	"303-process-rejection-events":           {Process: processRejectionEvents},
	"304-process-fatal-exception-status":     {Process: processFatalExceptionStatus},
	"305-process-exit-calls":                 {Process: processExitCalls},
	"306-process-unhandled-nonerror-fatal":   {Process: processUnhandledNonErrorFatal},
	"307-events-docs-emitter":                {Main: eventsDocsEmitter},
	"308-events-docs-max-listeners-warning":  {Process: eventsDocsMaxListenersWarning},
	"309-events-once-promise":                {Process: eventsOncePromise},
	"310-events-on-async-iterator":           {Process: eventsOnAsyncIterator},
	"311-timers-promises":                    {Process: timersPromises},
	"312-abort-signal":                       {Main: abortSignal},
	"325-promise-thenable-adoption-turns":    {Main: promiseThenableAdoptionTurns},
	"326-promisify-callbackify":              {Main: promisifyCallbackify},
	"327-stream-pipeline-fs":                 {Main: streamPipelineFS},
	"328-net-socket-timeout":                 {Main: netSocketTimeout},
	"329-net-dual-stack-addresses":           {Main: netDualStackAddresses},
	"330-dgram-send-message-order":           {Main: dgramSendMessageOrder},

	"400-perf-event-loop-utilization":     {Main: perfEventLoopUtilization},
	"401-perf-monitor-event-loop-delay":   {Main: perfMonitorEventLoopDelay},
	"402-perf-monitor-unref-and-reenable": {Main: perfMonitorUnrefAndReenable},
	"403-perf-user-timing":                {Main: perfUserTiming},
}

// Run runs the port on a fresh loop, as node runs a script: Main, then the loop until
// nothing keeps it alive (RunDefault), then the 'exit' output; then it closes every handle
// and the loop. It returns the printed lines and the first error: a *uvloop.PanicError if a
// callback panicked, or an error closing the loop.
func (s Scenario) Run() (lines []string, err error) {
	lines, _, err = s.RunStatus()
	return lines, err
}

// RunStatus is Run that also returns the exit status Node would give: 0 for a Main port,
// nodeprocess's status for a Process port (which runs under nodeprocess.Run; what it
// writes to stderr is dropped).
func (s Scenario) RunStatus() (lines []string, status int, err error) {
	out := func(line string) { lines = append(lines, line) }
	if s.Process != nil {
		status, err = nodeprocess.Run(func(p *nodeprocess.Process) { s.Process(p, out) },
			nodeprocess.WithStderr(io.Discard))
		return lines, status, err
	}
	if s.Main == nil {
		return nil, 0, fmt.Errorf("conformance: no port: %s", s.Skip)
	}
	l, err := uvloop.New()
	if err != nil {
		return nil, 0, err
	}
	onExit := s.Main(l, out)
	_, err = l.Run(uvloop.RunDefault)
	if err == nil && onExit != nil {
		onExit()
	}
	if cerr := closeLoop(l); err == nil {
		err = cerr
	}
	return lines, 0, err
}

// closeLoop closes the handles still open, runs the loop for their close callbacks and
// closes it.
func closeLoop(l *uvloop.Loop) error {
	l.Walk(func(h uvloop.Handle) {
		if !h.IsClosing() {
			h.Close(nil)
		}
	})
	if _, err := l.Run(uvloop.RunDefault); err != nil {
		return err
	}
	return l.Close()
}

// logLine formats like console.log: the operands' default formats separated by spaces.
func logLine(args ...any) string {
	return strings.TrimSuffix(fmt.Sprintln(args...), "\n")
}

// busyWait spins for d on the wall clock without yielding the loop, like the scenarios'
// busyWait(ms): it makes timers due before the loop gets to them.
func busyWait(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}

const ms = time.Millisecond
