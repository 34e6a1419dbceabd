package uvloop

// FSWatchFd is the descriptor of the loop's shared watch instance, -1 while no FSEvent
// watches.
func (l *Loop) FSWatchFd() int {
	if l.fsWatch == nil {
		return -1
	}
	return l.fsWatch.set.Fd()
}
