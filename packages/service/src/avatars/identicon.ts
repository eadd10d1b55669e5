import { createHash } from "node:crypto";
import { PNG } from "pngjs";

/** Side of a generated avatar in pixels (Forgejo renders avatars at 290 px). */
const SIZE = 290;
const CELLS = 5;
const MARGIN = 20;

/**
 * A deterministic identicon for `seed` as PNG bytes: a 5×5 pattern, mirrored left to right, in
 * one colour on a light background, both chosen from the seed's SHA-256. The same seed always
 * gives the same bytes; PNG encoding is pngjs's.
 */
export function identiconPng(seed: string): Buffer {
  const digest = createHash("sha256").update(seed).digest();
  const fg = hslToRgb(((digest[0] ?? 0) * 360) / 256, 0.45 + ((digest[1] ?? 0) % 32) / 100, 0.5);
  const bg = [240, 240, 240] as const;
  const on: boolean[][] = [];
  for (let row = 0; row < CELLS; row++) {
    const line: boolean[] = [];
    for (let col = 0; col < Math.ceil(CELLS / 2); col++) {
      line.push(((digest[2 + row * 3 + col] ?? 0) & 1) === 1);
    }
    on.push(line);
  }
  const png = new PNG({ width: SIZE, height: SIZE });
  const cell = (SIZE - 2 * MARGIN) / CELLS;
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const col = Math.floor((x - MARGIN) / cell);
      const row = Math.floor((y - MARGIN) / cell);
      const inside = x >= MARGIN && y >= MARGIN && col < CELLS && row < CELLS;
      const mirrored = col < Math.ceil(CELLS / 2) ? col : CELLS - 1 - col;
      const color = inside && on[row]?.[mirrored] ? fg : bg;
      const i = (y * SIZE + x) * 4;
      png.data[i] = color[0];
      png.data[i + 1] = color[1];
      png.data[i + 2] = color[2];
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

function hslToRgb(h: number, s: number, l: number): readonly [number, number, number] {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] =
    h < 60
      ? [c, x, 0]
      : h < 120
        ? [x, c, 0]
        : h < 180
          ? [0, c, x]
          : h < 240
            ? [0, x, c]
            : h < 300
              ? [x, 0, c]
              : [c, 0, x];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}
