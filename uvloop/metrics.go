package uvloop

// Metrics counts what the loop did, like uv_metrics_info.
type Metrics struct {
	LoopCount uint64 // iterations that reached the poll phase
	Events    uint64 // I/O events the poller reported
	// Sleeps counts the poll phases that slept: nothing was ready and the last look at the
	// queues found nothing from other goroutines, so the loop blocked on the poller or, with
	// no fd registered, on a channel.
	Sleeps uint64
	// Wakeups counts the sleeps that another goroutine ended (Post, Async.Send, finished
	// work): each cost one signal, a write to the poller's wake-up (an eventfd, EVFILT_USER,
	// a pipe) or a channel send. It never exceeds Sleeps: a waker signals only a loop that
	// sleeps, and only one waker per sleep; the others only queue.
	Wakeups uint64
}

// Metrics returns the loop's counters. Loop goroutine only.
func (l *Loop) Metrics() Metrics {
	m := l.metrics
	m.Wakeups = l.wakeups.Load()
	return m
}
