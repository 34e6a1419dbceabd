package conformance

import (
	"errors"
	"strconv"

	"github.com/uvgo/uvgo/nodechild"
	"github.com/uvgo/uvgo/nodedns"
	"github.com/uvgo/uvgo/nodeprocess"
	"github.com/uvgo/uvgo/uvloop"
)

// Ports of the scenarios of child_process, process signals and dns (350-356), on packages
// nodechild, nodeprocess and nodedns. A JavaScript null prints as "null", undefined as
// "undefined"; JSON.stringify of a string is strconv.Quote.

// jsNull prints a nil as console.log prints null.
func jsNull(v any) any {
	if v == nil {
		return "null"
	}
	return v
}

// jsonStrings is JSON.stringify of an array of strings.
func jsonStrings(ss []string) string {
	out := "["
	for i, s := range ss {
		if i > 0 {
			out += ","
		}
		out += strconv.Quote(s)
	}
	return out + "]"
}

// 350: 'close' comes after 'exit' and after the end of stdout, with all the output.
func childExitBeforeClose(l *uvloop.Loop, out func(string)) func() {
	child, err := nodechild.Spawn(l, "sh", []string{"-c", "echo hello; exit 0"}, nil)
	if err != nil {
		panic(err)
	}
	text := ""
	exited, ended := false, false
	child.On("spawn", func(...any) { out("spawn") })
	child.Stdout.SetEncoding("utf8")
	child.Stdout.On("data", func(a ...any) { text += a[0].(string) })
	child.Stdout.OnEnd(func() { ended = true })
	child.On("exit", func(a ...any) {
		exited = true
		out(logLine("exit", jsNull(a[0]), jsNull(a[1])))
	})
	child.On("close", func(a ...any) {
		out(logLine("close", jsNull(a[0]), jsNull(a[1]), "after exit:", exited, "after stdout end:", ended))
		out(logLine("stdout", strconv.Quote(text)))
	})
	out("spawned")
	return nil
}

// 351: a child killed with SIGTERM.
func childKilledSigterm(l *uvloop.Loop, out func(string)) func() {
	child, err := nodechild.Spawn(l, "sleep", []string{"10"}, nil)
	if err != nil {
		panic(err)
	}
	child.On("spawn", func(...any) { out(logLine("spawn, kill returns", child.Kill(""))) })
	child.On("exit", func(a ...any) {
		out(logLine("exit", jsNull(a[0]), jsNull(a[1]), "killed", child.Killed, "signalCode", child.SignalCode,
			"exitCode", jsNull(exitCodeOf(child))))
	})
	child.On("close", func(a ...any) {
		out(logLine("close", jsNull(a[0]), jsNull(a[1])))
		out(logLine("kill after exit returns", child.Kill("SIGKILL")))
	})
	return nil
}

// 352: a missing binary.
func childMissingBinary(l *uvloop.Loop, out func(string)) func() {
	child, err := nodechild.Spawn(l, "no-such-binary-uvgo", []string{"a", "b"}, nil)
	if err != nil {
		panic(err)
	}
	pid := any(child.Pid)
	if child.Pid == 0 {
		pid = "undefined"
	}
	out(logLine("pid", pid))
	child.OnError(func(err error) {
		var e *nodechild.Error
		errors.As(err, &e)
		out(logLine("error", e.Message))
		out(logLine("fields", e.Errno, e.Code, e.Syscall, e.Path, jsonStrings(e.Spawnargs)))
		l.NextTick(func() { out("tick after error") })
		l.SetImmediate(func() { out("immediate after error") })
	})
	child.On("spawn", func(...any) { out("spawn (unexpected)") })
	child.On("exit", func(...any) { out("exit (unexpected)") })
	child.On("close", func(a ...any) { out(logLine("close", jsNull(a[0]), jsNull(a[1]))) })
	child.Stdout.OnClose(func(bool) { out("stdout close") })
	return nil
}

// 353: exec's callback, on success and on failure.
func execCallback(l *uvloop.Loop, out func(string)) func() {
	nodechild.Exec(l, "echo ok", nil, func(err error, stdout, stderr string) {
		out(logLine("first", jsNull(errOrNil(err)), strconv.Quote(stdout), strconv.Quote(stderr)))
		nodechild.Exec(l, "echo out; echo err >&2; exit 2", nil, func(err error, stdout, stderr string) {
			e := err.(*nodechild.ExecError)
			out(logLine("second", strconv.Quote(e.Message)))
			signal := any(e.Signal)
			if e.Signal == "" {
				signal = "null"
			}
			out(logLine("fields", e.Code, e.Killed, signal, strconv.Quote(e.Cmd)))
			out(logLine("output", strconv.Quote(stdout), strconv.Quote(stderr)))
		})
	})
	return nil
}

func errOrNil(err error) any {
	if err == nil {
		return nil
	}
	return err
}

// 354: a signal sent to ourselves.
func signalToSelf(l *uvloop.Loop, out func(string)) func() {
	p := nodeprocess.New(l)
	timer := l.SetTimeout(func() { out("timeout (unexpected)") }, 10000*ms)
	p.OnSignal("SIGUSR2", func(name string, num int) {
		out(logLine("got", name, num))
		l.ClearTimeout(timer)
		p.RemoveAllListeners("SIGUSR2")
	})
	ok, _ := p.Kill(p.Pid(), "SIGUSR2")
	out(logLine("kill returns", ok))
	out("after kill")
	return nil
}

// 355: dns.lookup of localhost and of a literal.
func dnsLookupLocalhost(l *uvloop.Loop, out func(string)) func() {
	nodedns.Lookup(l, "localhost", &nodedns.LookupOptions{Family: 4}, func(err error, address string, family int) {
		out(logLine("localhost", jsNull(errOrNil(err)), address, family))
		nodedns.LookupAll(l, "localhost", &nodedns.LookupOptions{Family: 4}, func(err error, addrs []nodedns.LookupAddress) {
			js := "["
			for i, a := range addrs {
				if i > 0 {
					js += ","
				}
				js += `{"address":` + strconv.Quote(a.Address) + `,"family":` + strconv.Itoa(a.Family) + "}"
			}
			out(logLine("all", jsNull(errOrNil(err)), js+"]"))
		})
	})
	nodedns.Lookup(l, "127.0.0.1", nil, func(err error, address string, family int) {
		out(logLine("literal", jsNull(errOrNil(err)), address, family))
	})
	l.NextTick(func() { out("tick") })
	return nil
}

// 356: dns.lookup of a name under .invalid, by callback and by promise.
func dnsLookupInvalid(l *uvloop.Loop, out func(string)) func() {
	nodedns.Lookup(l, "nosuch.invalid", nil, func(err error, address string, family int) {
		e := err.(*nodedns.Error)
		out(logLine("callback", e.Message, "undefined", "undefined"))
		out(logLine("fields", e.Errno, e.Code, e.Syscall, e.Hostname))
		nodedns.Promises(l).Lookup("nosuch.invalid", nil).Catch(func(err error) (nodedns.LookupAddress, error) {
			out(logLine("promise", err.Error(), err.(*nodedns.Error).Code))
			return nodedns.LookupAddress{}, nil
		})
	})
	return nil
}

func exitCodeOf(c *nodechild.ChildProcess) any {
	if c.ExitCode == nil {
		return nil
	}
	return *c.ExitCode
}

// 357: a Resolver's servers and cancel(): the pending queries get ECANCELLED in order, from
// the check phase before the immediates.
func dnsResolverCancel(l *uvloop.Loop, out func(string)) func() {
	r := nodedns.NewResolver(l, nil)
	r.SetServers([]string{"127.0.0.1:1", "[::1]:5353", "10.0.0.1:53", "::2"})
	out(logLine("servers", jsonStrings(r.GetServers())))
	if err := r.SetServers([]string{"127.0.0.1", "not an ip"}); err != nil {
		e := err.(*nodedns.Error)
		out(logLine("setServers", e.Code, e.Message))
	}
	out(logLine("servers unchanged", jsonStrings(r.GetServers())))
	r.SetServers([]string{"127.0.0.1:1"})
	show := func(label string) func(error, []string) {
		return func(err error, _ []string) {
			e := err.(*nodedns.Error)
			out(logLine(label, e.Code, e.Message, e.Syscall, e.Hostname, "undefined"))
		}
	}
	r.Resolve4("example.com", show("resolve4"))
	r.ResolveMx("example.org", func(err error, _ []nodedns.MxRecord) { show("resolveMx")(err, nil) })
	r.Resolve6("example.net", show("resolve6"))
	l.SetImmediate(func() { out("immediate queued before cancel") })
	l.NextTick(func() { out("tick") })
	r.Cancel()
	r.Cancel()
	l.SetImmediate(func() { out("immediate queued after cancel") })
	out("main end")
	nodedns.NewResolver(l, nil).Cancel()
	return nil
}
