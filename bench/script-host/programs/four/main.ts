import { describe } from "./describe.ts";
import { sum } from "./math.ts";
import type { Shape } from "./shapes.ts";
import { area, shapes } from "./shapes.ts";

const total: number = sum(shapes.map((shape: Shape) => area(shape)));
console.log(describe(shapes.length, total));
