//go:build !linux

package poller

// Only the io_uring backend runs file system calls for its caller.

func (p *Poller) canFile(op FileOp) bool      { return false }
func (p *Poller) submitFile(r *FileReq) error { return errBackend(BackendIOURing, nil) }
func (p *Poller) fileDone() *FileReq          { return nil }
func (p *Poller) filesDone() bool             { return false }
