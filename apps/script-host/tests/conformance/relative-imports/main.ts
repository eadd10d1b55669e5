import { shout as loud } from "./lib/index.ts";
import greet, { PI, square } from "./lib/math.ts";
import * as strings from "./lib/strings.ts";
import type { Shape } from "./lib/types.ts";

const shape: Shape = { kind: "circle", r: 2 };
console.log(square(3), PI.toFixed(2));
console.log(greet("imports"));
console.log(strings.upper("namespace"), Object.keys(strings).sort().join(","));
console.log(loud("re-export"), shape.kind);
