// 10,000 timers started at once, all due immediately: measures messages across the boundary
// (TIMER_START out, TIMER_READY back), not how timers are clamped.
const count = 10_000;
let fired = 0;
for (let i = 0; i < count; i++) {
  setTimeout(() => {
    fired++;
    if (fired === count) console.log(`${fired} timers fired`);
  }, 0);
}
