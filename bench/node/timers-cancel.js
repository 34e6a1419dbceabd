'use strict';
// timers-cancel: as timers-spread, then every odd-numbered timeout is cleared before the loop
// runs; ceil(N/2) fire. uvgo: BenchmarkNodeTimersCancel.
const { runTimers, spread } = require('./timers.js');
runTimers('timers-cancel', spread, true);
