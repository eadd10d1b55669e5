import { broken } from "./fixtures/bad.ts";

console.log("never", broken);
