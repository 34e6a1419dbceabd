package uvloop

// Metrics counts what the loop did, like uv_metrics_info.
type Metrics struct {
	LoopCount uint64 // iterations that reached the poll phase
	Events    uint64 // I/O events the poller reported
}

// Metrics returns the loop's counters. Loop goroutine only.
func (l *Loop) Metrics() Metrics { return l.metrics }
