//go:build !linux

package http1

// socketUnsent is 0 here: the progress check sees only the queue of the stream.
func socketUnsent(fd int) int { return 0 }
