package main

import (
	"fmt"
	"os"
	"runtime"
	"strings"
)

// Machine describes where the numbers were taken.
type Machine struct {
	CPU        string // model name from /proc/cpuinfo
	Cores      int
	Kernel     string
	GoVersion  string
	CC         string
	Git        string
	LoadStart  string
	LoadEnd    string
	GOMAXPROCS int
}

// describeMachine gathers what does not depend on the tools found.
func describeMachine(root string) Machine {
	m := Machine{CPU: "unknown", Cores: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0)}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		procs := 0
		for l := range strings.Lines(string(b)) {
			k, v, ok := strings.Cut(l, ":")
			if !ok {
				continue
			}
			switch strings.TrimSpace(k) {
			case "model name":
				if m.CPU == "unknown" {
					m.CPU = strings.TrimSpace(v)
				}
			case "processor":
				procs++
			}
		}
		if procs > 0 {
			m.Cores = procs
		}
	}
	m.Kernel = firstLine(command("", "uname", "-rm"))
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); m.Kernel == "" && err == nil {
		m.Kernel = strings.TrimSpace(string(b)) + " " + runtime.GOARCH
	}
	if m.Kernel == "" {
		m.Kernel = runtime.GOOS + " " + runtime.GOARCH
	}
	m.GoVersion = firstLine(command(root, "go", "version"))
	if cc := ccName(); cc != "" {
		m.CC = firstLine(command("", cc, "--version"))
	}
	m.Git = firstLine(command(root, "git", "rev-parse", "--short", "HEAD"))
	if st, err := command(root, "git", "status", "--porcelain", "--untracked-files=normal"); err == nil && strings.TrimSpace(st) != "" {
		m.Git += " (the work tree has uncommitted changes)"
	}
	m.LoadStart = loadAvg()
	return m
}

func firstLine(s string, err error) string {
	if err != nil {
		return ""
	}
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// loadAvg is the 1, 5 and 15 minute load averages.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "n/a"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "n/a"
	}
	return strings.Join(f[:3], " ")
}

// Text is machine.txt.
func (m Machine) Text(rep *Report) string {
	if m.LoadEnd == "" {
		m.LoadEnd = loadAvg()
	}
	var b strings.Builder
	line := func(k, v string) { fmt.Fprintf(&b, "%-12s %s\n", k+":", orNA(v)) }
	line("date", rep.Started.UTC().Format("2006-01-02 15:04:05 UTC"))
	line("command", "cd bench && "+rep.Config.Command)
	line("rounds", fmt.Sprint(rep.Config.Rounds))
	line("duration", rep.Elapsed.Round(1e9).String())
	line("cpu", m.CPU)
	line("cores", fmt.Sprint(m.Cores))
	line("gomaxprocs", fmt.Sprint(m.GOMAXPROCS))
	line("kernel", m.Kernel)
	line("go", m.GoVersion)
	line("node", nodeLine(rep.Tools))
	line("libuv", libuvLine(rep.Tools))
	line("cc", m.CC)
	line("uvgo", m.Git)
	line("loadavg", "start "+m.LoadStart+", end "+m.LoadEnd)
	return b.String()
}

func nodeLine(t Tools) string {
	if !t.Node {
		return "skipped: " + t.NoNode
	}
	return t.NodeVersion
}

func libuvLine(t Tools) string {
	if t.LibuvV == "" {
		return "skipped: " + t.NoLibuv
	}
	if !t.Libuv {
		return t.LibuvV + " (pkg-config), not run: " + t.NoLibuv
	}
	return t.LibuvV + " (pkg-config --modversion libuv)"
}
