import type { User } from "@kiln/domain";
import { createContext, useContext } from "hono/jsx";
import type { StaticAssets } from "../static/static-assets.js";

/** What every part of a page may need to know about the request: rendered into links and forms. */
export interface Frame {
  /** The site's path prefix (from ROOT_URL), put before every link. */
  readonly base: string;
  /** The signed-in user, or null. */
  readonly user: User | null;
  /** The CSRF token of the visitor's forms (computed, and a cookie set, only when a form asks). */
  readonly csrf: () => string;
  readonly nonce: string;
  readonly assets: StaticAssets;
  /** The page's own path and query (for sign-in links that come back here). */
  readonly here: string;
  /** Whether the sign-up page is open. */
  readonly registrationOpen: boolean;
}

const FrameContext = createContext<Frame | null>(null);

/** Provides the frame to the components of one page. */
export const FrameProvider = FrameContext.Provider;

/** The frame of the page being rendered. */
export function useFrame(): Frame {
  const frame = useContext(FrameContext);
  if (!frame) throw new Error("a page component was rendered outside a page");
  return frame;
}

/** A link to a path of this site (the base path put before it). */
export function useHref(): (path: string) => string {
  const { base } = useFrame();
  return (path) => `${base}${path}`;
}
