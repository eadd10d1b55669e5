import { version } from "../lib/version.js";
import { decorate } from "./util/decorate.ts";

console.log("greet.ts url:", import.meta.url);
export function greet(name: string): string {
  return decorate(`hello ${name} v${version}`);
}
