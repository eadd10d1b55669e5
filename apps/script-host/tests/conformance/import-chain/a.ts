import { b } from "./b.ts";
import { shared } from "./shared.ts";

shared.count++;
console.log("a");
export const a: string = `a(${b})`;
