import { a } from "./a.ts";
import { shared } from "./shared.ts";

console.log("main", a, shared.count);
