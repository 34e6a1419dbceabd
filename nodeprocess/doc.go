// Package nodeprocess is Node.js's process object for code ported to uvgo: the harness that
// runs a main script, the event loop and Node's exit sequence, with the process events
// ('beforeExit', 'exit', 'uncaughtException', 'uncaughtExceptionMonitor',
// 'unhandledRejection', 'rejectionHandled', 'warning'), process.exitCode, process.exit,
// process.emitWarning and the exit status Node would give; signal events
// (process.on('SIGINT', ...)), process.kill and process.pid; and the standard streams
// (Stdin, Stdout, Stderr) over whatever fds 0-2 are — a TTY, a pipe, a socket or a file.
//
//	func main() {
//		nodeprocess.Main(func(p *nodeprocess.Process) {
//			l := p.Loop()
//			p.OnExit(func(code int) { fmt.Println("exit", code) })
//			l.SetTimeout(func() { fmt.Println("timeout") }, 10*time.Millisecond)
//		})
//	}
//
// A panic is JavaScript's throw: one in a callback, a tick, a microtask or the main script
// that nothing recovers is an uncaught exception, handled as Node handles one (see
// Process.Run), and printed as Node prints it when nothing handles it.
//
// Signal listeners are Node's: the first listener of a signal starts an unref'd uvloop
// Signal handle (a signal listener does not keep the loop alive, as in Node), and removing
// the last one stops it, which gives the signal Go's default action back: SIGINT, SIGTERM
// and SIGHUP end the process as in Node, but SIGUSR2, SIGALRM and the like are dropped by
// Go's runtime, where Node dies of them (see uvloop.Signal). Listeners get the signal's
// name and number.
//
// Everything here belongs to the loop goroutine.
package nodeprocess
