//go:build !uvgo_checkgoroutine

package uvloop

// CheckingGoroutines reports whether the package was built with the uvgo_checkgoroutine tag
// (see checkgoroutine_on.go): then loop-only methods panic when they are called from a
// goroutine that does not own the running loop.
const CheckingGoroutines = false

// Without the uvgo_checkgoroutine build tag the checks are empty and compile to nothing.

func (l *Loop) checkOwner(op string) {}
func (l *Loop) enterOwner()          {}
func (l *Loop) leaveOwner()          {}
