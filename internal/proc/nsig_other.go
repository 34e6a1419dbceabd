//go:build !linux

package proc

// NSIG is one more than the largest signal number the loop accepts.
const NSIG = 32
