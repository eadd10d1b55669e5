// Only types: an `import type` of this module must not evaluate it.
export interface Shape {
  kind: string;
  r: number;
}
throw new Error("types.ts must not be evaluated");
