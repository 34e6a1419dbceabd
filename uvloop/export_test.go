package uvloop

import "os"

// DeferPending exposes the pending phase's queue (uv__io_feed), which the I/O handles that
// will use it (write completions, connect errors) do not yet exist to drive.
func (l *Loop) DeferPending(fn func()) { l.deferPending(fn) }

func init() {
	// UVGO_KERNEL_WAIT=1 runs the suite with every loop waiting in the poller, also with no fd
	// registered (wake.go).
	forceKernelWait = os.Getenv("UVGO_KERNEL_WAIT") != ""
}

// RecvLimit is the loop's poller.RecvLimit: the most a ring stream is handed, after ReadStop,
// of what the kernel read meanwhile (0: no limit but the shared buffers', or no ring reads).
func RecvLimit(l *Loop) int { return l.poller.RecvLimit() }

// Looks is how many times the loop's poll phase looked for I/O without blocking before it
// would block (kernelWait).
func Looks(l *Loop) uint64 { return l.looks }

// LostSends returns how many sends a close could not end (SendForget gave up waiting for the
// cancelled send): the kernel went on holding their bytes and their socket.
func (l *Loop) LostSends() int { return l.io.lost }
