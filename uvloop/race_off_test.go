//go:build !race

package uvloop_test

const raceEnabled = false
