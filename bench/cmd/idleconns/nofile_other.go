//go:build !unix

package main

import "math"

// raiseNofile: there is no RLIMIT_NOFILE here; the system's handle limit decides.
func raiseNofile() uint64 { return math.MaxUint64 }
