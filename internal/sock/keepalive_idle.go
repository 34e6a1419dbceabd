//go:build linux || freebsd || netbsd || dragonfly

package sock

import "golang.org/x/sys/unix"

// keepIdleOpt sets the silence before the first keep-alive probe.
const keepIdleOpt = unix.TCP_KEEPIDLE
