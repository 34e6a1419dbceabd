package nodeperf

// SetMaxBuffered sets the leak warning's threshold for a test and returns a func that
// restores it.
func SetMaxBuffered(n int) (restore func()) {
	old := maxBuffered
	maxBuffered = n
	return func() { maxBuffered = old }
}
