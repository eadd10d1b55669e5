import { randomBytes, timingSafeEqual } from "node:crypto";
import type { AuthorizeRequest } from "@kiln/service";
import { CsrfField } from "../../components/csrf-field.js";
import type { WebContext } from "../../env.js";
import { type Fields, here } from "../../forms.js";
import { errorPage } from "../../layout/error-page.js";
import { useHref } from "../../layout/frame.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { seeOther } from "../../responses.js";

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

/** Whether the consent form's request id is the one the session remembers, in constant time. */
function sameRequestId(remembered: string | undefined, posted: string): boolean {
  if (!remembered) return false;
  const a = Buffer.from(remembered);
  const b = Buffer.from(posted);
  return a.length === b.length && timingSafeEqual(a, b);
}

const toSignIn = (c: WebContext) => seeOther(c, `/user/login?redirect_to=${encodeURIComponent(here(c))}`);

function Consent(props: {
  appName: string;
  owner: string;
  userName: string;
  request: AuthorizeRequest;
  requestId: string;
}) {
  const href = useHref();
  const { request } = props;
  const scope = request.scope.trim();
  return (
    <section class="card">
      <h1>Authorize application</h1>
      <p>
        <strong>{props.appName}</strong>
        {props.owner ? (
          <>
            {" "}
            (registered by <strong>@{props.owner}</strong>)
          </>
        ) : null}{" "}
        wants to access your account <strong>{props.userName}</strong>
        {scope ? (
          <>
            {" "}
            with the scopes <code>{scope}</code>
          </>
        ) : null}
        .
      </p>
      <p>
        You will be redirected to <strong>{request.redirectUri}</strong>.
      </p>
      <form method="post" action={href("/login/oauth/grant")} class="form">
        <CsrfField />
        <input type="hidden" name="request_id" value={props.requestId} />
        <input type="hidden" name="client_id" value={request.clientId} />
        <input type="hidden" name="state" value={request.state} />
        <input type="hidden" name="scope" value={request.scope} />
        <input type="hidden" name="nonce" value={request.nonce} />
        <input type="hidden" name="redirect_uri" value={request.redirectUri} />
        <div class="button-row">
          <button type="submit" name="granted" value="true" class="button button-primary">
            Authorize application
          </button>
          <button type="submit" name="granted" value="false" class="button">
            Cancel
          </button>
        </div>
      </form>
    </section>
  );
}

/** Forgejo's AuthorizeOAuth: sign in first, then the consent page (or a redirect to the client). */
async function authorize(c: WebContext, fields: Fields): Promise<Response> {
  const session = c.get("session");
  const user = c.get("actor").user;
  if (!session || !user) return toSignIn(c);
  const services = c.get("services");
  const request = authorizeRequest(fields);
  const outcome = await services.oauth2Authorizer.authorize(user, request);
  if (outcome.kind === "error") {
    return errorPage(
      c,
      400,
      `The application's request cannot be accepted: ${outcome.error.code}: ${outcome.error.description}`,
    );
  }
  if (outcome.kind === "redirect") return c.redirect(outcome.location, 303);
  // Remember what the page shows, under a fresh id the form carries back: the grant must answer
  // exactly this request, not one an application slipped into the session after the page was shown.
  const requestId = randomBytes(16).toString("base64url");
  if (!(await services.webSessions.update(session, { ...session.data, oauth: { ...request, requestId } })))
    return toSignIn(c);
  return render(
    c,
    { title: "Authorize application", narrow: true },
    <Consent
      appName={outcome.application.name}
      owner={outcome.owner?.name ?? ""}
      userName={user.name}
      request={request}
      requestId={requestId}
    />,
  );
}

const enabled = (c: WebContext) => c.get("settings").oauth2.enabled;

/** The authorization endpoint, as a link (GET). */
export const authorizeGet = page({
  method: "get",
  path: "/login/oauth/authorize",
  access: "public",
  formsLeaveSite: true,
  handler: (c, fields) => (enabled(c) ? authorize(c, fields) : errorPage(c, 403, "OAuth2 is disabled.")),
});

/**
 * The authorization endpoint, as a form post (Forgejo takes both). Posted by other sites, so a
 * CSRF token cannot be had: it only shows the consent page, whose own form is checked.
 */
export const authorizePost = page({
  method: "post",
  path: "/login/oauth/authorize",
  access: "public",
  formsLeaveSite: true,
  csrfExempt: true,
  handler: (c, fields) => (enabled(c) ? authorize(c, fields) : errorPage(c, 403, "OAuth2 is disabled.")),
});

/** Forgejo's GrantApplicationOAuth: the consent form's answer. */
export const grant = page({
  method: "post",
  path: "/login/oauth/grant",
  access: "public",
  formsLeaveSite: true,
  async handler(c, form) {
    if (!enabled(c)) return errorPage(c, 403, "OAuth2 is disabled.");
    const session = c.get("session");
    const user = c.get("actor").user;
    if (!session || !user) return seeOther(c, "/user/login");
    const shown = session.data.oauth;
    if (
      !shown ||
      !sameRequestId(shown.requestId, form("request_id")) ||
      shown.clientId !== form("client_id") ||
      shown.state !== form("state") ||
      shown.redirectUri !== form("redirect_uri")
    ) {
      return errorPage(c, 400, "This authorization request is not the one shown.");
    }
    const services = c.get("services");
    const { oauth: _, ...rest } = session.data;
    if (!(await services.webSessions.update(session, rest))) return seeOther(c, "/user/login");
    const { requestId: _id, ...remembered } = shown;
    const request = remembered as unknown as AuthorizeRequest;
    return c.redirect(await services.oauth2Authorizer.grant(user, request, form("granted") === "true"), 303);
  },
});

/** The OAuth2 provider's pages: authorization and consent (the machine endpoints stay with the API). */
export const oauthRoutes = [authorizeGet, authorizePost, grant];
