import { useFrame } from "../layout/frame.js";

/** The hidden CSRF field every form that posts carries. */
export function CsrfField() {
  return <input type="hidden" name="_csrf" value={useFrame().csrf()} />;
}
