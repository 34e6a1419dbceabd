// Command uvgovet reports Node-style delays written as a bare number: uvgo's timers take a
// time.Duration, so SetTimeout(fn, 500) waits 500 nanoseconds (which Node's rule turns into
// 1 ms), not the 500 ms a Node programmer means. See package delayunits.
//
// Run it alone or under go vet:
//
//	go install github.com/uvgo/uvgo/cmd/uvgovet@latest
//	uvgovet ./...
//	go vet -vettool=$(which uvgovet) ./...
//
// It is its own module so that golang.org/x/tools, which it is built on, is not a
// dependency of the loop's module.
package main

import (
	"github.com/uvgo/uvgo/cmd/uvgovet/delayunits"
	"golang.org/x/tools/go/analysis/singlechecker"
)

func main() { singlechecker.Main(delayunits.Analyzer) }
