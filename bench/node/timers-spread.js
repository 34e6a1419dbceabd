'use strict';
// timers-spread: timeout i set with delay (i % 1000) + 1 ms, run until all fired; includes
// ~1 s of waiting. uvgo: BenchmarkNodeTimersSpread.
const { runTimers, spread } = require('./timers.js');
runTimers('timers-spread', spread, false);
