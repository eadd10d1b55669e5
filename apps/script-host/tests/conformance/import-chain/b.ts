import { c } from "./c.ts";
import { shared } from "./shared.ts";

shared.count++;
console.log("b");
export const b: string = `b(${c})`;
