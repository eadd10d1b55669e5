import { args, exit } from "kiln";

console.log("before exit", args.length);
setTimeout(() => console.log("timer never fires"), 10);
Promise.resolve().then(() => console.log("microtask never runs"));
exit(7);
console.log("after exit");
