import { randomBytes, timingSafeEqual } from "node:crypto";
import type { AuthorizeRequest } from "@kiln/service";
import type { AppContext, Mount } from "../env.js";
import { type Fields, queryFields, readForm } from "./form.js";
import { hidden, html, page, seeOther } from "./html.js";
import { badCsrf, logoutForm } from "./login-pages.js";
import { csrfOk, signedIn } from "./session.js";

function authorizeRequest(fields: Fields): AuthorizeRequest {
  return {
    responseType: fields("response_type"),
    clientId: fields("client_id"),
    redirectUri: fields("redirect_uri"),
    state: fields("state"),
    scope: fields("scope"),
    nonce: fields("nonce"),
    codeChallenge: fields("code_challenge"),
    codeChallengeMethod: fields("code_challenge_method"),
  };
}

/** The path and query the browser asked for, to come back to after signing in. */
function here(c: AppContext): string {
  const url = new URL(c.req.url);
  return `${url.pathname}${url.search}`;
}

/** Whether the consent form's request id is the one the session remembers, in constant time. */
function sameRequestId(remembered: string | undefined, posted: string): boolean {
  if (!remembered) return false;
  const a = Buffer.from(remembered);
  const b = Buffer.from(posted);
  return a.length === b.length && timingSafeEqual(a, b);
}

function errorPage(c: AppContext, code: string, description: string): Response {
  return page(
    c,
    "Authorization failed",
    html`<p class="error">The application's request cannot be accepted: <code>${code}</code>: ${description}</p>`,
    400,
  );
}

/** Forgejo's AuthorizeOAuth: sign in first, then the consent page (or a redirect to the client). */
async function authorize(c: AppContext, fields: Fields): Promise<Response> {
  const session = await signedIn(c);
  if (!session?.user) return seeOther(`/user/login?redirect_to=${encodeURIComponent(here(c))}`);
  const services = c.get("services");
  const request = authorizeRequest(fields);
  const outcome = await services.oauth2Authorizer.authorize(session.user, request);
  if (outcome.kind === "error") return errorPage(c, outcome.error.code, outcome.error.description);
  if (outcome.kind === "redirect") return seeOther(outcome.location);
  // Remember what the page shows, under a fresh id the form carries back: the grant must answer
  // exactly this request, not one an application slipped into the session after the page was shown.
  const requestId = randomBytes(16).toString("base64url");
  const oauth = { ...request, requestId };
  if (!(await services.webSessions.update(session, { ...session.data, oauth })))
    return seeOther(`/user/login?redirect_to=${encodeURIComponent(here(c))}`);
  const app = outcome.application;
  const owner = outcome.owner?.name ?? "";
  const csrf = services.webSessions.csrfToken(session.cookie);
  const scope = request.scope.trim();
  return page(
    c,
    "Authorize application",
    html`<p><strong>${app.name}</strong>${owner ? html` (registered by <strong>@${owner}</strong>)` : html``} wants to
access your account <strong>${session.user.name}</strong>${scope ? html` with the scopes <code>${scope}</code>` : html``}.</p>
<p>You will be redirected to <strong>${request.redirectUri}</strong>.</p>
<form method="post" action="/login/oauth/grant">
${hidden("_csrf", csrf)}
${hidden("request_id", requestId)}
${hidden("client_id", request.clientId)}
${hidden("state", request.state)}
${hidden("scope", request.scope)}
${hidden("nonce", request.nonce)}
${hidden("redirect_uri", request.redirectUri)}
<button type="submit" name="granted" value="true">Authorize application</button>
<button type="submit" name="granted" value="false">Cancel</button>
</form>
${logoutForm(c, session)}`,
  );
}

/** Forgejo's GrantApplicationOAuth: the consent form's answer. */
async function grant(c: AppContext): Promise<Response> {
  const form = await readForm(c);
  const session = await signedIn(c);
  if (!session?.user) return seeOther("/user/login");
  if (!csrfOk(c, form("_csrf"))) return badCsrf(c);
  const shown = session.data.oauth;
  if (
    !shown ||
    !sameRequestId(shown.requestId, form("request_id")) ||
    shown.clientId !== form("client_id") ||
    shown.state !== form("state") ||
    shown.redirectUri !== form("redirect_uri")
  ) {
    return page(
      c,
      "Bad request",
      html`<p class="error">This authorization request is not the one shown.</p>`,
      400,
    );
  }
  const services = c.get("services");
  const { oauth: _, ...rest } = session.data;
  if (!(await services.webSessions.update(session, rest))) return seeOther("/user/login");
  const { requestId: _id, ...remembered } = shown;
  const request = remembered as unknown as AuthorizeRequest;
  return seeOther(await services.oauth2Authorizer.grant(session.user, request, form("granted") === "true"));
}

/** The authorization endpoint (GET and POST, as Forgejo) and the consent form's target. */
export function mountOAuthPages(mount: Mount): void {
  const enabled =
    (handler: (c: AppContext) => Promise<Response>) =>
    (c: AppContext): Promise<Response> | Response =>
      c.get("settings").oauth2.enabled
        ? handler(c)
        : page(c, "Forbidden", html`<p>OAuth2 is disabled.</p>`, 403);
  mount(
    "get",
    "/login/oauth/authorize",
    enabled((c) => authorize(c, queryFields(c))),
  );
  mount(
    "post",
    "/login/oauth/authorize",
    enabled(async (c) => authorize(c, await readForm(c))),
  );
  mount("post", "/login/oauth/grant", enabled(grant));
}
