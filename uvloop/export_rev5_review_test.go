package uvloop

// WorkDoneQueued is how many finished work items wait for their after callbacks (tests of
// review rev5-fsown).
func WorkDoneQueued(l *Loop) int { return l.work.done.Len() }
