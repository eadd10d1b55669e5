import type { Label } from "@kiln/domain";
import { raw } from "hono/html";
import { useFrame } from "../layout/frame.js";

/** A stored label colour (`#rrggbb`), or grey for anything else, so it is always safe in CSS. */
function colorOf(label: Pick<Label, "color">): string {
  return /^#[0-9a-f]{6}$/.test(label.color) ? label.color.slice(1) : "8b949e";
}

/** WCAG relative luminance of a `rrggbb` colour. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4);
}

/**
 * The text colour that reads best on a label's colour: black or white, whichever has the higher
 * contrast ratio (at least 4.5:1 for any background, so every label's name stays readable).
 */
export function textColorOn(hex: string): "#000000" | "#ffffff" {
  const l = luminance(hex);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? "#000000" : "#ffffff";
}

/**
 * One `<style>` element (with the response's nonce: the policy allows no inline style attribute)
 * giving each label colour of the page a class, `label-c-rrggbb`.
 */
export function LabelStyles(props: { labels: readonly Pick<Label, "color">[] }) {
  const { nonce } = useFrame();
  const colors = [...new Set(props.labels.map(colorOf))];
  if (colors.length === 0) return null;
  const rules = colors.map((c) => `.label-c-${c}{background:#${c};color:${textColorOn(c)}}`).join("");
  return raw(`<style nonce="${nonce}">${rules}</style>`);
}

/** A label: its name on its colour (the page carries {@link LabelStyles} for its labels), its description as a tooltip. */
export function LabelBadge(props: { label: Pick<Label, "name" | "color" | "description">; href?: string }) {
  const cls = `label label-c-${colorOf(props.label)}`;
  const title = props.label.description || undefined;
  return props.href ? (
    <a class={cls} href={props.href} title={title}>
      {props.label.name}
    </a>
  ) : (
    <span class={cls} title={title}>
      {props.label.name}
    </span>
  );
}
