package uvloop

// DeferPending exposes the pending phase's queue (uv__io_feed), which the I/O handles that
// will use it (write completions, connect errors) do not yet exist to drive.
func (l *Loop) DeferPending(fn func()) { l.deferPending(fn) }
