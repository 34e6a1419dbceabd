//go:build uvgo_checkgoroutine

package uvloop

import (
	"bytes"
	"fmt"
	"runtime"
	"strconv"
	"sync"
)

// CheckingGoroutines reports whether the package was built with the uvgo_checkgoroutine
// tag: then the loop-only methods (creating, starting, stopping, ref'ing and closing
// handles; SetTimeout, SetInterval, ClearTimeout, SetImmediate, ClearImmediate, NextTick,
// QueueMicrotask and the methods of Timeout and Immediate; Stop and Walk) panic when they
// are called, while the loop runs, from a goroutine other than the one running it, with a
// message that names the rule. Async bodies of package promise, which run on coroutines
// that the loop goroutine switches to, count as the loop goroutine. Between runs the loop
// has no owner to check against. Each check reads the goroutine's id from its stack
// (about a microsecond): it is for tests and debugging, like -race.
const CheckingGoroutines = true

// owners maps a running *Loop to the id of the goroutine running it; coros holds, per
// *Loop, the ids of goroutines seen to be coroutines that the owner switched to. Any
// goroutine: mu protects both.
var (
	mu     sync.Mutex
	owners = map[*Loop]int64{}
	coros  = map[*Loop]map[int64]bool{}
)

func (l *Loop) enterOwner() {
	g := goid()
	mu.Lock()
	owners[l] = g
	mu.Unlock()
}

func (l *Loop) leaveOwner() {
	mu.Lock()
	delete(owners, l)
	mu.Unlock()
}

// checkOwner allocates nothing unless it fails or meets a coroutine for the first time,
// so that the allocation tests hold with the checks on.
func (l *Loop) checkOwner(op string) {
	g := goid()
	mu.Lock()
	owner, running := owners[l]
	known := coros[l][g]
	mu.Unlock()
	if !running || g == owner || known {
		return // not running: whoever calls Run next owns it
	}
	stack := make([]byte, 4096)
	stack = stack[:runtime.Stack(stack, false)]
	if isCoroutineOf(stack, owner) {
		mu.Lock()
		if coros[l] == nil {
			coros[l] = map[int64]bool{}
		}
		coros[l][g] = true
		mu.Unlock()
		return
	}
	panic(fmt.Sprintf("uvloop: %s called from goroutine %d while the loop runs on goroutine %d: "+
		"a Loop, its handles, timeouts and immediates belong to the goroutine that runs it; from "+
		"other goroutines call only Post and Async.Send (checked because of the uvgo_checkgoroutine build tag)",
		op, g, owner))
}

// isCoroutineOf reports whether the goroutine whose stack this is is a coroutine (made by
// iter.Pull, as package promise runs Async bodies) that the owner switched to: made by the
// owner, or else with the owner parked in a coroutine switch.
func isCoroutineOf(stack []byte, owner int64) bool {
	i := bytes.Index(stack, []byte("created by iter.Pull"))
	if i < 0 {
		return false
	}
	if bytes.Contains(stack[i:], []byte(" in goroutine "+strconv.FormatInt(owner, 10)+"\n")) {
		return true
	}
	all := make([]byte, 1<<20)
	for {
		n := runtime.Stack(all, true)
		if n < len(all) {
			all = all[:n]
			break
		}
		all = make([]byte, 2*len(all))
	}
	return bytes.Contains(all, []byte("goroutine "+strconv.FormatInt(owner, 10)+" [coroutine]"))
}

// goidBuf is goid's buffer, shared under goidMu: runtime.Stack makes a local one escape,
// and the checks must not allocate (a sync.Pool does, under -race).
var (
	goidMu  sync.Mutex
	goidBuf [64]byte
)

func goid() int64 {
	goidMu.Lock()
	id := parseGoid(goidBuf[:runtime.Stack(goidBuf[:], false)])
	goidMu.Unlock()
	return id
}

// parseGoid reads the id in the first line of a stack: "goroutine 123 [running]:".
func parseGoid(stack []byte) int64 {
	s := bytes.TrimPrefix(stack, []byte("goroutine "))
	if i := bytes.IndexByte(s, ' '); i > 0 {
		s = s[:i]
	}
	var id int64
	for _, c := range s {
		if c < '0' || c > '9' {
			break
		}
		id = id*10 + int64(c-'0')
	}
	return id
}
