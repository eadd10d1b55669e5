export const PI: number = Math.PI;

export function square(x: number): number {
  return x * x;
}

export default function greet(name: string): string {
  return `hello ${name}`;
}
