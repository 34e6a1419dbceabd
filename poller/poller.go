// Package poller is uvgo's OS readiness layer: it reports which file descriptors are
// readable or writable, and it lets any goroutine wake the goroutine that waits. It knows
// file descriptors, one portable event mask and a wake-up, nothing else.
//
// # Backend contract
//
// Every backend defines these methods on *Poller (the backend interface) and asserts that
// it does with var _ backend = (*Poller)(nil):
//
//	open(b Backend) error                         create the kernel queue of backend b (BackendAuto: the
//	                                              system's default) and the wake-up (Open); a backend the
//	                                              system lacks is an error wrapping errors.ErrUnsupported
//	register(fd int, ev Events, tag uint32) error  start watching fd (Add); p.fds[fd] is not set yet
//	update(fd int, ev Events, tag uint32) error    replace interest and tag (Modify); p.fds[fd] holds the old ones
//	unregister(fd int) error                       stop watching fd (Remove); p.fds[fd] holds the old state
//	wait(msec int) (n int, woke bool, err error)   one kernel wait (-1 blocks, 0 polls): fill p.out[:n],
//	                                               call p.consumeWake if the wake-up fired; EINTR is ErrInterrupted
//	owns(fd int) bool                              fd is one of the poller's own descriptors
//	release() error                                close the kernel queue and the wake-up (Close)
//
// and the wake-up file it is built with defines these (the wakeBackend interface):
//
//	openWake() error       create the wake-up and register it with the kernel queue (from open)
//	wakeup() error         make the wake-up fire; any goroutine, possibly two at once, never
//	                       after release began (Wake and Close guarantee it with wakeMu)
//	drainWake()            consume a fired wake-up so that the next wakeup fires again
//	closeWake() error      release the wake-up (from release)
//	wakeOwns(fd int) bool  fd belongs to the wake-up
//
// The backends are epoll_linux.go and uring_linux.go with wake_eventfd.go (Linux, where
// backend_linux.go picks one of the two at Open and forwards each method to it);
// kqueue_bsd.go with wake_evfiltuser.go (darwin, freebsd) or wake_pipe.go (netbsd, openbsd);
// and poller_other.go, whose New returns ErrUnsupported everywhere else. EPOLL*, POLL* and
// EVFILT_* values never leave their backend: the rest of uvgo sees only [Events].
//
// # Choosing a backend
//
// New opens the system's default backend: epoll on Linux, kqueue on macOS, FreeBSD, NetBSD
// and OpenBSD (none on DragonFly yet). Open takes a [Backend]: BackendIOURing watches
// descriptors with one-shot IORING_OP_POLL_ADD requests on an io_uring (Linux 5.11 or later, where io_uring_setup is allowed), re-armed
// after each report so that readiness stays level-triggered; its Wait is the io_uring_enter
// that also submits the re-arms and the interest changes. It can also read stream sockets
// for its caller (CanRecv, RecvStart: a multishot receive into buffers shared by all
// descriptors), make file system calls for it (CanFile, SubmitFile, FileDone: reads,
// writes, opens, stats and the rest as io_uring submissions), and accept for a listening
// socket (CanAccept, AcceptStart: a multishot accept); Open finds out whether the kernel has
// multishot receives and accepts by arming one of each, and sends for it (CanSend, Send,
// Submit). BackendAuto is epoll, or kqueue, unless the Poller is ThreadBound (see Options):
// then it is io_uring when the kernel has multishot receives and accepts and sends, and
// epoll otherwise. Measured on HTTP hello with the server on one core (bench/README.md),
// a thread-bound ring, whose completions wait for the thread's next io_uring_enter
// (COOP_TASKRUN), costs less CPU per request than epoll; a ring that is not thread-bound
// must let the kernel interrupt the thread for each completion, and costs more than epoll,
// which is why that is not the default: the kernel posts each completion from the thread
// that submitted the request (see Rebind), and a goroutine that changes threads cannot
// promise that it will enter the kernel again soon. Available tells whether a backend opens
// here, and why not.
package poller

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/uvgo/uvgo/internal/queue"
)

// Events is a portable readiness bit set. Readable and Writable are interest and readiness;
// Hangup and Error are readiness only (see the package documentation for their meaning on each
// system).
type Events uint32

const (
	// Readable: a read will not block (data, EOF or an error is waiting).
	Readable Events = 1 << iota
	// Writable: a write will not block.
	Writable
	// Hangup: the peer hung up or shut down its writing side (EPOLLHUP, EPOLLRDHUP; EV_EOF).
	Hangup
	// Error: an error condition is pending (EPOLLERR; EV_ERROR, or EV_EOF with an error in fflags).
	Error
)

var eventNames = [...]string{"Readable", "Writable", "Hangup", "Error"}

// String returns the set bits joined by "|", such as "Readable|Hangup", with unknown bits as
// one hexadecimal number; it returns "0" for the empty set.
func (e Events) String() string {
	if e == 0 {
		return "0"
	}
	var b []byte
	for i, name := range eventNames {
		if e&(1<<i) != 0 {
			if len(b) > 0 {
				b = append(b, '|')
			}
			b = append(b, name...)
		}
	}
	if rest := e &^ (1<<len(eventNames) - 1); rest != 0 {
		if len(b) > 0 {
			b = append(b, '|')
		}
		b = append(b, "0x"...)
		b = strconv.AppendUint(b, uint64(rest), 16)
	}
	return string(b)
}

// Event is one readiness report: the descriptor, the tag of its registration and what it is
// ready for. Wait returns them in a slice that is valid only until the next Wait.
//
// An Event for which Received is true is not readiness but bytes that a RecvStart read for
// Fd (io_uring only): its Events is 0, its Tag is RecvStart's, and RecvData gives the bytes.
// One for which Accepted is true is a connection that AcceptStart accepted on Fd; AcceptedFd
// gives it.
type Event struct {
	Fd     int32
	Tag    uint32 // the tag given to Add or Modify (or RecvStart), returned verbatim
	Events Events
	res    int32  // received: the bytes read, 0 at the end of the stream, or -errno; accepted: the fd or -errno; readiness: 0 or -errno (Err)
	bid    uint16 // received with bytes: the provided buffer that holds them
	recv   bool   // a received event
	sent   bool   // a send's completion (send.go)
	acc    bool   // an accepted event (accept.go)
}

// Err returns the error the kernel gave instead of readiness, wrapping the errno (an
// *os.SyscallError): on the io_uring backend a poll request can fail, such as with EBADF for
// an O_PATH descriptor, and Events is then Error with the fd's interest. It returns nil for
// every other event, and always on epoll and kqueue, whose Add refuses such a descriptor.
func (e *Event) Err() error {
	if e.res >= 0 || e.recv || e.sent || e.acc {
		return nil
	}
	return os.NewSyscallError("io_uring poll_add", syscall.Errno(-e.res))
}

// Received reports whether e carries bytes read by RecvStart rather than readiness.
func (e *Event) Received() bool { return e.recv }

// RecvData returns what a received event carries: the bytes read (valid only until the next
// Wait), none and io.EOF-like n == 0 at the end of the stream (data nil, err nil), or the
// read's error as a syscall.Errno. It returns nil, nil for other events.
func (p *Poller) RecvData(e *Event) (data []byte, err error) {
	if !e.recv {
		return nil, nil
	}
	if e.res < 0 {
		return nil, syscall.Errno(-e.res)
	}
	if e.res == 0 {
		return nil, nil
	}
	return p.recvBuf(e.bid, int(e.res)), nil
}

// CanRecv reports whether RecvStart works: the io_uring backend, on a kernel with provided
// buffer rings and multishot receives (Linux 6.0; Open arms one to find out). Then a stream can have the kernel read
// for it into buffers all streams share, instead of asking for Readable and reading itself.
func (p *Poller) CanRecv() bool { return !p.closed() && p.canRecv() }

// RecvLimit is how many bytes a receive reads at most, where the kernel ends a multishot
// receive after a number of bytes (newer kernels; Open arms one to find out), and Wait arms
// the next while the stream reads; 0 where it cannot (no RecvStart, or the limit is
// refused). It bounds what one wait reads for a stream, and so what may still be reported
// after RecvStop: without a limit a receive reads into the shared buffers up to all of them
// (4 MiB). The kernel checks the limit after each read, so the bound is the limit (256 KiB)
// and one buffer (16 KiB): 272 KiB, and 64 KiB for every stream while the shared buffers
// run short (see recvLimit).
func (p *Poller) RecvLimit() int {
	if p.closed() {
		return 0
	}
	return p.recvLimit()
}

// RecvStart makes the kernel read fd (a connected stream socket) as bytes arrive, into
// buffers of a pool the poller shares among descriptors: each read is reported by Wait as a
// received Event with tag, in order, until the end of the stream, an error or RecvStop.
// Do not also Add fd with Readable interest. Loop goroutine only.
func (p *Poller) RecvStart(fd int, tag uint32) error {
	if p.closed() {
		return ErrClosed
	}
	if fd < 0 {
		return errBadFd
	}
	return p.recvStart(fd, tag)
}

// RecvStop stops the reads of fd: its cancellation reaches the kernel at once, so bytes that
// arrive after it stay in the socket. Bytes the kernel has read already are still reported
// (the caller keeps them for its next RecvStart): a stopped stream loses nothing. Loop
// goroutine only.
func (p *Poller) RecvStop(fd int) error {
	if p.closed() {
		return ErrClosed
	}
	return p.recvStop(fd)
}

// Rebind tells the poller that the goroutine that waits on it may run on another OS thread
// than at the last Rebind (a loop calls it when Run begins). The io_uring backend then arms
// its poll requests again from this thread, so that a zero-timeout Wait reports what became
// ready before it, as epoll does (the kernel posts a completion from the thread that
// submitted the request). Its multishot receives and accepts move too, without losing or
// reordering anything: each is cancelled, and armed again from this thread once its last
// completion is reaped (the old request may be reading or accepting on the old thread at
// that moment, so a new one cannot run beside it); meanwhile bytes and connections wait in
// the socket. That last completion comes from the old thread, so the first zero-timeout Wait
// after a move waits for it in the kernel, 10 ms at most, and reports what was in the
// sockets before it as epoll does; only when the old thread takes longer (a busy machine)
// are they reported a Wait or two late. Other backends do nothing. Loop goroutine only.
func (p *Poller) Rebind() error {
	if p.closed() {
		return ErrClosed
	}
	return p.rebind()
}

// Unbind tells the poller that the goroutine that waits on it is about to leave the thread of
// the last Rebind, or to let other threads use the poller, until the next Rebind (a loop
// WithLockOSThread calls it when Run returns). The io_uring backend then counts what is
// submitted meanwhile, from whatever thread, and the next Rebind moves those requests to its
// own thread even when it is the thread of the last Rebind. Other backends do nothing. Loop
// goroutine only.
func (p *Poller) Unbind() {
	if !p.closed() {
		p.unbind()
	}
}

// RecvForget stops the reads of fd and drops what they would still report; call it before
// closing fd. The cancellation reaches the kernel at once, so that the kernel lets go of the
// socket when fd is closed. Loop goroutine only.
func (p *Poller) RecvForget(fd int) error {
	_, err := p.RecvForgetUnread(fd)
	return err
}

// RecvForgetUnread is RecvForget that also reports whether the kernel had read bytes for fd
// that were not reported yet (they are dropped). On readiness such bytes would still be in
// the socket, and closing it would reset the connection: a caller that closes fd can do the
// same (SO_LINGER 0). Loop goroutine only.
func (p *Poller) RecvForgetUnread(fd int) (unread bool, err error) {
	if p.closed() {
		return false, ErrClosed
	}
	return p.recvForget(fd)
}

var (
	// ErrClosed is returned by every method of a closed Poller (and of a zero Poller),
	// including a second Close.
	ErrClosed = errors.New("poller: closed")
	// ErrInterrupted is returned by Wait, at once, when a signal interrupted the kernel wait;
	// the caller recomputes its timeout and waits again. errors.Is(ErrInterrupted,
	// syscall.EINTR) is true. It is one preallocated value.
	ErrInterrupted = fmt.Errorf("poller: wait interrupted: %w", syscall.EINTR)
	// ErrUnsupported is returned by New on systems with neither epoll nor kqueue; Open
	// returns an error wrapping errors.ErrUnsupported for a backend the system lacks.
	// errors.Is(ErrUnsupported, errors.ErrUnsupported) is true.
	ErrUnsupported = fmt.Errorf("poller: no epoll or kqueue on %s: %w", runtime.GOOS, errors.ErrUnsupported)
)

// backend is the contract every OS backend satisfies; see the package documentation.
type backend interface {
	open(b Backend) error
	register(fd int, ev Events, tag uint32) error
	update(fd int, ev Events, tag uint32) error
	unregister(fd int) error
	wait(msec int) (n int, woke bool, err error)
	owns(fd int) bool
	release() error
}

// wakeBackend is the contract of a wake-up mechanism; see the package documentation.
type wakeBackend interface {
	openWake() error
	wakeup() error
	drainWake()
	closeWake() error
	wakeOwns(fd int) bool
}

const (
	// maxEvents is the capacity of the event arrays: one Wait reports at most this many
	// descriptors (the rest are reported by the next one, readiness being level-triggered).
	maxEvents = 1024
	// maxWaitMsec bounds one kernel wait; a longer timeout waits again for the rest.
	maxWaitMsec = 1<<31 - 1
)

// The states of Poller.wake.
const (
	wakeOpen    = 1 << iota // New succeeded and Close has not begun
	wakePending             // Wake fired the wake-up and no Wait has consumed it yet
)

// Backend names a kernel readiness mechanism (see Open).
type Backend uint8

const (
	// BackendAuto is the system's default: epoll on Linux, kqueue on macOS, FreeBSD, NetBSD
	// and OpenBSD (none on DragonFly yet).
	BackendAuto Backend = iota
	// BackendEpoll is Linux's epoll.
	BackendEpoll
	// BackendKqueue is kqueue, on macOS, FreeBSD, NetBSD and OpenBSD (not DragonFly yet).
	BackendKqueue
	// BackendIOURing is Linux's io_uring (5.11 or later), with one-shot poll requests.
	BackendIOURing
)

var backendNames = [...]string{"auto", "epoll", "kqueue", "io_uring"}

// String returns the backend's name: "auto", "epoll", "kqueue" or "io_uring", the names that
// ParseBackend takes.
func (b Backend) String() string {
	if int(b) < len(backendNames) {
		return backendNames[b]
	}
	return "Backend(" + strconv.Itoa(int(b)) + ")"
}

// ParseBackend returns the Backend named s ("auto", "epoll", "kqueue" or "io_uring"; "" is
// "auto"), or an error naming the valid ones.
func ParseBackend(s string) (Backend, error) {
	if s == "" {
		return BackendAuto, nil
	}
	for i, name := range backendNames {
		if s == name {
			return Backend(i), nil
		}
	}
	return 0, fmt.Errorf("poller: unknown backend %q (want auto, epoll, kqueue or io_uring)", s)
}

// errBackend is Open's error for a backend the system lacks; cause (may be nil) says why.
func errBackend(b Backend, cause error) error {
	if cause == nil {
		return fmt.Errorf("poller: no %s on %s: %w", b, runtime.GOOS, errors.ErrUnsupported)
	}
	return fmt.Errorf("poller: no %s here (%w): %w", b, errors.ErrUnsupported, cause)
}

// fdTable holds the fds' states; it grows in chunks, never copied (queue.Table), so that the
// arrays a doubling slice leaves behind do not count in the memory of idle connections.
type fdTable = queue.Table[fdState]

// fdState is what the poller knows of one registered descriptor.
type fdState struct {
	added    bool   // between Add and Remove
	interest Events // Readable|Writable subset, 0 allowed
	tag      uint32
}

// Poller watches file descriptors for readiness, with a level-triggered epoll (Linux) or
// kqueue (BSD, macOS), and owns a wake-up that other goroutines fire with Wake.
//
// Concurrency: a Poller belongs to the goroutine that waits on it (the loop goroutine). Every
// method except Wake must be called by that goroutine only; Wake is safe from any goroutine,
// also concurrently with Close. Use New; a zero Poller acts as a closed one.
type Poller struct {
	wake   atomic.Uint32    // wakeOpen|wakePending; atomic, any goroutine
	wakeMu sync.RWMutex     // read-held by Wake while it fires the wake-up, write-held by Close while it releases it
	fds    fdTable          // indexed by fd; loop goroutine only
	out    [maxEvents]Event // what Wait returns; loop goroutine only, valid until the next Wait
	q      queueState       // the backend's kernel queue; loop goroutine only (see wakeup for its reads)
	w      wakeState        // the wake-up mechanism's descriptors
	kind   Backend          // the backend Open opened; read-only after Open
	opts   Options          // as OpenWith was given them; read-only
}

// New creates a Poller with the system's default backend: a kernel queue (epoll or kqueue)
// with its wake-up registered. It returns ErrUnsupported on systems with neither. Release it
// with Close.
func New() (*Poller, error) { return Open(BackendAuto) }

// Open creates a Poller with backend b (BackendAuto: as New). A backend the system lacks,
// or one the kernel refuses (io_uring under io_uring_disabled or a seccomp filter), fails
// with an error wrapping errors.ErrUnsupported and, when there is one, the system call's
// error. Release the Poller with Close.
func Open(b Backend) (*Poller, error) { return OpenWith(b, Options{}) }

// Options are what OpenWith is told besides the backend.
type Options struct {
	// ThreadBound promises that from its first Rebind on, the Poller is used from one OS
	// thread: the goroutine that waits on it locked its thread (runtime.LockOSThread) before
	// that Rebind and keeps it locked, or calls Rebind again when it changes threads (as a
	// loop's Run does). The io_uring backend then lets the kernel keep a completion's work
	// for that thread until it next enters the kernel (IORING_SETUP_COOP_TASKRUN), instead of
	// interrupting it while it runs: a receive then runs in the io_uring_enter that submits
	// or waits, not in an interrupt that finds the socket still locked by the sender. A
	// thread that sleeps is woken as before. Measured on HTTP hello with one core, it cuts
	// the server's CPU per request by about a third (bench/README.md). Without the promise,
	// a completion armed from a thread the goroutine has left could wait for that thread's
	// next system call or timer tick. A request that another thread submits while bound
	// (the promise bodies of a locked loop run on goroutines of their own, and closing a
	// stream submits at once) is moved back, with everything else, by the loop's next Wait.
	// Other backends ignore it.
	ThreadBound bool

	// Thread, when not nil, pins the Poller to one OS thread for its whole life, and implies
	// ThreadBound: OpenWith must be called on it (from Thread.Do), and the goroutine that
	// waits on the Poller runs there whenever it waits. The io_uring backend then sets the
	// ring up for that one thread (IORING_SETUP_SINGLE_ISSUER and DEFER_TASKRUN, Linux 6.1:
	// the completions' work runs only when the thread waits, with no interrupt at all), which
	// measured 2-3% less CPU per request than ThreadBound alone (bench/README.md,
	// "DEFER_TASKRUN"); Rebind and Unbind do nothing, since nothing ever moves. Such a ring
	// refuses a system call from any other thread, so a call that must enter the kernel (a
	// Remove, a RecvForget, a full submission ring, Close) from another goroutine is handed
	// to the thread with Thread.Do. Other backends ignore it.
	Thread Thread
}

// Thread is the OS thread of a pinned Poller (Options.Thread): a goroutine locked to it that
// runs what it is handed.
type Thread interface {
	// On reports whether the caller is the thread's goroutine (or runs on its behalf while
	// it waits in Do, as a coroutine switched to from it does).
	On() bool
	// Do runs f on the thread, and returns when f has. Called by the thread itself, it runs
	// f at once.
	Do(f func())
}

// OpenWith is Open with options.
func OpenWith(b Backend, o Options) (*Poller, error) {
	if o.Thread != nil {
		o.ThreadBound = true
	}
	p := &Poller{opts: o}
	if err := p.open(b); err != nil {
		return nil, err
	}
	p.wake.Store(wakeOpen)
	return p, nil
}

// Available reports whether Open(b) succeeds here: nil, or Open's error. It opens and closes
// a Poller to find out.
func Available(b Backend) error {
	p, err := Open(b)
	if err != nil {
		return err
	}
	return p.Close()
}

// Backend returns the backend that runs: BackendEpoll, BackendKqueue or BackendIOURing,
// never BackendAuto. Safe from any goroutine.
func (p *Poller) Backend() Backend { return p.kind }

func (p *Poller) closed() bool { return p.wake.Load()&wakeOpen == 0 }

// Add registers fd with the interest set ev (Readable and/or Writable; 0 registers it with
// no interest) and a tag that every Event for fd carries until Modify changes it. Hangup and
// Error need not be asked for: they are reported whenever the interest set is not empty, and
// such bits in ev are ignored. Adding an fd twice fails with an error wrapping EEXIST; an fd
// that is not open fails with one wrapping EBADF. Loop goroutine only.
func (p *Poller) Add(fd int, ev Events, tag uint32) error {
	switch {
	case p.closed():
		return ErrClosed
	case fd < 0:
		return errBadFd
	case p.owns(fd):
		return errOwnFd
	case p.fds.Load(fd).added:
		return errAdded
	}
	ev &= Readable | Writable
	if err := p.register(fd, ev, tag); err != nil {
		return err
	}
	*p.fds.At(fd) = fdState{added: true, interest: ev, tag: tag}
	return nil
}

// Modify replaces the interest set and the tag of a registered fd. ev == 0 is allowed: fd stays
// registered and nothing is reported for it (not even Hangup or Error) until Modify gives it
// interest again. A call that changes nothing makes no system call. An fd that was not added
// fails with an error wrapping ENOENT. Loop goroutine only.
func (p *Poller) Modify(fd int, ev Events, tag uint32) error {
	if p.closed() {
		return ErrClosed
	}
	st := p.fds.Get(fd)
	if st == nil || !st.added {
		return errNotAdded
	}
	ev &= Readable | Writable
	if st.interest == ev && st.tag == tag {
		return nil
	}
	if err := p.update(fd, ev, tag); err != nil {
		return err
	}
	st.interest, st.tag = ev, tag
	return nil
}

// Remove drops fd; call it before closing fd. The kernel has let go of fd's file when Remove
// returns, so that closing fd next releases it (the io_uring backend submits the removal at
// once; a request that another thread armed is waited for, 10 ms at most, unless the Poller
// is ThreadBound: see uring_linux.go). Events for fd that an earlier Wait returned are not
// recalled: the loop drops them by their tag. An fd that was not added fails with an error
// wrapping ENOENT. fd is forgotten even when the kernel reports an error (for instance EBADF
// because fd was closed first). Loop goroutine only.
func (p *Poller) Remove(fd int) error {
	if p.closed() {
		return ErrClosed
	}
	st := p.fds.Get(fd)
	if st == nil || !st.added {
		return errNotAdded
	}
	err := p.unregister(fd)
	*st = fdState{}
	return err
}

// Wait waits until a registered fd is ready, Wake is called, a file request completes
// (FileDone), the timeout elapses or a signal arrives. timeout < 0 blocks; 0 polls without
// blocking; > 0 waits at least timeout, its sub-millisecond part rounded up to a whole
// millisecond, measured on the monotonic clock: if the kernel comes back early with nothing
// to report, Wait waits again for the rest. It returns at once while FileDone has a request.
//
// woke reports that Wake was called since the last Wait that reported woke; the wake-up has
// then been drained and re-armed, so a Wake after Wait returned produces a new wake-up. The
// wake-up itself never appears in events. When the kernel wait is interrupted by a signal, Wait
// returns (nil, false, ErrInterrupted) at once, so that the caller recomputes its timeout.
//
// The returned slice aliases an array inside the Poller: it is valid only until the next Wait
// (or Close), and Wait allocates nothing. At most 1024 descriptors are reported at once; the
// others stay ready for the next Wait. Loop goroutine only.
func (p *Poller) Wait(timeout time.Duration) (events []Event, woke bool, err error) {
	if p.closed() {
		return nil, false, ErrClosed
	}
	if timeout <= 0 {
		msec := 0
		if timeout < 0 {
			msec = -1
		}
		for {
			n, woke, err := p.wait(msec)
			if err != nil {
				return nil, false, err
			}
			// A blocking wait that comes back empty (a spurious wake-up) waits again.
			if n > 0 || woke || timeout == 0 || p.filesDone() {
				return p.out[:n], woke, nil
			}
		}
	}
	timeout = RoundUpMsec(timeout)
	deadline := time.Now().Add(timeout)
	for {
		n, woke, err := p.wait(msecOf(timeout))
		if err != nil {
			return nil, false, err
		}
		if n > 0 || woke || p.filesDone() {
			return p.out[:n], woke, nil
		}
		if timeout = time.Until(deadline); timeout <= 0 {
			return p.out[:0], false, nil
		}
		timeout = RoundUpMsec(timeout)
	}
}

// RoundUpMsec rounds d > 0 up to a whole number of milliseconds, as Wait rounds its timeout;
// a caller that waits elsewhere for the same timeout (the loop, on a channel) waits as long.
func RoundUpMsec(d time.Duration) time.Duration {
	if r := d % time.Millisecond; r != 0 {
		if d > 1<<63-1-time.Millisecond {
			return d - r
		}
		d += time.Millisecond - r
	}
	return d
}

// msecOf converts a whole-millisecond d > 0 to the argument of one kernel wait.
func msecOf(d time.Duration) int {
	return int(min(d/time.Millisecond, maxWaitMsec))
}

// Wake makes the current Wait, or the next one if none is in progress, return with woke=true.
// It is safe from any goroutine, also concurrently with Close, after which it returns ErrClosed
// (it never writes to a closed or reused descriptor). Calls coalesce: while a wake-up is
// pending, Wake makes no system call and costs one failed compare-and-swap and one load.
// Wake allocates nothing.
func (p *Poller) Wake() error {
	if !p.wake.CompareAndSwap(wakeOpen, wakeOpen|wakePending) {
		if p.closed() {
			return ErrClosed
		}
		return nil // a wake-up is pending already
	}
	p.wakeMu.RLock()
	err := ErrClosed
	if !p.closed() {
		if err = p.wakeup(); err != nil {
			p.wake.And(^uint32(wakePending)) // let a later Wake try again
		}
	}
	p.wakeMu.RUnlock()
	return err
}

// consumeWake is called by a backend's wait when the wake-up fired: it drains the wake-up,
// then clears the pending state, so that the next Wake fires it again.
func (p *Poller) consumeWake() {
	p.drainWake()
	p.wake.And(^uint32(wakePending))
}

// Close releases the kernel queue and the wake-up's descriptors. It does not close the
// registered descriptors. A second Close returns ErrClosed, as do all other methods
// afterwards. Loop goroutine only; a concurrent Wake is safe and returns ErrClosed.
func (p *Poller) Close() error {
	for {
		s := p.wake.Load()
		if s&wakeOpen == 0 {
			return ErrClosed
		}
		if p.wake.CompareAndSwap(s, s&^wakeOpen) {
			break
		}
	}
	// Wait for a Wake that is firing the wake-up; later ones see the poller closed.
	p.wakeMu.Lock()
	err := p.release()
	p.wakeMu.Unlock()
	p.fds.Reset()
	return err
}
