import { args } from "kiln";

console.log(JSON.stringify(args));
