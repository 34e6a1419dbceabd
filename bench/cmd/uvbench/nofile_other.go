//go:build !unix

package main

// raiseNofile: there is no RLIMIT_NOFILE here.
func raiseNofile(conns int, need uint64) string { return "no RLIMIT_NOFILE on this system" }
