package uvloop

// KernelWaitCounts returns what makes the poll phase wait in the kernel although no fd is
// registered: the streams and listeners the io_uring backend reads or accepts for, and the
// sends in flight.
func (l *Loop) KernelWaitCounts() (recvs, sends int) { return l.io.recvs, l.io.sends }

// LostSends returns how many sends a close could not end (SendForget gave up waiting for the
// cancelled send): the kernel went on holding their bytes and their socket.
func (l *Loop) LostSends() int { return l.io.lost }
