package uvloop

import "github.com/uvgo/uvgo/internal/gocheck"

// CheckingGoroutines reports whether the module was built with the uvgo_checkgoroutine tag:
// then the loop-only methods (creating, starting, stopping, ref'ing and closing handles;
// SetTimeout, SetInterval, ClearTimeout, SetImmediate, ClearImmediate, NextTick,
// QueueMicrotask and the methods of Timeout and Immediate; Stop and Walk) panic when they are
// called, while the loop runs, from a goroutine other than the one running it, with a message
// that names the rule. Async bodies of package promise, which run on coroutines that the loop
// goroutine switches to, count as the loop goroutine. Between runs the loop has no owner to
// check against. Each check costs about a microsecond: it is for tests and debugging, like
// -race. Without the tag the checks compile to nothing.
const CheckingGoroutines = gocheck.Enabled

func (l *Loop) checkOwner(op string) {
	if gocheck.Enabled {
		gocheck.Check(l, "uvloop", op)
	}
}

func (l *Loop) enterOwner() {
	if gocheck.Enabled {
		gocheck.Enter(l)
	}
}

func (l *Loop) leaveOwner() {
	if gocheck.Enabled {
		gocheck.Leave(l)
	}
}
