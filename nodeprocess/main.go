package nodeprocess

import (
	"os"

	"github.com/uvgo/uvgo/uvloop"
)

// Run makes a loop and its Process, runs main as the main script and everything after it
// (see Process.Run), closes the loop and returns the status Node would exit with. It
// returns an error only if the loop cannot be made.
func Run(main func(p *Process), opts ...Option) (status int, err error) {
	l, err := uvloop.New()
	if err != nil {
		return 0, err
	}
	p := New(l, opts...)
	return p.Run(func() { main(p) }), nil
}

// Main is Run for a program's main function: it runs main and the loop as node runs a
// script, and ends the program with the status Node would exit with, right after the
// 'exit' listeners, as Node does (nothing runs after them: the program ends, once Close has
// put the standard streams' flags back).
func Main(main func(p *Process), opts ...Option) {
	l, err := uvloop.New()
	if err != nil {
		os.Stderr.WriteString("nodeprocess: " + err.Error() + "\n")
		os.Exit(StatusFatal)
	}
	p := New(l, opts...)
	status := p.run(func() { main(p) })
	p.Close() // the standard streams' flags go back, as Node puts them back at exit
	os.Exit(status)
}
