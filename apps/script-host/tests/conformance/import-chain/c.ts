import { d } from "./d.js";

console.log("c");
export const c: string = `c(${d})`;
