/** A semantic version (2.0.0), with an optional leading `v` as hashicorp/go-version's NewSemver takes. */
const SEMVER =
  /^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** What go-version's NewVersion accepts (so a dist-tag spelled like one is refused, as in Forgejo). */
const LOOSE_VERSION = /^v?\d+(\.\d+)*(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** The version normalized (no leading `v`), or undefined when it is not a semantic version. */
export function parseSemver(text: string): string | undefined {
  return text.length <= 256 && SEMVER.test(text) ? text.replace(/^v/, "") : undefined;
}

/** Whether a tag name reads as a version (npm dist-tags may not). */
export function looksLikeVersion(text: string): boolean {
  return LOOSE_VERSION.test(text);
}

/** Orders two semantic versions by precedence (build metadata ignored, then text for a stable order). */
export function compareSemver(a: string, b: string): number {
  const pa = SEMVER.exec(a);
  const pb = SEMVER.exec(b);
  if (!pa || !pb) return a < b ? -1 : a > b ? 1 : 0;
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return d;
  }
  const preA = pa[4];
  const preB = pb[4];
  if (preA === undefined || preB === undefined) {
    if (preA !== preB) return preA === undefined ? 1 : -1;
  } else {
    const xs = preA.split(".");
    const ys = preB.split(".");
    for (let i = 0; i < Math.max(xs.length, ys.length); i++) {
      const x = xs[i];
      const y = ys[i];
      if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
      const nx = /^\d+$/.test(x);
      const ny = /^\d+$/.test(y);
      if (nx && ny && Number(x) !== Number(y)) return Number(x) - Number(y);
      if (nx !== ny) return nx ? -1 : 1;
      if (x !== y) return x < y ? -1 : 1;
    }
  }
  return a < b ? -1 : a > b ? 1 : 0;
}
