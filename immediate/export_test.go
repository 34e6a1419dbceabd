package immediate

// Verify checks the queue's links and counts.
func Verify(q *Queue) error { return q.verify() }
