import { isKilnError } from "@kiln/domain";
import type { WebSession } from "@kiln/service";
import type { AppContext, Mount } from "../env.js";
import { readForm } from "./form.js";
import { type Html, hidden, html, page, seeOther } from "./html.js";
import { badCsrf, logoutForm } from "./login-pages.js";
import { csrfOk, signedIn } from "./session.js";

const SECURITY = "/user/settings/security";
const ENROLL = `${SECURITY}/two_factor/enroll`;

/** The signed-in session, or a redirect to the sign-in page that comes back here. */
async function requireSession(c: AppContext, back: string): Promise<WebSession | Response> {
  return (await signedIn(c)) ?? seeOther(`/user/login?redirect_to=${encodeURIComponent(back)}`);
}

function csrfField(c: AppContext, session: WebSession): Html {
  return hidden("_csrf", c.get("services").webSessions.csrfToken(session.cookie));
}

function recoveryCodesPage(c: AppContext, session: WebSession, codes: readonly string[]): Response {
  const items = codes.map((code) => html`<li><code>${code}</code></li>`);
  return page(
    c,
    "Recovery codes",
    html`<p>Two-factor authentication is on. Keep these recovery codes somewhere safe: each signs you in once
when you cannot use your authenticator. They are shown only now.</p>
<ul>${items}</ul>
<p><a href="${SECURITY}">Back to security settings</a></p>
${logoutForm(c, session)}`,
  );
}

async function securityPage(c: AppContext): Promise<Response> {
  const session = await requireSession(c, SECURITY);
  if (session instanceof Response) return session;
  const user = session.user!;
  const twoFactor = c.get("services").twoFactor;
  const enrolled = await twoFactor.isEnrolled(user);
  const body = enrolled
    ? html`<p>Signed in as <strong>${user.name}</strong>. Two-factor authentication is <strong>on</strong>
(${String(await twoFactor.remainingRecoveryCodes(user))} recovery codes left).</p>
<form method="post" action="${SECURITY}/two_factor/regenerate_scratch">${csrfField(c, session)}<button type="submit">Regenerate recovery codes</button></form>
<form method="post" action="${SECURITY}/two_factor/disable">${csrfField(c, session)}<button type="submit">Disable two-factor authentication</button></form>`
    : html`<p>Signed in as <strong>${user.name}</strong>. Two-factor authentication is <strong>off</strong>.</p>
<p><a href="${ENROLL}">Enroll an authenticator app</a></p>`;
  return page(c, "Security", html`${body}${logoutForm(c, session)}`);
}

async function enrollPage(c: AppContext, session: WebSession, error = ""): Promise<Response> {
  const services = c.get("services");
  const user = session.user!;
  const { secret, sealed } = services.twoFactor.newSecret();
  if (!(await services.webSessions.update(session, { ...session.data, enrolSecret: sealed })))
    return seeOther("/user/login");
  const uri = services.twoFactor.otpauthUri(user, secret);
  return page(
    c,
    "Enroll two-factor authentication",
    html`${error ? html`<p class="error">${error}</p>` : html``}
<p>Add this account to your authenticator app with the secret <code id="secret">${secret}</code>
or the URI <code id="otpauth">${uri}</code>, then enter the passcode it shows.</p>
<form method="post" action="${ENROLL}">
${csrfField(c, session)}
<label for="passcode">Passcode</label>
<input type="text" id="passcode" name="passcode" inputmode="numeric" autocomplete="one-time-code" required autofocus>
<button type="submit">Verify</button>
</form>`,
    error ? 422 : 200,
  );
}

async function postEnroll(c: AppContext): Promise<Response> {
  const form = await readForm(c);
  const session = await requireSession(c, ENROLL);
  if (session instanceof Response) return session;
  if (!csrfOk(c, form("_csrf"))) return badCsrf(c);
  const services = c.get("services");
  const user = session.user!;
  if (await services.twoFactor.isEnrolled(user)) return seeOther(SECURITY);
  const sealed = session.data.enrolSecret;
  if (!sealed) return seeOther(ENROLL);
  try {
    const codes = await services.twoFactor.enrol(user, sealed, form("passcode"));
    const { enrolSecret: _, ...rest } = session.data;
    await services.webSessions.update(session, rest);
    return recoveryCodesPage(c, session, codes);
  } catch (err) {
    if (!isKilnError(err)) throw err;
    return enrollPage(c, session, "The passcode is not valid; scan the new secret and try again.");
  }
}

async function postAction(c: AppContext, act: (session: WebSession) => Promise<Response>): Promise<Response> {
  const form = await readForm(c);
  const session = await requireSession(c, SECURITY);
  if (session instanceof Response) return session;
  if (!csrfOk(c, form("_csrf"))) return badCsrf(c);
  return act(session);
}

/**
 * TOTP settings (Forgejo's routers/web/user/setting/security/2fa.go): enrolment shows a new
 * secret and its otpauth URI and confirms it with a passcode, then shows the recovery codes once;
 * `disable` and `regenerate_scratch` (new recovery codes). Signed-in sessions only, CSRF-checked.
 */
export function mountTwoFactorPages(mount: Mount): void {
  mount("get", SECURITY, securityPage);
  mount("get", ENROLL, async (c) => {
    const session = await requireSession(c, ENROLL);
    if (session instanceof Response) return session;
    if (await c.get("services").twoFactor.isEnrolled(session.user!)) return seeOther(SECURITY);
    return enrollPage(c, session);
  });
  mount("post", ENROLL, postEnroll);
  mount("post", `${SECURITY}/two_factor/disable`, (c) =>
    postAction(c, async (session) => {
      await c.get("services").twoFactor.disable(session.user!);
      return seeOther(SECURITY);
    }),
  );
  mount("post", `${SECURITY}/two_factor/regenerate_scratch`, (c) =>
    postAction(c, async (session) => {
      try {
        const codes = await c.get("services").twoFactor.regenerateRecoveryCodes(session.user!);
        return recoveryCodesPage(c, session, codes);
      } catch (err) {
        if (!isKilnError(err)) throw err;
        return seeOther(SECURITY);
      }
    }),
  );
}
