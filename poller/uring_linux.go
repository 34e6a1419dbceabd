package poller

import (
	"errors"
	"fmt"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/uvgo/uvgo/internal/queue"
	"github.com/uvgo/uvgo/internal/uring"
)

// The io_uring backend watches each fd with one one-shot IORING_OP_POLL_ADD request at a time.
// A request that completes is reported by that Wait and armed again by the next one (its
// submission is part of the next io_uring_enter), so a descriptor that stays ready completes
// its new request at once, inside the submission: readiness stays level-triggered, as with
// epoll. (A multishot poll would report each readiness change once, like EPOLLET.) An
// interest change removes the armed request (IORING_OP_POLL_REMOVE) and arms a new one.
//
// A request's user data is (fd+1)<<32 | generation, never a pointer; a completion whose
// generation is not the one armed for fd (a removed request, completing with ECANCELED, or
// the request of a descriptor removed and added again) is dropped. User data with a zero high
// word is the backend's own: udIgnore for the completions of POLL_REMOVE, udWake for the
// wake-up's eventfd.
//
// Changes only fill SQEs; the kernel sees them at the next io_uring_enter, the one that waits
// (or earlier, when the submission ring fills up). So Add cannot learn from the kernel that fd
// is unfit: it asks fstat instead, and refuses a regular file or a directory with EPERM, as
// epoll_ctl does; an fd that is neither a socket nor a FIFO (a device, an eventfd, ...) is
// added to a private epoll and removed again (pollable), and refused with epoll_ctl's error:
// EPERM for a device without poll support, such as /dev/null, whose poll request would
// report it readable forever. A request that fails all the same (EBADF for an O_PATH FIFO)
// reports Error with its errno (Event.Err). Remove is the exception to the rule: it submits
// the removal at once, since the armed request holds a reference to the file, and the
// caller is about to close fd (a socket would stay open, its port bound and its peer without
// an end of stream, until the next io_uring_enter).
//
// The ring is set up with IORING_SETUP_SINGLE_ISSUER and DEFER_TASKRUN only when it is pinned
// to a thread (Options.Thread: a loop WithOwnThread): they bind the ring to the OS thread that
// created it, and another loop's goroutine changes threads (WithLockOSThread locks it only
// while Run runs, and New may run on another). They measured 2-3% less CPU per request
// (bench/README.md). A pinned ring hands the system calls of other goroutines to its thread
// (enter), and never moves: Rebind and Unbind do nothing. COOP_TASKRUN is
// asked for only when the Poller is ThreadBound (see Options): it lets a completion's work
// wait until the thread that submitted the request next enters the kernel, which after the
// goroutine moved to another thread could be that thread's next system call or timer tick;
// without it the kernel interrupts that thread at once to post the completion. The interrupt
// is what makes it costly on a busy loop: a multishot receive woken by the sender's CPU runs
// its recv in the interrupt while the sender still holds the socket's lock, and spins on it
// (perf: a fifth of the loop thread's time, HTTP hello on one core). Rebind moves to its
// thread the requests of another thread: the polls, the multishot receives and accepts, the
// wake-up's poll, and whatever was submitted while unbound (see Unbind); a wait does the
// same after another thread submitted while bound (offSubmit).
//
// Streams can have the kernel read for them (RecvStart, when the kernel has provided buffer
// rings and multishot receives): one multishot IORING_OP_RECV per descriptor, with buffers
// selected from one ring of recvBufs buffers shared by every descriptor, so an idle
// connection holds no read buffer. A receive's user data has the top bit set besides the
// poll's layout. The buffers a Wait reports are given back to the kernel by the next Wait.
// A receive that ends (ENOBUFS when every buffer is out, a full completion ring) is armed
// again by the next Wait while the stream reads. Close cancels the receives in flight and
// waits for their last completions before it unmaps the buffers, since the kernel writes into
// them.
//
// The kernel always polls for POLLRDHUP. An fd waiting only to become Writable on a socket
// whose peer shut down its writing side completes its one-shot request at once, with nothing
// to report (epoll would not wake); armed again, it would complete again at once, and the
// Wait would spin until the socket is writable. So such an fd is armed with a multishot poll
// instead (IORING_POLL_ADD_MULTI, Linux 5.13: quietPoll), which completes on the socket's
// wake-ups only; its first report that is not only that hangup cancels it, and the fd goes
// back to one-shot requests (level-triggered). On a kernel without multishot polls the Wait
// spins as before.

const (
	// ringEntries is the size of the submission ring; the completion ring is twice as large
	// and the kernel keeps what overflows it (IORING_FEAT_NODROP).
	ringEntries = 1024

	udIgnore = 0 // completions of POLL_REMOVE and ASYNC_CANCEL
	udRecv   = 1 << 63

	recvGroup   = 1        // the provided buffers' group id
	recvBufs    = 256      // provided buffers
	recvBufSize = 16 << 10 // bytes per provided buffer
	udWake      = 1        // the wake-up's poll request: udWake | generation<<1 (wakeUD), an odd low word
)

// recvLimit is how many bytes a multishot receive reads before it ends, where the kernel
// takes a limit (ringState.recvLim): while its stream reads, the next wait arms another. It
// bounds what one wait reads for a stream (under a flood, without it, up to all the shared
// buffers, 4 MiB), and so what a stream that stops reading may still be handed: what the
// kernel read before RecvStop, whose cancellation reaches the kernel at once. While the
// shared buffers run short (the last wait found one out, or took a quarter of them), a
// receive is armed with recvLimitScarce instead (with the last buffer's 16 KiB, 64 KiB: a
// read on readiness): a few streams that flood then leave buffers to the others (with 256 KiB
// each, 32 of them took every buffer, and a stream re-armed among them found none, wait after
// wait). A smaller limit for every stream was tried, and a ramp from 64 KiB up: the receives
// that end at their limit cost one stream's bulk read up to 2.2 times its time
// (bench/README.md, "Receive limits").
const (
	recvLimit       = 256 << 10
	recvLimitScarce = 48 << 10
)

// ringOps are the opcodes the backend needs; Open refuses a kernel without one of them.
var ringOps = [...]uint8{uring.OpPollAdd, uring.OpPollRemove}

// ringState is the io_uring backend's state; loop goroutine only.
type ringState struct {
	r         *uring.Ring
	polls     pollTable      // indexed by fd: the armed request
	seq       uint32         // the generation of the request armed last
	rearm     []int32        // fds whose request completed since the last wait; armed again before the next
	wakeFd    int            // the wake-up's eventfd (p.w.fd)
	wakeArmed bool           // its poll request is in the kernel
	wakeGen   uint32         // the generation of the wake-up's request armed last (Rebind moves it)
	bufs      *uring.BufRing // the receives' buffers; nil when the kernel cannot (CanRecv is false)
	recvs     recvTable      // indexed by fd: the receive
	rearmRecv []int32        // fds whose receive ended while they read; armed again before the next wait
	used      []uint16       // buffers reported by the last wait, or dropped: recycled by the next
	inflight  int            // receives in the kernel (their last completion not reaped)
	moving    int            // receives and accepts that a move cancelled, their last completion not reaped (uring_move_linux.go)
	movesLate int            // looks whose wait for the moved requests ran out (forgetMoves; tests)
	recvLim   bool           // the kernel ends a multishot receive at recvLimit bytes (probeMultishot)
	scarce    bool           // the shared buffers ran short at the last wait: receives are armed with recvLimitScarce
	starved   bool           // a receive found no buffer (ENOBUFS) since the last wait
	tid       int            // the thread that armed the polls (Rebind)
	thread    Thread         // the thread the ring is pinned to (Options.Thread); nil if none
	unbound   bool           // since Open or Unbind, and until the next Rebind
	bound     bool           // the Poller is ThreadBound (COOP_TASKRUN)
	stray     bool           // bound: another thread than tid submitted (offSubmit); the next wait moves everything
	unboundAt uint64         // r.Submits() at Unbind: a submission since came from a thread of no Rebind
	files     fileState      // the file system calls in flight (uring_file_linux.go)
	acc       ringAccepts    // the listeners' multishot accepts (uring_accept_linux.go)
	stat      unix.Stat_t    // register's fstat buffer
	probeFd   int            // pollable's private epoll; -1 until its first use
	buf       [8]byte        // tryConsumeWake's read buffer
	ts        uring.Timespec
	snd       sendRing // the sends (uring_send_linux.go)
}

// pollTable holds the fds' poll requests; it grows in chunks, never copied (queue.Table).
type pollTable = queue.Table[pollState]

// pollState is the poll request the kernel holds for one fd: 12 bytes.
type pollState struct {
	seq   uint32 // its generation, in the low word of its user data
	mask  uint32 // the POLL* bits it waits for
	armed bool   // a request is armed (or queued to be)
	multi bool   // the armed request is multishot (quietPoll)
	quiet bool   // the last one-shot completed with a hangup only it did not ask for: arm a multishot
	live  uint8  // fd's requests, armed or removed, whose last completion no wait handled (saturates)
}

// recvTable holds the fds' receives; it grows in chunks, never copied (queue.Table).
type recvTable = queue.Table[recvState]

// recvState is the multishot receive of one fd.
type recvState struct {
	want      bool   // the stream reads (between RecvStart and RecvStop)
	armed     bool   // a receive is in the kernel, its last completion not reaped
	canceling bool   // its cancellation is queued
	moving    bool   // a move cancelled it (counted in ringState.moving)
	seq       uint32 // its generation
	tag       uint32 // RecvStart's tag
}

var (
	errRingFull = os.NewSyscallError("io_uring_enter", unix.EBUSY)
	errRingFile = os.NewSyscallError("io_uring poll_add", unix.EPERM)
)

func pollUD(fd int, seq uint32) uint64 { return uint64(fd+1)<<32 | uint64(seq) }

// pollMask translates interest to the POLL* bits of a request. POLLRDHUP comes with Readable
// only, as in the epoll backend (the kernel adds it anyway; see above).
func pollMask(ev Events) uint32 {
	var m uint32
	if ev&Readable != 0 {
		m |= unix.POLLIN | unix.POLLRDHUP
	}
	if ev&Writable != 0 {
		m |= unix.POLLOUT
	}
	return m
}

func (p *Poller) ringOpen() error {
	flags := uring.SetupSubmitAll
	if p.opts.ThreadBound {
		flags |= uring.SetupCoopTaskrun // (without TASKRUN_FLAG: every Wait enters the kernel anyway)
	}
	pinned := p.opts.Thread != nil
	r, err := uring.Setup(ringEntries, flags|pinFlags(pinned)) // (a kernel before 6.1 drops them)
	if err != nil {
		return errBackend(BackendIOURing, err)
	}
	probe, err := r.Probe()
	if err == nil {
		for _, op := range ringOps {
			if !probe.Supports(op) {
				err = fmt.Errorf("io_uring opcode %d: %w", op, unix.ENOSYS)
				break
			}
		}
	}
	if err != nil {
		r.Close()
		return errBackend(BackendIOURing, err)
	}
	p.q.ring = &ringState{r: r, wakeFd: -1, probeFd: -1, unbound: true, bound: p.opts.ThreadBound}
	if pinned { // nothing will move: the polls are this thread's from the start (OpenWith runs on it)
		rs := p.q.ring
		rs.thread, rs.tid, rs.unbound = p.opts.Thread, unix.Gettid(), false
	}
	p.q.ring.probeFiles(probe)
	p.q.ring.snd.probeSends(probe)
	p.kind = BackendIOURing
	// The receives' buffers, and accepts (uring_probe_linux.go); then the wake-up.
	err = p.q.ring.probeMultishot(probe)
	if err == nil {
		err = p.openWake()
	}
	p.q.ring.unboundAt = r.Submits() // the probes' requests were reaped
	if err != nil {
		if b := p.q.ring.bufs; b != nil {
			b.Close()
		}
		r.Close()
		p.q.ring = nil
		return err
	}
	return nil
}

// ringAddWake records the wake-up's eventfd; the first wait arms its request.
func (p *Poller) ringAddWake(fd int) error {
	p.q.ring.wakeFd = fd
	return nil
}

// pinFlags are the setup flags of a ring pinned to one thread (Options.Thread): the kernel
// runs the completions' work only when that thread waits for them (DEFER_TASKRUN, which needs
// SINGLE_ISSUER).
func pinFlags(pinned bool) uint32 {
	if !pinned {
		return 0
	}
	return uring.SetupSingleIssuer | uring.SetupDeferTaskrun
}

// enter is rs.r.Enter on the ring's thread. A ring pinned to one (Options.Thread) refuses a
// system call from another (EEXIST), so the call of another goroutine (the loop's owner
// between runs: a Remove, a full ring, Close) is handed to the thread.
func (rs *ringState) enter(minComplete uint32, ts *uring.Timespec) (int, error) {
	if rs.thread == nil || rs.thread.On() {
		return rs.r.Enter(minComplete, ts)
	}
	return rs.enterThere(minComplete, ts)
}

// enterThere is enter's hand-off, apart so that its closure costs the loop's own waits
// nothing.
//
//go:noinline
func (rs *ringState) enterThere(minComplete uint32, ts *uring.Timespec) (n int, err error) {
	rs.thread.Do(func() { n, err = rs.r.Enter(minComplete, ts) })
	return n, err
}

// offSubmit is called before a submission that is not the loop's own wait or phase end (a
// Forget, a full ring): on a ThreadBound ring, when it comes from another thread than the
// loop's (a promise body of a locked loop runs on a goroutine of its own), what it submits
// would have its completion work on that thread, so the next wait moves everything back.
func (rs *ringState) offSubmit() {
	if rs.thread == nil && rs.bound && !rs.unbound && !rs.stray && unix.Gettid() != rs.tid {
		rs.stray = true
	}
}

// sqe returns a free SQE, submitting what is queued when the ring is full.
func (rs *ringState) sqe() (*uring.SQE, error) {
	if s := rs.r.GetSQE(); s != nil {
		return s, nil
	}
	rs.offSubmit()
	if _, err := rs.enter(0, nil); err != nil && err != uring.ErrSQFull {
		return nil, os.NewSyscallError("io_uring_enter", err)
	}
	if s := rs.r.GetSQE(); s != nil {
		return s, nil
	}
	return nil, errRingFull
}

// arm queues a poll request for fd with interest ev, under a new generation.
func (rs *ringState) arm(fd int, ev Events) error {
	sqe, err := rs.sqe()
	if err != nil {
		return err
	}
	rs.seq++
	mask := pollMask(ev)
	sqe.Opcode, sqe.Fd, sqe.OpFlags, sqe.UserData = uring.OpPollAdd, int32(fd), mask, pollUD(fd, rs.seq)
	st := rs.polls.At(fd)
	multi := st.quiet && rs.r.Features()&uring.FeatRsrcTags != 0
	if multi {
		sqe.Len = uring.PollAddMulti
	}
	*st = pollState{armed: true, seq: rs.seq, mask: mask, multi: multi, live: st.live}
	if st.live < 255 {
		st.live++
	}
	return nil
}

// cancel queues the removal of fd's armed request. fd's state says unarmed even when no SQE
// was free: the request's completion, whenever it comes, is then dropped as stale.
func (rs *ringState) cancel(fd int) error {
	st := rs.polls.At(fd)
	st.armed = false
	sqe, err := rs.sqe()
	if err != nil {
		return err
	}
	sqe.Opcode, sqe.Addr, sqe.UserData = uring.OpPollRemove, pollUD(fd, st.seq), udIgnore
	return nil
}

func recvUD(fd int, seq uint32) uint64 { return udRecv | pollUD(fd, seq) }

// recvFd is the fd in a receive's user data.
func recvFd(ud uint64) int { return int(ud>>32&0x7fffffff) - 1 }

// armRecv queues a multishot receive for fd under a new generation.
func (rs *ringState) armRecv(fd int) error {
	rs.seq++
	return rs.armRecvAs(fd, rs.seq)
}

// armRecvAs queues a multishot receive for fd under generation seq.
func (rs *ringState) armRecvAs(fd int, seq uint32) error {
	sqe, err := rs.sqe()
	if err != nil {
		return err
	}
	sqe.Opcode, sqe.Fd, sqe.Flags, sqe.Ioprio, sqe.BufIndex, sqe.UserData =
		uring.OpRecv, int32(fd), uring.SqeBufferSelect, uring.RecvMultishot, rs.bufs.Group(), recvUD(fd, seq)
	if rs.recvLim {
		sqe.SpliceFdIn = recvLimit // the union's optlen: the receive's byte limit
		if rs.scarce {
			sqe.SpliceFdIn = recvLimitScarce
		}
	}
	st := rs.recvs.At(fd)
	st.armed, st.canceling, st.seq = true, false, seq
	rs.inflight++
	return nil
}

// cancelRecv queues the cancellation of fd's receive.
func (rs *ringState) cancelRecv(fd int) error {
	st := rs.recvs.Get(fd)
	if st == nil || !st.armed || st.canceling {
		return nil
	}
	sqe, err := rs.sqe()
	if err != nil {
		return err
	}
	sqe.Opcode, sqe.Addr, sqe.UserData = uring.OpAsyncCancel, recvUD(fd, st.seq), udIgnore
	st.canceling = true
	return nil
}

func (rs *ringState) recvStart(fd int, tag uint32) error {
	st := rs.recvs.At(fd)
	st.want, st.tag = true, tag
	if st.armed {
		return nil // a receive being cancelled ends, and the next wait arms a new one
	}
	return rs.armRecv(fd)
}

// recvStop stops fd's receive, and submits its cancellation at once, as Remove does: a
// stopped stream's bytes then stay in the socket, as on epoll, for whoever reads next (the
// stream when it reads again, a child that inherits the socket, or the reset that closing a
// socket with unread bytes sends). Only what the receive read before it is still reported.
func (rs *ringState) recvStop(fd int) error {
	st := rs.recvs.Get(fd)
	if st == nil {
		return nil
	}
	st.want = false
	if !st.armed || st.canceling {
		return nil
	}
	if err := rs.cancelRecv(fd); err != nil {
		return err
	}
	rs.offSubmit()
	if _, e := rs.enter(0, nil); e != nil && e != uring.ErrSQFull {
		return os.NewSyscallError("io_uring_enter", e)
	}
	return nil
}

// recvForget forgets fd's receive. It reports whether the receive had read bytes whose
// completions are still unreported (in the stash or the completion ring, before or after the
// cancellation's entry): they are dropped with the rest of what completes.
func (rs *ringState) recvForget(fd int) (unread bool, err error) {
	st := rs.recvs.Get(fd)
	if st == nil {
		return false, nil
	}
	if !st.armed {
		// Nothing in the kernel, but a restart may be queued (want): it must not arm a
		// receive on the fd the caller is about to close.
		*st = recvState{}
		return false, nil
	}
	if err := rs.cancelRecv(fd); err != nil {
		return false, err // still armed: Close cancels it
	}
	if st.moving {
		rs.moving--
	}
	ud := recvUD(fd, st.seq)
	*st = recvState{} // what still completes is stale
	rs.offSubmit()
	if _, e := rs.enter(0, nil); e != nil && e != uring.ErrSQFull {
		return rs.readUnreported(ud), os.NewSyscallError("io_uring_enter", e)
	}
	return rs.readUnreported(ud), nil
}

// readUnreported reports whether a receive's completion with data (user data ud) waits
// unreported, in the stash or in the completion ring.
func (rs *ringState) readUnreported(ud uint64) bool {
	sr := &rs.snd
	for _, c := range sr.stash[sr.head:] {
		if c.UserData == ud && c.Res > 0 {
			return true
		}
	}
	for i := uint32(0); ; i++ {
		c := rs.r.CQEAt(i)
		if c == nil {
			return false
		}
		if c.UserData == ud && c.Res > 0 {
			return true
		}
	}
}

func (p *Poller) ringRegister(fd int, ev Events) error {
	rs := p.q.ring
	if err := unix.Fstat(fd, &rs.stat); err != nil {
		return os.NewSyscallError("fstat", err)
	}
	switch rs.stat.Mode & unix.S_IFMT {
	case unix.S_IFREG, unix.S_IFDIR:
		return errRingFile
	case unix.S_IFSOCK, unix.S_IFIFO:
	default:
		if err := rs.pollable(fd); err != nil {
			return err
		}
	}
	rs.polls.At(fd) // its chunk, so that Wait's lookups find it
	if ev == 0 {
		return nil
	}
	return rs.arm(fd, ev)
}

// pollable asks a private epoll whether it takes fd, and returns epoll_ctl's error if not.
func (rs *ringState) pollable(fd int) error {
	if rs.probeFd < 0 {
		epfd, err := unix.EpollCreate1(unix.EPOLL_CLOEXEC)
		if err != nil {
			return os.NewSyscallError("epoll_create1", err)
		}
		rs.probeFd = epfd
	}
	e := unix.EpollEvent{Events: unix.EPOLLIN}
	switch err := unix.EpollCtl(rs.probeFd, unix.EPOLL_CTL_ADD, fd, &e); err {
	case nil:
		unix.EpollCtl(rs.probeFd, unix.EPOLL_CTL_DEL, fd, &e)
		return nil
	case unix.EPERM:
		return errRingFile
	default:
		return os.NewSyscallError("epoll_ctl", err)
	}
}

func (p *Poller) ringUpdate(fd int, ev Events) error {
	rs := p.q.ring
	st := *rs.polls.At(fd)
	if st.armed && st.mask == pollMask(ev) {
		return nil // only the tag changed: Wait reads it from p.fds
	}
	if st.armed {
		if err := rs.cancel(fd); err != nil {
			return err
		}
	}
	if ev == 0 {
		return nil
	}
	return rs.arm(fd, ev)
}

// removeWait bounds how long ringUnregister waits for completions that other threads post.
const removeWait = 10 * time.Millisecond

// ringUnregister removes fd's armed request at once (see the top of the file), and waits
// until the kernel has let go of the file: until the last completions of all of fd's
// requests are out of the kernel, also of those that a Rebind, Modify or a quiet poll's
// report removed but whose removal is still queued (pollsGone). A request's completion work
// runs on the thread that armed it; for this thread's requests it runs inside the submission
// (GETEVENTS), and nothing is waited for. Another thread's (the goroutine changed threads
// since a wait armed it, or Rebind moved it) runs when that thread does: an unbound ring
// wakes that thread, and ringUnregister waits for it, removeWait at most; a ThreadBound
// ring's thread runs it only at its next system call, which is not waited for.
func (p *Poller) ringUnregister(fd int) error {
	rs := p.q.ring
	st := rs.polls.At(fd)
	if st.armed {
		if err := rs.cancel(fd); err != nil {
			*st = pollState{live: st.live}
			return err
		}
	}
	*st = pollState{live: st.live}
	if st.live == 0 {
		return nil // none of fd's requests is in the kernel
	}
	rs.offSubmit()
	var deadline time.Time
	for {
		var err error
		if deadline.IsZero() {
			deadline = time.Now().Add(removeWait)
			_, err = rs.enter(0, nil)
		} else if left := time.Until(deadline); left > 0 {
			rs.ts = uring.Timespec{Nsec: int64(min(left, time.Millisecond))}
			_, err = rs.enter(1, &rs.ts)
		} else {
			return nil
		}
		if err != nil && err != unix.EINTR && err != uring.ErrSQFull {
			return os.NewSyscallError("io_uring_enter", err)
		}
		if rs.pollsGone(fd) || rs.bound {
			return nil
		}
	}
}

// pollsGone reports whether the last completions of all of fd's poll requests are out of the
// kernel: handled by a wait (ringReap counts them in live), or in the stash, to which it
// moves what the completion ring holds, for the next Wait, in their order (see Submit).
func (rs *ringState) pollsGone(fd int) bool {
	sr := &rs.snd
	for cqe := rs.r.PeekCQE(); cqe != nil; cqe = rs.r.PeekCQE() {
		sr.stash = append(sr.stash, *cqe)
		rs.r.AdvanceCQ()
	}
	n := 0
	for _, c := range sr.stash[sr.head:] {
		if isPollUD(c.UserData) && int(c.UserData>>32)-1 == fd && c.Flags&uring.CQEFMore == 0 {
			n++
		}
	}
	return n >= int(rs.polls.Load(fd).live)
}

// isPollUD reports whether ud is a poll request's user data.
func isPollUD(ud uint64) bool {
	return ud>>32 != 0 && ud&(udRecv|udSend|udFile|udAccept) == 0
}

// ringWait arms again the requests that completed, and the wake-up's; submits them with the
// changes queued since the last wait, in the io_uring_enter that waits; and reaps.
func (p *Poller) ringWait(msec int) (int, bool, error) {
	rs := p.q.ring
	if rs.stray { // another thread submitted (offSubmit): back to this one, the loop's
		if err := p.ringMove(rs.tid, true); err != nil {
			return 0, false, err
		}
		rs.stray = false
	}
	for i, fd := range rs.rearm {
		if st, fst := rs.polls.Load(int(fd)), p.fds.Load(int(fd)); st.armed || !fst.added || fst.interest == 0 {
			continue // removed, armed again by Modify, or without interest
		}
		if err := rs.arm(int(fd), p.fds.Load(int(fd)).interest); err != nil {
			rs.rearm = rs.rearm[:copy(rs.rearm, rs.rearm[i:])]
			return 0, false, err
		}
	}
	rs.rearm = rs.rearm[:0]
	if rs.bufs != nil {
		rs.scarce, rs.starved = rs.starved || len(rs.used) > recvBufs/4, false
		for i, fd := range rs.rearmRecv {
			if st := rs.recvs.Load(int(fd)); st.armed || !st.want {
				continue
			}
			if err := rs.armRecv(int(fd)); err != nil {
				rs.rearmRecv = rs.rearmRecv[:copy(rs.rearmRecv, rs.rearmRecv[i:])]
				return 0, false, err
			}
		}
		rs.rearmRecv = rs.rearmRecv[:0]
		if len(rs.used) > 0 {
			for _, bid := range rs.used {
				rs.bufs.Recycle(bid)
			}
			rs.used = rs.used[:0]
			rs.bufs.Publish()
		}
	}
	if len(rs.acc.dirty) > 0 {
		if err := p.flushAccepts(); err != nil {
			return 0, false, err
		}
	}
	if !rs.wakeArmed {
		sqe, err := rs.sqe()
		if err != nil {
			return 0, false, err
		}
		sqe.Opcode, sqe.Fd, sqe.OpFlags, sqe.UserData = uring.OpPollAdd, int32(rs.wakeFd), unix.POLLIN, rs.wakeUD()
		rs.wakeArmed = true
	}
	if rs.moving > 0 && msec == 0 { // a look right after a move (uring_move_linux.go)
		if err := rs.awaitMoves(); err != nil {
			return 0, false, err
		}
	}
	rs.snd.queued = false // this wait submits the queued sends: it reports their completions
	var err error
	switch {
	case msec == 0 || rs.r.Ready() > 0 || rs.stashed():
		_, err = rs.enter(0, nil)
	case msec < 0:
		_, err = rs.enter(1, nil)
	default:
		rs.ts = uring.Timespec{Sec: int64(msec / 1000), Nsec: int64(msec%1000) * 1e6}
		_, err = rs.enter(1, &rs.ts)
	}
	switch {
	case err == unix.EINTR:
		return 0, false, ErrInterrupted
	case err != nil && !errors.Is(err, uring.ErrSQFull):
		return 0, false, os.NewSyscallError("io_uring_enter", err)
	}
	n, woke, err := p.ringReap()
	if !woke && p.WakePending() {
		woke = p.tryConsumeWake()
	}
	return n, woke, err
}

// tryConsumeWake consumes a Wake whose completion has not been posted yet. The kernel posts a
// poll request's completion from the thread that submitted it, and the loop's goroutine may
// run on another thread by now; so a Wake that returned before Wait(0) began may not have
// completed the request yet. It drains the eventfd, and clears the pending state only when
// the drain found the Wake's write (a Wake between its compare-and-swap and its write is
// left pending). The request, still armed, finds the eventfd drained and does not complete.
func (p *Poller) tryConsumeWake() bool {
	if n, _ := unix.Read(p.w.fd, p.q.ring.buf[:]); n != len(p.q.ring.buf) {
		return false
	}
	p.wake.And(^uint32(wakePending))
	return true
}

// ringReap turns up to maxEvents completions into p.out.
func (p *Poller) ringReap() (int, bool, error) {
	rs := p.q.ring
	k, woke := 0, false
	for k < maxEvents {
		ud, res, flags, ok := rs.nextCQE()
		if !ok {
			break
		}
		if ud&udRecv != 0 {
			if p.ringRecvd(ud, res, flags, k) {
				k++
			}
			continue
		}
		if ud&udAccept != 0 {
			if p.ringAccepted(ud, res, flags, k) {
				k++
			}
			continue
		}
		if ud&udFile != 0 {
			rs.fileCompleted(ud, res)
			continue
		}
		if ud&udSend != 0 {
			if ev, ok := rs.snd.reaped(ud, res); ok {
				p.out[k] = ev
				k++
			}
			continue
		}
		if ud>>32 == 0 {
			if ud&udWake != 0 && uint32(ud) == uint32(rs.wakeUD()) {
				rs.wakeArmed = false
				// Without a pending Wake, tryConsumeWake took this one already. The eventfd is
				// not drained then: a count in it belongs to a Wake that set pending after
				// the look (draining it would leave that Wake pending with nothing to
				// report it, and every later Wake would coalesce into it: all lost). With
				// one pending, this may still be such a stale completion, reaped while a
				// Wake is between its compare-and-swap and its write: only a drain that
				// finds a count clears pending, else the write would stay in the eventfd
				// with nothing pending, completing every request armed for it at once.
				// Left pending, that Wake's write completes the request the next wait arms.
				if res > 0 && p.WakePending() {
					woke = p.tryConsumeWake()
				}
			}
			continue
		}
		fd, seq := int(ud>>32-1), uint32(ud)
		st := rs.polls.Get(fd)
		if st != nil && st.live > 0 && flags&uring.CQEFMore == 0 {
			st.live-- // its last completion
		}
		if st == nil || !st.armed || st.seq != seq {
			rs.stale(ud, flags) // removed, or replaced by a newer request
			continue
		}
		if st.multi && flags&uring.CQEFMore != 0 {
			if p.quietPoll(fd, res, k) {
				k++
			}
			continue
		}
		st.armed = false
		rs.rearm = append(rs.rearm, int32(fd))
		if res == -int32(unix.ECANCELED) {
			continue // the submitting thread exited; armed again by the next wait
		}
		if ev := p.ringEvents(fd, res); ev != 0 {
			p.out[k] = Event{Fd: int32(fd), Tag: p.fds.Load(fd).tag, Events: ev, res: min(res, 0)}
			k++
		} else {
			st.quiet = res > 0 && uint32(res)&unix.POLLRDHUP != 0
		}
	}
	return k, woke, nil
}

// ringRecvd handles a receive's completion, filling p.out[k] and reporting true when it is
// to be reported.
func (p *Poller) ringRecvd(ud uint64, res int32, flags uint32, k int) bool {
	rs := p.q.ring
	final := flags&uring.CQEFMore == 0
	if final {
		rs.inflight--
	}
	hasBuf := flags&uring.CQEFBuffer != 0
	bid := uint16(flags >> 16)
	if hasBuf {
		rs.used = append(rs.used, bid) // recycled by the next wait, whatever happens here
	}
	fd, seq := recvFd(ud), uint32(ud)
	st := rs.recvs.Get(fd)
	if st == nil || !st.armed || st.seq != seq {
		rs.stale(ud, flags) // forgotten
		return false
	}
	if final {
		if st.moving {
			st.moving = false
			rs.moving--
		}
		st.armed, st.canceling = false, false
		if st.want && res != 0 && (res > 0 || res == -int32(unix.ENOBUFS) || res == -int32(unix.ECANCELED)) {
			rs.rearmRecv = append(rs.rearmRecv, int32(fd)) // ended early: go on reading
		}
	}
	if res == -int32(unix.ENOBUFS) || res == -int32(unix.ECANCELED) {
		rs.starved = rs.starved || res == -int32(unix.ENOBUFS)
		return false
	}
	p.out[k] = Event{Fd: int32(fd), Tag: st.tag, res: res, bid: bid, recv: true}
	return true
}

// stale is called for the completion of a request no longer armed (removed, forgotten or
// replaced). One that says more will come is a multishot still in the kernel: its
// cancellation is queued again, since the first may have missed it (no free SQE, or the
// kernel refused it while the request ran); else it would go on, for good, reading data or
// accepting connections that are dropped, and holding its file open after the caller closed
// the descriptor. A request that ended meanwhile answers ENOENT, ignored.
func (rs *ringState) stale(ud uint64, flags uint32) {
	if flags&uring.CQEFMore == 0 {
		return
	}
	if sqe, err := rs.sqe(); err == nil {
		sqe.Opcode, sqe.Addr, sqe.UserData = uring.OpAsyncCancel, ud, udIgnore
	} // else the next of its completions tries again
}

// ringEvents translates a poll request's result (POLL* bits, or a negative errno) to Events,
// as the epoll backend translates EPOLL* bits; an errno is Error and the interest, and the
// Event carries it (Err).
func (p *Poller) ringEvents(fd int, res int32) Events {
	interest := p.fds.Load(fd).interest
	if res < 0 {
		return Error | interest
	}
	m := uint32(res)
	var ev Events
	if m&unix.POLLIN != 0 {
		ev |= Readable
	}
	if m&unix.POLLOUT != 0 {
		ev |= Writable
	}
	if m&unix.POLLHUP != 0 || m&unix.POLLRDHUP != 0 && interest&Readable != 0 {
		ev |= Hangup
	}
	if m&(unix.POLLERR|unix.POLLNVAL) != 0 {
		ev |= Error
	}
	if m&(unix.POLLHUP|unix.POLLERR) != 0 {
		ev |= interest // let the callback read the EOF or write into the error
	}
	return ev
}

// ringRebind arms the polls again from this thread when it is not the one that armed them.
// The kernel posts a request's completion from the thread that submitted it: after the
// goroutine moved, a readiness that happened before a look (Wait(0)) may still be on its way
// from the other thread, so the look would miss it, where epoll would not. A poll armed
// anew checks readiness when it is submitted, on this thread, and the old one's completion
// is dropped as stale.
//
// Requests submitted while unbound (before the first Rebind, or between Unbind and Rebind:
// anything that entered the kernel then, a RecvForget or a full submission ring) came from a
// thread that may not be this one, so they are moved too, even when this is the thread of
// the last Rebind.
func (p *Poller) ringRebind() error {
	rs := p.q.ring
	if rs.thread != nil {
		return nil // pinned: never moves
	}
	tid := unix.Gettid()
	foreign := rs.unbound && rs.r.Submits() != rs.unboundAt || rs.stray
	if tid == rs.tid && !foreign {
		rs.unbound = false
		return nil
	}
	// On failure the state stays as it was, so that the next Rebind moves everything again.
	if err := p.ringMove(tid, rs.tid != 0 || foreign); err != nil {
		return err
	}
	rs.unbound, rs.stray = false, false
	return nil
}

// ringMove arms again from thread tid (the caller's) the poll requests and, on a ThreadBound
// ring, the wake-up's; with multishots, the multishot receives and accepts too (they were
// submitted: else they go with the next wait anyway).
func (p *Poller) ringMove(tid int, multishots bool) error {
	rs := p.q.ring
	for fd := range rs.polls.Len() {
		if st := rs.polls.Get(fd); st == nil || !st.armed {
			continue
		}
		if err := rs.cancel(fd); err != nil {
			return err
		}
		if err := rs.arm(fd, p.fds.Load(fd).interest); err != nil {
			return err
		}
	}
	if rs.bound && rs.wakeArmed { // a generation's completion that is not the last one armed is dropped
		sqe, err := rs.sqe()
		if err != nil {
			return err
		}
		sqe.Opcode, sqe.Addr, sqe.UserData = uring.OpAsyncCancel, rs.wakeUD(), udIgnore
		rs.wakeGen++
		rs.wakeArmed = false // armed again by the next wait
	}
	if multishots {
		if err := rs.rebindMultishots(); err != nil {
			return err
		}
	}
	rs.tid = tid
	return nil
}

// wakeUD is the user data of the wake-up's request of the current generation.
func (rs *ringState) wakeUD() uint64 { return udWake | uint64(rs.wakeGen&0x7fffffff)<<1 }

func (p *Poller) ringUnbind() {
	rs := p.q.ring
	if rs.thread != nil {
		return
	}
	rs.unbound, rs.unboundAt = true, rs.r.Submits()
}

func (p *Poller) ringRelease() error {
	rs := p.q.ring
	rs.releaseStash() // before the files' release, which waits for completions in the ring
	p.releaseAccepts()
	rs.fileRelease()
	if rs.bufs != nil {
		// Cancel the receives and wait for their last completions: the kernel writes into
		// the buffers until then.
		for fd := range rs.recvs.Len() {
			if st := rs.recvs.Get(fd); st != nil && st.armed {
				rs.cancelRecv(fd)
			}
		}
		rs.releaseReap(1000, func() bool { return rs.inflight == 0 })
		if rs.inflight == 0 {
			rs.bufs.Close()
		} // else leak the buffers rather than let the kernel write into freed memory
	}
	err := p.closeWake()
	if rs.probeFd >= 0 {
		unix.Close(rs.probeFd)
		rs.probeFd = -1
	}
	if e := p.q.ring.r.Close(); e != nil && err == nil {
		err = e
	}
	return err
}

// releaseReap is Close's wait for the kernel to let go of what it still has: until done
// reports true, or after tries waits of 10 ms, it reaps every completion and handles it as
// no Wait will: a receive's last completion is counted, an accepted fd closed (and the
// accept's last completion counted), a file request completed.
func (rs *ringState) releaseReap(tries int, done func() bool) {
	for i := 0; !done() && i < tries; i++ {
		rs.ts = uring.Timespec{Nsec: 10e6}
		if _, err := rs.enter(1, &rs.ts); err != nil && err != unix.EINTR && err != uring.ErrSQFull {
			return
		}
		for cqe := rs.r.PeekCQE(); cqe != nil; cqe = rs.r.PeekCQE() {
			ud, res, flags := cqe.UserData, cqe.Res, cqe.Flags
			rs.r.AdvanceCQ()
			switch {
			case ud&udRecv != 0:
				if flags&uring.CQEFMore == 0 {
					rs.inflight--
				}
			case ud&udAccept != 0:
				rs.acceptDropped(res, flags)
			case ud&udFile != 0:
				rs.fileCompleted(ud, res)
			}
		}
	}
}

// quietPoll handles a completion of fd's multishot poll, which goes on: a report that is
// not only the hangup cancels it and arms a one-shot request again (by the next wait), and
// fills p.out[k]; it reports whether it did.
func (p *Poller) quietPoll(fd int, res int32, k int) bool {
	ev := p.ringEvents(fd, res)
	if ev == 0 {
		return false
	}
	rs := p.q.ring
	rs.cancel(fd) // on failure its completions, stale, are dropped
	rs.polls.At(fd).quiet = false
	rs.rearm = append(rs.rearm, int32(fd))
	p.out[k] = Event{Fd: int32(fd), Tag: p.fds.Load(fd).tag, Events: ev}
	return true
}
