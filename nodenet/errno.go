package nodenet

// Errno is Node's err.errno: the negated errno of a system call failure (-111 for
// ECONNREFUSED on Linux), or 0.
func (e *Error) Errno() int {
	if errno, ok := errnoOf(e.Err); ok {
		return -int(errno)
	}
	return 0
}
