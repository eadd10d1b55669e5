import type { Child } from "hono/jsx";
import type { WebContext } from "../env.js";
import { csrfToken } from "../security/csrf.js";
import { basePath } from "../urls.js";
import { type Frame, FrameProvider } from "./frame.js";
import { Layout, type PageOptions } from "./layout.js";

/** The frame of a request: who is signed in, the nonce, the assets, the CSRF token on demand. */
export function frameOf(c: WebContext): Frame {
  const url = new URL(c.req.url);
  let token: string | undefined;
  return {
    base: basePath(c.get("settings")),
    user: c.get("actor").user,
    csrf: () => {
      token ??= csrfToken(c);
      return token;
    },
    nonce: c.get("nonce"),
    assets: c.get("assets"),
    here: `${url.pathname}${url.search}`,
    registrationOpen: c.get("services").registrations.open,
  };
}

/** Answers with a page in the layout. */
export function render(c: WebContext, options: PageOptions, body: Child): Response | Promise<Response> {
  const page = (
    <FrameProvider value={frameOf(c)}>
      <Layout options={options}>{body}</Layout>
    </FrameProvider>
  );
  return c.html(`<!DOCTYPE html>${page}`, (options.status ?? 200) as 200);
}
