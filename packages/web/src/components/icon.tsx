import { raw } from "hono/html";
import { useFrame } from "../layout/frame.js";
import type { IconName } from "../static/icons.js";

/** An Octicon from the sprite, decorative (hidden from assistive technology; the text beside it says it). */
export function Icon(props: { name: IconName; class?: string }) {
  const sprite = useFrame().assets.url("icons.svg");
  const extra = props.class ? ` ${props.class}` : "";
  return raw(
    `<svg class="octicon${extra}" width="16" height="16" aria-hidden="true" focusable="false"><use href="${sprite}#${props.name}"></use></svg>`,
  );
}
