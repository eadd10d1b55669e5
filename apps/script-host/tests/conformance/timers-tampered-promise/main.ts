// A script that breaks the promise built-ins still gets its timers, in order, and its run ends:
// the runtime chains a batch's messages with the built-ins it took before any script ran.
const log: string[] = [];
setTimeout(() => log.push("a"), 0);
setTimeout(() => log.push("b"), 0);
setTimeout(() => console.log(`${log.join(",")},c`), 0);
// biome-ignore lint/suspicious/noThenProperty: a hostile script replaces the built-in on purpose
Promise.prototype.then = () => {
  throw new Error("tampered then");
};
Promise.all = () => {
  throw new Error("tampered all");
};
