package nodeprocess

import (
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/uvgo/uvgo/internal/tty"
	"github.com/uvgo/uvgo/uvloop"
)

// TestStdoutResizeRev10c: a stdout on a terminal has its size, and a SIGWINCH after the size
// changed gives "resize" with the new one; a SIGWINCH with the size unchanged gives none,
// as Node's tty.WriteStream (_refreshSize). The SIGWINCH listener does not keep the loop
// alive.
func TestStdoutResizeRev10c(t *testing.T) {
	m, s, err := tty.OpenPty()
	if err != nil {
		t.Skip("no pseudo-terminal here: ", err)
	}
	defer syscall.Close(m)
	defer syscall.Close(s)
	if err := tty.SetWinSize(s, 80, 24); err != nil {
		t.Fatal(err)
	}
	l, err := uvloop.New()
	if err != nil {
		t.Fatal(err)
	}
	p := New(l)
	out := p.newStdout(s)
	if !out.IsTTY || out.Columns() != 80 || out.Rows() != 24 {
		t.Fatalf("IsTTY %v, %dx%d; want a terminal of 80x24", out.IsTTY, out.Columns(), out.Rows())
	}
	var got []string
	out.OnResize(func() { got = append(got, strconv.Itoa(out.Columns())+"x"+strconv.Itoa(out.Rows())) })
	steps := []func(){
		func() { p.Kill(p.Pid(), "SIGWINCH") }, // unchanged: no "resize"
		func() { tty.SetWinSize(s, 100, 30); p.Kill(p.Pid(), "SIGWINCH") },
		func() { tty.SetWinSize(s, 100, 31); p.Kill(p.Pid(), "SIGWINCH") },
	}
	for i, step := range steps {
		seen := false
		p.Once("SIGWINCH", func(...any) { seen = true })
		step()
		expired := false
		guard := l.SetTimeout(func() { expired = true }, 10*time.Second) // (the listener is unref'd) and a deadlock guard
		for !seen && !expired {
			l.Run(uvloop.RunOnce)
		}
		l.ClearTimeout(guard)
		if !seen {
			t.Fatalf("step %d: the SIGWINCH never came", i)
		}
	}
	if want := "100x30 100x31"; strings.Join(got, " ") != want {
		t.Errorf("resize events %q, want %q", strings.Join(got, " "), want)
	}
	p.Close()
	if alive, _ := l.Run(uvloop.RunNoWait); alive {
		t.Error("the SIGWINCH listener keeps the loop alive")
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}
