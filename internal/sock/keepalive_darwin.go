package sock

import "golang.org/x/sys/unix"

// keepIdleOpt sets the silence before the first keep-alive probe: macOS names TCP_KEEPIDLE
// TCP_KEEPALIVE.
const keepIdleOpt = unix.TCP_KEEPALIVE
