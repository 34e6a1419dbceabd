package uvloop

// KernelWaitCounts returns what makes the poll phase wait in the kernel although no fd is
// registered: the streams and listeners the io_uring backend reads or accepts for, and the
// sends in flight.
func (l *Loop) KernelWaitCounts() (recvs, sends int) { return l.io.recvs, l.io.sends }
