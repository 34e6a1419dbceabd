// A signal sent to ourselves: process.kill returns true at once, the listener gets the
// signal's name and number later, from the loop; the listener alone does not keep the
// process alive, so a timer waits for it and is cleared by it.
const timer = setTimeout(() => console.log('timeout (unexpected)'), 10000);
process.on('SIGUSR2', (name, number) => {
  console.log('got', name, number);
  clearTimeout(timer);
  process.removeAllListeners('SIGUSR2');
});
console.log('kill returns', process.kill(process.pid, 'SIGUSR2'));
console.log('after kill');
