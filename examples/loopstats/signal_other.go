//go:build !unix

package main

import "syscall"

// reportSignal: this system has no SIGUSR1; the report is at /metrics only.
const reportSignal = syscall.Signal(0)
