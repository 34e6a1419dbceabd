//go:build unix

package main

import "syscall"

// reportSignal asks for the report on stderr.
const reportSignal = syscall.SIGUSR1
