package main

import (
	"fmt"
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

// TestShrinkTCP checks that the shrinker takes a TCP session apart: a statement in the last
// connection's server 'data' callback keeps one connection and nothing else.
func TestShrinkTCP(t *testing.T) {
	var prog *Block
	var target *Stmt
	for seed := uint64(1); seed <= 1000 && target == nil; seed++ {
		prog = Generate(seed)
		walk(prog, func(s *Stmt) {
			if s.TCP == nil || target != nil || len(s.TCP.Conns) < 2 {
				return
			}
			if b := s.TCP.Conns[len(s.TCP.Conns)-1].AData; len(b.Stmts) > 0 {
				target = b.Stmts[0]
			}
		})
	}
	if target == nil {
		t.Fatal("no seed has a session of two connections whose last 'data' callback does something")
	}
	id := target.ID
	small := shrink(prog, func(p *Block) bool {
		found := false
		walk(p, func(s *Stmt) { found = found || s.ID == id && s.Op == target.Op })
		return found
	})
	var sessions []*Stmt
	walk(small, func(s *Stmt) {
		if s.TCP != nil {
			sessions = append(sessions, s)
		}
	})
	n := 0
	if len(sessions) == 1 {
		walk(&Block{Stmts: []*Stmt{sessions[0]}}, func(*Stmt) { n++ })
	}
	if n != 2 || len(sessions[0].TCP.Conns) != 1 || !valid(small) {
		t.Fatalf("shrunk to %d sessions, %d statements in the session (valid %v):\n%s", len(sessions), n, valid(small), small.JS())
	}
	var a string
	walk(small, func(s *Stmt) {
		if s.ID == id {
			a = s.A
		}
	})
	if want := fmt.Sprintf("a%d.1", sessions[0].ID); a != want && target.Op != OpTimeout && target.Op != OpFS {
		t.Errorf("the statement's actor is %q, want %q", a, want)
	}
}
