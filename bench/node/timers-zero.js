'use strict';
// timers-zero: N setTimeout(cb, 0) (Node makes 0 into 1 ms), run until all fired.
// uvgo: BenchmarkNodeTimersZero.
require('./timers.js').runTimers('timers-zero', () => 0, false);
