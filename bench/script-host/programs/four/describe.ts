export function describe(count: number, total: number): string {
  return `${count} shapes, total area ${total.toFixed(2)}`;
}
