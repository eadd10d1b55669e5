export * from "./shout.ts";
