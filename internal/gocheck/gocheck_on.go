//go:build uvgo_checkgoroutine

package gocheck

import (
	"bytes"
	"fmt"
	"runtime"
	"strconv"
	"sync"
)

// Enabled: the checks are on (the uvgo_checkgoroutine build tag). Each check reads the
// goroutine's id from its stack (about a microsecond): it is for tests and debugging, like
// -race.
const Enabled = true

// owners maps a running loop (any comparable owner key) to the id of the goroutine running it; coros holds, per
// *Loop, the ids of goroutines seen to be coroutines that the owner switched to. Any
// goroutine: mu protects both.
var (
	mu     sync.Mutex
	owners = map[any]int64{}
	coros  = map[any]map[int64]bool{}
)

// Enter records the calling goroutine as l's owner (Run begins).
func Enter(l any) {
	g := goid()
	mu.Lock()
	owners[l] = g
	mu.Unlock()
}

// Adopt records the calling goroutine as one that l's owner hands control to and waits for,
// as a coroutine: package promise runs the Async bodies of a loop that locks its thread on
// goroutines of their own (goPull), and adopts each for its loop. Disown forgets it.
func Adopt(l any) {
	g := goid()
	mu.Lock()
	if coros[l] == nil {
		coros[l] = map[int64]bool{}
	}
	coros[l][g] = true
	mu.Unlock()
}

// Disown forgets a goroutine that Adopt recorded for l.
func Disown(l any) {
	g := goid()
	mu.Lock()
	delete(coros[l], g)
	mu.Unlock()
}

// Leave forgets l's owner (Run ends).
func Leave(l any) {
	mu.Lock()
	delete(owners, l)
	mu.Unlock()
}

// Check panics with a message naming the rule (and prefix, the package) if l runs on
// another goroutine than the caller's, unless the caller is a coroutine its owner switched
// to. It allocates nothing unless it fails or meets a coroutine for the first time, so that
// allocation tests hold with the checks on.
func Check(l any, prefix, op string) {
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
	panic(fmt.Sprintf("%s: %s called from goroutine %d while the loop runs on goroutine %d: "+
		"a Loop, its handles, timeouts and immediates belong to the goroutine that runs it; from "+
		"other goroutines call only Post and Async.Send (checked because of the uvgo_checkgoroutine build tag)",
		prefix, op, g, owner))
}

// isCoroutineOf reports whether the goroutine whose stack this is is a coroutine (made by
// iter.Pull, as package promise runs Async bodies) that the owner switched to: made by the
// owner, or else with the owner parked in a coroutine switch. A goroutine that package
// promise runs a body on instead, for a loop that locks its thread (goPull), counts as one,
// made by the owner or with the owner waiting for it on a channel.
func isCoroutineOf(stack []byte, owner int64) bool {
	waiting := " [coroutine]"
	i := bytes.Index(stack, []byte("created by iter.Pull"))
	if i < 0 {
		waiting = " [chan receive]"
		if i = bytes.Index(stack, []byte("created by github.com/uvgo/uvgo/promise.goPull")); i < 0 {
			return false
		}
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
	return bytes.Contains(all, []byte("goroutine "+strconv.FormatInt(owner, 10)+waiting))
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
