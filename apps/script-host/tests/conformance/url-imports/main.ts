import { greet } from "{{ORIGIN}}/lib/greet.ts";
import { version } from "{{ORIGIN}}/lib/version.js";

console.log(greet("remote"), version);
console.log(import.meta.url.startsWith("file:///"));
