package uvloop_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/uvgo/uvgo/uvloop"
)

// Node's scheduling rules, one case each. Every case has the same scenario as a Node.js
// script (js) printing the lines of want: set UVGO_NODE_ORACLE=1 to check them with the node
// on $PATH (TestNodeRulesNode). A case's run is its main script: it prints with out and
// returns what it prints when the loop has ended (process.on('exit')), or nil. A panic is an
// uncaught exception: the runner prints "caught <message>" and runs the loop again, as the
// scripts' process.on('uncaughtException') handler does.
//
// Timing: competing timers are at least 10 ms apart, or made due by busy-waiting, so that
// both node and the Go port print want on a loaded machine.

// jsPrelude is prepended to every case's js.
const jsPrelude = `function busyWait(ms) { const end = Date.now() + ms; while (Date.now() < end) {} }
process.on('uncaughtException', (e) => console.log('caught', e.message));
`

var nodeRuleTests = []struct {
	name string
	js   string
	run  func(l *uvloop.Loop, out func(string)) func()
	want []string
}{
	{
		name: "delay coercion",
		// Below 1 ms or above 2^31-1 ms a delay becomes 1 ms, and sub-millisecond parts are
		// dropped: all of these join the 1 ms list, in creation order, and run before the 20 ms
		// timeout set first.
		js: `setTimeout(() => console.log('20 ms'), 20);
setTimeout(() => console.log('0 ms'), 0);
setTimeout(() => console.log('-5 ms'), -5);
setTimeout(() => console.log('0.5 ms'), 0.5);
setTimeout(() => console.log('2^31 ms'), 2 ** 31);
setTimeout(() => console.log('1.9 ms'), 1.9);
setTimeout(() => console.log('1 ms'), 1);`,
		run: func(l *uvloop.Loop, out func(string)) func() {
			for _, d := range []struct {
				name  string
				delay time.Duration
			}{
				{"20 ms", 20 * time.Millisecond},
				{"0 ms", 0},
				{"-5 ms", -5 * time.Millisecond},
				{"0.5 ms", 500 * time.Microsecond},
				{"2^31 ms", (1 << 31) * time.Millisecond},
				{"1.9 ms", 1900 * time.Microsecond},
				{"1 ms", 1 * time.Millisecond},
			} {
				l.SetTimeout(func() { out(d.name) }, d.delay)
			}
			return nil
		},
		want: []string{"0 ms", "-5 ms", "0.5 ms", "2^31 ms", "1.9 ms", "1 ms", "20 ms"},
	},
	{
		name: "SetTimeout samples fresh time",
		// A timeout counts from the time it is set, not from the start of the iteration: set
		// after a 30 ms busy-wait, the 20 ms timeout is due 50 ms after the 40 ms one was set.
		js: `setImmediate(() => {
  setTimeout(() => console.log('40 ms, set before the busy-wait'), 40);
  busyWait(30);
  setTimeout(() => console.log('20 ms, set after the busy-wait'), 20);
});`,
		run: func(l *uvloop.Loop, out func(string)) func() {
			l.SetImmediate(func() {
				l.SetTimeout(func() { out("40 ms, set before the busy-wait") }, 40*time.Millisecond)
				nodeBusyWait(30 * time.Millisecond)
				l.SetTimeout(func() { out("20 ms, set after the busy-wait") }, 20*time.Millisecond)
			})
			return nil
		},
		want: []string{"40 ms, set before the busy-wait", "20 ms, set after the busy-wait"},
	},
	{
		name: "one list per duration, every due timeout of a list before the next list",
		// Lists run by (expiry, creation); a list runs all its due timeouts before the next
		// list. B joined the 10 ms list late (due at 25 ms), after C's 5 ms list (due at 20 ms)
		// was made, yet runs before C: libuv's global deadline order would be A, C, B.
		js: `setTimeout(() => console.log('A: 10 ms list, set at 0'), 10);
busyWait(15);
setTimeout(() => console.log('B: 10 ms list, set at 15'), 10);
setTimeout(() => console.log('C: 5 ms list, set at 15'), 5);
busyWait(30);`,
		run: func(l *uvloop.Loop, out func(string)) func() {
			l.SetTimeout(func() { out("A: 10 ms list, set at 0") }, 10*time.Millisecond)
			nodeBusyWait(15 * time.Millisecond)
			l.SetTimeout(func() { out("B: 10 ms list, set at 15") }, 10*time.Millisecond)
			l.SetTimeout(func() { out("C: 5 ms list, set at 15") }, 5*time.Millisecond)
			nodeBusyWait(30 * time.Millisecond)
			return nil
		},
		want: []string{"A: 10 ms list, set at 0", "B: 10 ms list, set at 15", "C: 5 ms list, set at 15"},
	},
	{
		name: "a timeout set in a timeout callback never runs in the same timers phase",
		// C joins the list being run and D makes a new 1 ms list; both are due when A's
		// busy-wait ends, yet the phase ends after B, the check phase runs the immediate, and
		// the next timers phase runs D's list (earlier expiry) before C.
		js: `setTimeout(() => {
  console.log('A');
  setTimeout(() => console.log('C: 10 ms, set by A'), 10);
  setTimeout(() => console.log('D: 1 ms, set by A'), 1);
  setImmediate(() => console.log('immediate, set by A'));
  busyWait(15);
}, 10);
setTimeout(() => console.log('B'), 10);
busyWait(20);`,
		run: func(l *uvloop.Loop, out func(string)) func() {
			l.SetTimeout(func() {
				out("A")
				l.SetTimeout(func() { out("C: 10 ms, set by A") }, 10*time.Millisecond)
				l.SetTimeout(func() { out("D: 1 ms, set by A") }, 1*time.Millisecond)
				l.SetImmediate(func() { out("immediate, set by A") })
				nodeBusyWait(15 * time.Millisecond)
			}, 10*time.Millisecond)
			l.SetTimeout(func() { out("B") }, 10*time.Millisecond)
			nodeBusyWait(20 * time.Millisecond)
			return nil
		},
		want: []string{"A", "B", "immediate, set by A", "D: 1 ms, set by A", "C: 10 ms, set by A"},
	},
	{
		name: "SetInterval's next run counts from before its callback",
		// The first run takes 25 ms; the second is due 30 ms after the first began, before the
		// 45 ms timeout set at its start (it would be due at 55 ms counting from the end).
		js: `let n = 0;
const iv = setInterval(() => {
  n++;
  console.log('interval run', n);
  if (n === 1) {
    setTimeout(() => console.log('45 ms timeout, set by run 1'), 45);
    busyWait(25);
  } else {
    clearInterval(iv);
  }
}, 30);`,
		run: func(l *uvloop.Loop, out func(string)) func() {
			n := 0
			var iv *uvloop.Timeout
			iv = l.SetInterval(func() {
				n++
				out(fmt.Sprint("interval run ", n))
				if n == 1 {
					l.SetTimeout(func() { out("45 ms timeout, set by run 1") }, 45*time.Millisecond)
					nodeBusyWait(25 * time.Millisecond)
				} else {
					l.ClearInterval(iv)
				}
			}, 30*time.Millisecond)
			return nil
		},
		want: []string{"interval run 1", "interval run 2", "45 ms timeout, set by run 1"},
	},
	{
		name: "clearing a due sibling inside a callback prevents it",
		// All the timeouts are due when the loop starts. A clears B (behind it in its list), C
		// (in a later list) and the immediate J (queued, its check phase not begun); the
		// immediate I clears K, later in the batch that is running.
		js: `let b, c, j, k;
setTimeout(() => {
  console.log('A clears B, C and J');
  clearTimeout(b);
  clearTimeout(c);
  clearImmediate(j);
}, 5);
b = setTimeout(() => console.log('B (must not run)'), 5);
setTimeout(() => console.log('D'), 5);
c = setTimeout(() => console.log('C (must not run)'), 6);
setImmediate(() => {
  console.log('I clears K');
  clearImmediate(k);
});
j = setImmediate(() => console.log('J (must not run)'));
k = setImmediate(() => console.log('K (must not run)'));
setImmediate(() => console.log('L'));
busyWait(20);`,
		run: func(l *uvloop.Loop, out func(string)) func() {
			var b, c *uvloop.Timeout
			var j, k *uvloop.Immediate
			l.SetTimeout(func() {
				out("A clears B, C and J")
				l.ClearTimeout(b)
				l.ClearTimeout(c)
				l.ClearImmediate(j)
			}, 5*time.Millisecond)
			b = l.SetTimeout(func() { out("B (must not run)") }, 5*time.Millisecond)
			l.SetTimeout(func() { out("D") }, 5*time.Millisecond)
			c = l.SetTimeout(func() { out("C (must not run)") }, 6*time.Millisecond)
			l.SetImmediate(func() {
				out("I clears K")
				l.ClearImmediate(k)
			})
			j = l.SetImmediate(func() { out("J (must not run)") })
			k = l.SetImmediate(func() { out("K (must not run)") })
			l.SetImmediate(func() { out("L") })
			nodeBusyWait(20 * time.Millisecond)
			return nil
		},
		want: []string{"A clears B, C and J", "D", "I clears K", "L"},
	},
	{
		name: "unref'd timeouts and immediates do not keep the loop alive",
		// With only unref'd work queued the loop ends at once: neither the timeout nor the
		// immediate runs (the check phase is never reached).
		js: `process.on('exit', () => console.log('exit'));
setTimeout(() => console.log('timeout (must not run)'), 20).unref();
setImmediate(() => console.log('immediate (must not run)')).unref();
const iv = setInterval(() => console.log('interval (must not run)'), 10);
iv.unref();
console.log('main end');`,
		run: func(l *uvloop.Loop, out func(string)) func() {
			l.SetTimeout(func() { out("timeout (must not run)") }, 20*time.Millisecond).Unref()
			l.SetImmediate(func() { out("immediate (must not run)") }).Unref()
			iv := l.SetInterval(func() { out("interval (must not run)") }, 10*time.Millisecond)
			iv.Unref()
			out("main end")
			return func() { out("exit") }
		},
		want: []string{"main end", "exit"},
	},
	{
		name: "Refresh restarts the countdown",
		// Refreshed at 20 ms, the 30 ms timeout is due at 50 ms: after the 40 ms one.
		js: `const t = setTimeout(() => console.log('30 ms timeout, refreshed at 20 ms'), 30);
setTimeout(() => { console.log('20 ms: refresh'); t.refresh(); }, 20);
setTimeout(() => console.log('40 ms timeout'), 40);`,
		run: func(l *uvloop.Loop, out func(string)) func() {
			t := l.SetTimeout(func() { out("30 ms timeout, refreshed at 20 ms") }, 30*time.Millisecond)
			l.SetTimeout(func() {
				out("20 ms: refresh")
				t.Refresh()
			}, 20*time.Millisecond)
			l.SetTimeout(func() { out("40 ms timeout") }, 40*time.Millisecond)
			return nil
		},
		want: []string{"20 ms: refresh", "40 ms timeout", "30 ms timeout, refreshed at 20 ms"},
	},
	{
		name: "a panic in a timeout: the rest of the timers phase runs next",
		// t1 panics; once the panic is handled (Run called again) the timeouts still due in
		// that phase, of its list and of the next, run before the check phase's immediate.
		js: `setTimeout(() => { console.log('t1 throws'); throw new Error('x'); }, 1);
setTimeout(() => console.log('t2'), 1);
setTimeout(() => console.log('t3, 5 ms list'), 5);
setImmediate(() => console.log('immediate'));
busyWait(20);`,
		run: func(l *uvloop.Loop, out func(string)) func() {
			l.SetTimeout(func() {
				out("t1 throws")
				panic(errors.New("x"))
			}, 1*time.Millisecond)
			l.SetTimeout(func() { out("t2") }, 1*time.Millisecond)
			l.SetTimeout(func() { out("t3, 5 ms list") }, 5*time.Millisecond)
			l.SetImmediate(func() { out("immediate") })
			nodeBusyWait(20 * time.Millisecond)
			return nil
		},
		want: []string{"t1 throws", "caught x", "t2", "t3, 5 ms list", "immediate"},
	},
	{
		name: "a panic in an immediate: the rest of its batch runs next",
		// immediate 1 panics after its timeout became due; once the panic is handled the rest
		// of the batch runs before the timers phase.
		js: `setImmediate(() => {
  console.log('immediate 1 throws');
  setTimeout(() => console.log('timeout'), 1);
  busyWait(20);
  throw new Error('y');
});
setImmediate(() => console.log('immediate 2'));
setImmediate(() => console.log('immediate 3'));`,
		run: func(l *uvloop.Loop, out func(string)) func() {
			l.SetImmediate(func() {
				out("immediate 1 throws")
				l.SetTimeout(func() { out("timeout") }, 1*time.Millisecond)
				nodeBusyWait(20 * time.Millisecond)
				panic(errors.New("y"))
			})
			l.SetImmediate(func() { out("immediate 2") })
			l.SetImmediate(func() { out("immediate 3") })
			return nil
		},
		want: []string{"immediate 1 throws", "caught y", "immediate 2", "immediate 3", "timeout"},
	},
	{
		name: "work queued before Run drains first",
		// The main script's ticks, then its microtasks (and the tick one of them queues) run
		// before any phase; the 1 ms timeout is due (busy-wait) and runs before the immediate.
		js: `setImmediate(() => console.log('immediate'));
setTimeout(() => console.log('timeout'), 1);
queueMicrotask(() => {
  console.log('microtask');
  process.nextTick(() => console.log('tick from the microtask'));
});
process.nextTick(() => console.log('tick'));
busyWait(10);
console.log('main end');`,
		run: func(l *uvloop.Loop, out func(string)) func() {
			l.SetImmediate(func() { out("immediate") })
			l.SetTimeout(func() { out("timeout") }, 1*time.Millisecond)
			l.QueueMicrotask(func() {
				out("microtask")
				l.NextTick(func() { out("tick from the microtask") })
			})
			l.NextTick(func() { out("tick") })
			nodeBusyWait(10 * time.Millisecond)
			out("main end")
			return nil
		},
		want: []string{"main end", "tick", "microtask", "tick from the microtask", "timeout", "immediate"},
	},
}

func TestNodeRules(t *testing.T) {
	for _, tt := range nodeRuleTests {
		t.Run(tt.name, func(t *testing.T) {
			l := newLoop(t)
			var got nodeLog
			onExit := tt.run(l, got.add)
			nodeRunCatching(t, l, 5, func(v any) {
				if err, ok := v.(error); ok {
					got.add("caught " + err.Error())
				} else {
					got.add(fmt.Sprint("caught ", v))
				}
			})
			if onExit != nil {
				onExit()
			}
			nodeCheck(t, got, tt.want...)
			closeLoop(t, l)
		})
	}
}

// TestNodeRulesNode runs every case's script with node and compares its output with want.
// It runs only with UVGO_NODE_ORACLE=1.
func TestNodeRulesNode(t *testing.T) {
	if os.Getenv("UVGO_NODE_ORACLE") != "1" {
		t.Skip("set UVGO_NODE_ORACLE=1 to compare with Node.js")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node not found")
	}
	for _, tt := range nodeRuleTests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, node, "-e", jsPrelude+tt.js).Output()
			if err != nil {
				t.Fatalf("node: %v", err)
			}
			got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			nodeCheck(t, got, tt.want...)
		})
	}
}
