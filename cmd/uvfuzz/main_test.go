package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// TestRecordedSeeds runs the programs of the seeds recorded in testdata (NNNN.js, the
// script, and NNNN.out, what node v20 printed) in the interpreter and compares. It also
// checks that the generator still writes the recorded script for each seed; after a change
// to the generator, re-record with
//
//	go run ./cmd/uvfuzz -record cmd/uvfuzz/testdata -n 40
func TestRecordedSeeds(t *testing.T) {
	outs, err := filepath.Glob("testdata/*.out")
	if err != nil || len(outs) == 0 {
		t.Fatalf("no recorded seeds: %v", err)
	}
	sem := make(chan struct{}, 4)
	for _, out := range outs {
		name := strings.TrimSuffix(filepath.Base(out), ".out")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sem <- struct{}{}
			defer func() { <-sem }()
			var seed uint64
			for _, c := range name {
				seed = seed*10 + uint64(c-'0')
			}
			js, err := filepath.Abs(filepath.Join("testdata", name+".js"))
			if err != nil {
				t.Fatal(err)
			}
			script, err := os.ReadFile(js)
			if err != nil {
				t.Fatal(err)
			}
			prog := Generate(seed)
			if prog.JS() != string(script) {
				t.Fatalf("the generator no longer writes %s.js for seed %d: re-record the seeds", name, seed)
			}
			want, err := os.ReadFile(out)
			if err != nil {
				t.Fatal(err)
			}
			// A loaded machine can stretch a slot (50 ms) past an fs call or node's start;
			// a wrong order fails every attempt.
			var got string
			for attempt := 1; attempt <= 3; attempt++ {
				got = runGo(prog, js) + "\n"
				if got == string(want) {
					return
				}
				t.Logf("attempt %d: %s", attempt, firstDiff(string(want), got))
			}
			t.Errorf("seed %d: uvgo printed\n%s\nnode printed\n%s\n%s", seed, got, want, firstDiff(string(want), got))
		})
	}
}

// TestShrink checks that the shrinker finds the one statement that makes a program fail and
// keeps programs valid.
func TestShrink(t *testing.T) {
	prog := Generate(7)
	var target *Stmt
	walk(prog, func(s *Stmt) {
		if s.Op == OpFS && target == nil {
			target = s
		}
	})
	if target == nil {
		t.Skip("seed 7 has no fs call")
	}
	id := target.ID
	small := shrink(prog, func(p *Block) bool {
		found := false
		walk(p, func(s *Stmt) { found = found || (s.Op == OpFS && s.ID == id) })
		return found
	})
	n := 0
	walk(small, func(*Stmt) { n++ })
	if n > 4 || !valid(small) {
		t.Fatalf("shrunk to %d statements (valid %v):\n%s", n, valid(small), small.JS())
	}
}

// TestGeneratedProgramsAreValid checks the generator's scoping on many seeds.
func TestGeneratedProgramsAreValid(t *testing.T) {
	for seed := uint64(1); seed <= 2000; seed++ {
		if p := Generate(seed); !valid(p) {
			t.Fatalf("seed %d: invalid program:\n%s", seed, p.JS())
		}
	}
}
