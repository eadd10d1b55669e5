import { square } from "./math.ts";

export interface Shape {
  readonly kind: "circle" | "square";
  readonly size: number;
}

export const shapes: Shape[] = [
  { kind: "circle", size: 1 },
  { kind: "square", size: 2 },
  { kind: "circle", size: 3 },
];

export function area(shape: Shape): number {
  return shape.kind === "circle" ? Math.PI * square(shape.size) : square(shape.size);
}
