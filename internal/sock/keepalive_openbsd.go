package sock

// setKeepAliveIdle does nothing: OpenBSD sets the keep-alive timing system-wide only.
func setKeepAliveIdle(fd, secs int) error { return nil }
