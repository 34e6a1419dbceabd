package uvloop

import (
	"fmt"
	"os"

	"github.com/uvgo/uvgo/poller"
)

// Backend names the kernel mechanism a loop waits for I/O with (see WithBackend).
type Backend = poller.Backend

// The backends.
const (
	// BackendAuto: UVGO_BACKEND if it is set, else the system's default (epoll on Linux;
	// kqueue on macOS, FreeBSD, NetBSD and OpenBSD; none on DragonFly yet).
	BackendAuto = poller.BackendAuto
	// BackendEpoll is Linux's epoll.
	BackendEpoll = poller.BackendEpoll
	// BackendKqueue is kqueue, on macOS, FreeBSD, NetBSD and OpenBSD (not DragonFly yet).
	BackendKqueue = poller.BackendKqueue
	// BackendIOURing is Linux's io_uring (5.11 or later, where io_uring_setup is allowed).
	BackendIOURing = poller.BackendIOURing
)

// BackendEnv is the environment variable that chooses the backend of the loops created
// without WithBackend (or with WithBackend(BackendAuto)): "auto", "epoll", "kqueue" or
// "io_uring". An empty or unset variable is "auto".
const BackendEnv = "UVGO_BACKEND"

// WithBackend chooses the kernel mechanism the loop waits with. The default, BackendAuto,
// defers to the UVGO_BACKEND environment variable, so that an operator can choose for a
// program that does not; any other value wins over the variable.
//
// BackendAuto (and an unset variable) means epoll on Linux and kqueue on macOS, FreeBSD,
// NetBSD and OpenBSD (none on DragonFly yet), except for a loop WithLockOSThread (or
// WithOwnThread) on Linux:
// New then probes io_uring, and takes it when it opens with multishot receives and accepts
// and sends (Linux 6.0 or later, where io_uring_setup is allowed), and epoll when not. Only a
// locked loop gets it by default. Measured with the server on one core (bench/README.md), a
// locked loop's ring, whose completions wait for the loop's next io_uring_enter, costs less
// CPU per HTTP request than epoll; an unlocked loop's, for which the kernel must interrupt the
// thread at each completion, costs more.
//
// With io_uring, TCP streams read through the ring (a multishot receive into buffers the
// loop's streams share) and write through it (a send per Write: see TCP.RingWrites); TCP
// listeners accept through it (a multishot accept: no accept4 per connection); the loop's
// wait is the io_uring_enter that submits; pipes (their reads, writes and accepts), UDP and
// Poll handles go by readiness, through poll requests on the ring (and so does what the
// kernel lacks: multishot receives before Linux 6.0, accepts before 5.19); the file requests
// that are faster there run as submissions to the ring instead of on the work pool (see
// FSReq). It makes a tenth of
// epoll's system calls per HTTP request, but the kernel posts each completion from the thread
// that submitted the request, so a loop whose goroutine changes threads pays thread wake-ups
// and interrupts: use it with WithLockOSThread.
//
// One known difference, with a tiny socket send buffer (SO_SNDBUF of 4 KiB) and a peer that
// reads nothing: closing a stream whose send waits for room can stand the loop still for up
// to 2 s while the kernel is asked to cancel the send, and the kernel may keep it (its bytes
// and the socket) until the peer reads. With the kernel's own buffer sizes it was not seen.
//
// New fails with an error wrapping errors.ErrUnsupported when the backend asked for is
// missing or refused (io_uring under io_uring_disabled or a seccomp filter); it does not fall
// back to another one silently. Loop.Backend and Metrics say which backend runs.
func WithBackend(b Backend) Option {
	return func(o *options) { o.backend = b }
}

// openPoller opens the poller of the backend o asks for (see WithBackend), pinned to thread
// if it is not nil (WithOwnThread; then call it there).
func openPoller(o *options, thread *ownThread) (*poller.Poller, error) {
	b := o.backend
	if b == BackendAuto {
		env := os.Getenv(BackendEnv)
		var err error
		if b, err = poller.ParseBackend(env); err != nil {
			return nil, fmt.Errorf("uvloop: %s=%q: %w", BackendEnv, env, err)
		}
	}
	po := poller.Options{ThreadBound: o.lockThread}
	if thread != nil {
		po.Thread = thread
	}
	return poller.OpenWith(b, po)
}

// Backend returns the backend the loop waits with: BackendEpoll, BackendKqueue or
// BackendIOURing. Safe from any goroutine.
func (l *Loop) Backend() Backend { return l.poller.Backend() }
