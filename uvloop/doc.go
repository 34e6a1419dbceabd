// Package uvloop is a single-threaded event loop with libuv's phases and Node.js's
// scheduling rules.
//
// One goroutine owns a Loop: the one that calls Run. Every callback runs on it, one at a time,
// in this order (libuv >= 1.46, the libuv inside Node 20):
//
//	Run(mode):
//	  RunDefault, alive, not stopped: update time; run due timers      (prologue)
//	  while alive and not stopped:
//	    pending   callbacks deferred from the last iteration
//	    idle      Idle handles, most recently started first
//	    prepare   Prepare handles
//	    poll      wait for I/O (the timeout below), run I/O callbacks, Async
//	              callbacks and posted functions; then pending again (<= 8 times)
//	    check     Check handles, then the immediates queued before this phase
//	    close     close callbacks of handles closed before this phase, last closed first
//	    update time; run due timers
//	    RunOnce, RunNoWait: return here
//
// Poll does not block if the loop was stopped, nothing ref'd is active, callbacks are
// pending, an Idle handle is active, a ref'd immediate is queued or a handle is closing;
// otherwise it blocks until the next timer is due (never returning early for it), or until
// I/O or a wake-up arrives. The loop is alive while a ref'd handle is active, a request is in
// flight, a callback is pending, a handle is closing, a ref'd immediate is queued or a posted
// function waits.
//
// Other goroutines hand work to the loop with Post and Async.Send, and the work pool hands
// back completions; to a loop that is awake this only queues. A loop about to block takes a
// last look at those queues, and only a loop that blocks is woken, once, by the first of them:
// with a file descriptor registered it sleeps in epoll or kqueue and the wake-up is a write to
// the poller's eventfd (EVFILT_USER, pipe); with none (only timers, posts, work and promises to
// wait for) it sleeps on a channel and the wake-up is a channel send, with no system call.
// Metrics counts the sleeps and the wake-ups.
//
// After every callback the loop calls — each timer, immediate, I/O, Async, close and posted
// callback — it drains Node's queues: all nextTick callbacks (including those they queue),
// then all microtasks (including those they queue), and again while ticks remain. Work
// queued before Run (Node's "main script") drains first.
//
// Two timer APIs share the timers phase. Timer is libuv's uv_timer_t: timers due together run
// by (deadline, start order). SetTimeout/SetInterval are Node's: one list per duration, lists
// by (expiry, creation), and every due timeout of a list before the next list.
//
// # Handles
//
// Timer, Idle, Prepare, Check, Async and Poll are the loop core. TCP and Pipe (Unix domain
// stream sockets) implement Stream, shaped like libuv's uv_stream_t: Listen/Accept, Connect
// (errors arrive in the callback, in the pending phase), ReadStart with loop-owned bytes that
// are valid only until the read callback returns (io.EOF at the end), Write/Writev with an
// ordered queue and completion callbacks (the caller keeps the bytes until then), TryWrite,
// WriteQueueSize and OnDrain for backpressure, Shutdown and Close. UDP sends with completion
// callbacks and receives with the sender's address. Writes, sends and connects in flight
// keep the loop alive; Close cancels them with ECANCELED.
//
// # The work pool
//
// QueueWork runs blocking work on a bounded pool of worker goroutines (4 unless WithWorkers
// says otherwise; they start as work is queued and end at Close) and its after callback on
// the loop goroutine in the poll phase, as uv_queue_work does; completions that finish
// together are delivered in one poll phase. Work in flight keeps the loop alive and makes
// Close fail with ErrBusy. Work.Cancel takes queued work off the queue (its after gets
// ECANCELED). A panic in work is recovered on the worker and handed to after as a
// *PanicError; a panic in after follows the policy below. ReadFile is os.ReadFile on the pool.
//
// # Files
//
// The FS* methods are libuv's uv_fs_* requests (FSOpen, FSRead, FSStat, FSCopyfile, ...): a
// system call on the work pool, its callback in the poll phase, on a caller-owned FSReq that
// can be reused without allocating (see FSReq); bad input (an empty path, a closed
// descriptor, a directory where a file is expected, a negative offset, unknown flags) ends in
// libuv's errno, never a panic. FSEvent watches a path, as uv_fs_event_t: all the FSEvent
// handles of a loop share one kernel instance (one inotify descriptor, or one kqueue),
// created with the first watch and closed with the last, and handles watching the same file
// each hear its events. FSPoll stat-polls a path, as uv_fs_poll_t; its Close waits for a stat
// in flight.
//
// # Goroutines
//
// One goroutine at a time owns a Loop: while Run runs, the one that called it; before Run and
// between runs, whoever calls Run next. Only Post and Async.Send may be called from other
// goroutines, and work running on the pool may call nothing else. Everything else — creating,
// starting and stopping handles, SetTimeout, NextTick, Stop, Close — belongs to the owner.
//
// # Errors and panics
//
// Misuse returns errors that wrap the sentinels of this package (ErrClosed, ErrBusy,
// ErrRunning, ErrNilCallback, ErrNegativeDuration, ...) and leaves the loop and the handle as
// they were. System call failures wrap the errno, so errors.Is(err, syscall.EBADF) works.
//
// A panic in a callback does not escape Run: Run recovers it and returns a *PanicError with
// the value and the stack, much as an uncaught exception ends Node's event loop. The loop
// stays consistent: the callback that panicked counts as having run (a repeating timer has
// already been re-armed, a request whose callback it was no longer counts), and everything
// else stays queued — due timers, immediates, ticks, pending callbacks, posted functions, the
// other callbacks of a batch of completed writes, sends or work, and the canceled requests and
// close callbacks of the handles being closed. A listener whose callback panicked before
// Accept keeps the connection for a later Accept and stops listening until then. Call Run again to go on (as a Node process goes on
// after process.on('uncaughtException')): after the nextTick/microtask drain it first finishes
// what the panic interrupted in Node's queues — the rest of the batch of immediates, or
// (RunDefault) the timeouts that were due — as Node does. Or close the handles, run the
// loop once more for their close callbacks, and Close it.
package uvloop
