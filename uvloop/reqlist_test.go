package uvloop

import "testing"

// TestReqList drives the write queue's circle through every length from 0 to 4, popping and
// pushing in turn, against a slice.
func TestReqList(t *testing.T) {
	var q reqList
	var want []*writeReq
	check := func(step string) {
		t.Helper()
		var got []*writeReq
		for r := q.front(); r != nil; r = q.after(r) {
			got = append(got, r)
			if len(got) > len(want) {
				break
			}
		}
		if len(got) != len(want) {
			t.Fatalf("%s: %d requests, want %d", step, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: request %d is not the one pushed %d-th", step, i, i)
			}
		}
	}
	check("empty")
	if q.pop() != nil {
		t.Fatal("pop of an empty list returned a request")
	}
	for round := range 3 {
		for range 4 {
			r := &writeReq{}
			q.push(r)
			want = append(want, r)
			check("push")
		}
		for range 4 - round%2 { // the second round leaves one behind for the third
			r := q.pop()
			if r != want[0] || r.next != nil {
				t.Fatalf("pop returned %p (next %p), want %p with no next", r, r.next, want[0])
			}
			want = want[1:]
			check("pop")
		}
	}
}
