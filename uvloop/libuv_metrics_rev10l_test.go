package uvloop_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/uvgo/uvgo/uvloop"
)

// Ports of libuv's test-metrics.c metrics_info_check and metrics_pool_events, in our own
// words, each run in every mode.

// metrics_info_check: the first prepare callback sees no iteration and no event counted; an
// open queued there completes in the first iteration's poll phase (LoopCount 1), the write
// its callback queues in the second (2), the close after it in the third (3), and each
// completion counts events beyond the last one's.
func TestLibuvMetricsInfoCheckRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		path := filepath.Join(t.TempDir(), "test_file")
		var last uint64
		steps := 0
		check := func(what string, loops uint64) {
			m := l.Metrics()
			if m.LoopCount != loops {
				t.Errorf("%s: LoopCount %d, want %d", what, m.LoopCount, loops)
			}
			if loops > 1 && m.Events <= last {
				t.Errorf("%s: Events %d, not beyond %d", what, m.Events, last)
			}
			last = m.Events
			steps++
		}
		prep := l.NewPrepare(func(p *uvloop.Prepare) {
			mustOK(t, p.Stop())
			if m := l.Metrics(); m.LoopCount != 0 || m.Events != 0 {
				t.Errorf("first prepare: LoopCount %d, Events %d", m.LoopCount, m.Events)
			}
			mustOK(t, l.FSOpen(new(uvloop.FSReq), path, os.O_WRONLY|os.O_CREATE, 0o600, func(r *uvloop.FSReq) {
				mustOK(t, r.Err())
				check("open", 1)
				fd := int(r.Result())
				mustOK(t, l.FSWrite(new(uvloop.FSReq), fd, fsTestBufRev10l, 0, func(r *uvloop.FSReq) {
					mustOK(t, r.Err())
					check("write", 2)
					mustOK(t, l.FSClose(new(uvloop.FSReq), fd, func(r *uvloop.FSReq) {
						mustOK(t, r.Err())
						check("close", 3)
					}))
				}))
			}))
		})
		mustOK(t, prep.Start())
		runLoop(t, l)
		if steps != 3 {
			t.Fatalf("steps %d", steps)
		}
		prep.Close(nil)
	})
}

// metrics_idle_time_zero: a loop whose only handle is a timer due at once never blocks: once
// Run returns, IdleTime is zero and LoopCount is the number of timer callbacks (one).
func TestLibuvMetricsIdleTimeZeroRev10l(t *testing.T) {
	eachModeRev10l(t, func(t *testing.T, l *uvloop.Loop) {
		cntr := 0
		tm := l.NewTimer(func(*uvloop.Timer) { cntr++ })
		mustOK(t, tm.Start(0, 0))
		runLoop(t, l)
		m := l.Metrics()
		if cntr == 0 || m.IdleTime != 0 || m.LoopCount != uint64(cntr) {
			t.Fatalf("timer callbacks %d, IdleTime %v, LoopCount %d", cntr, m.IdleTime, m.LoopCount)
		}
		tm.Close(nil)
	})
}
