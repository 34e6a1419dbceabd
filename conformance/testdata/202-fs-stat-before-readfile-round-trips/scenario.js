// readFile takes four work-pool round trips (open, fstat, read, close), so a stat started
// after it still calls back first, and so does a second stat started from the first one's
// callback; a third, started from the second's, still beats it... up to readFile's count.
// On a loaded machine a pool worker can be descheduled long enough for readFile to win
// against the second stat: expected-alt.txt is that order.
const fs = require('fs');
fs.readFile(__filename, (err, data) => console.log('readFile', err, data.length > 0));
let n = 0;
(function statAgain() {
  fs.stat(__filename, (err) => {
    n++;
    console.log('stat', n, err);
    if (n < 2) statAgain();
  });
})();
console.log('main end');
