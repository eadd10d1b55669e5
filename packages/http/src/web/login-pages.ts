import type { User } from "@kiln/domain";
import { isKilnError } from "@kiln/domain";
import type { SessionData, WebSession } from "@kiln/service";
import type { AppContext, Mount } from "../env.js";
import { type Fields, queryFields, readForm, safeRedirect } from "./form.js";
import { type Html, hidden, html, page, seeOther } from "./html.js";
import {
  clearSessionCookie,
  csrfOk,
  formCookie,
  sessionCookie,
  setSessionCookie,
  signedIn,
} from "./session.js";

/** Where a signed-in user lands when the sign-in had no `redirect_to`. */
export const HOME = "/user/settings/security";

/** Wrong passcodes tolerated at the TOTP step before the half-open session is dropped. */
const MAX_TOTP_FAILURES = 5;

function loginForm(c: AppContext, headers: Headers, redirectTo: string, error = "", userName = ""): Response {
  const cookie = formCookie(c, headers);
  const body = html`${error ? html`<p class="error">${error}</p>` : html``}
<form method="post" action="/user/login">
${hidden("_csrf", c.get("services").webSessions.csrfToken(cookie))}
${redirectTo ? hidden("redirect_to", redirectTo) : html``}
<label for="user_name">Username or email address</label>
<input type="text" id="user_name" name="user_name" value="${userName}" autocomplete="username" required autofocus>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>`;
  const response = page(c, "Sign in", body, error ? 200 : 200);
  for (const cookieHeader of headers.getSetCookie()) response.headers.append("set-cookie", cookieHeader);
  return response;
}

function totpForm(c: AppContext, session: WebSession, error = ""): Response {
  const csrf = c.get("services").webSessions.csrfToken(session.cookie);
  const body = html`${error ? html`<p class="error">${error}</p>` : html``}
<p>Enter the passcode from your authenticator app.</p>
<form method="post" action="/user/two_factor">
${hidden("_csrf", csrf)}
<label for="passcode">Passcode</label>
<input type="text" id="passcode" name="passcode" inputmode="numeric" autocomplete="one-time-code" required autofocus>
<button type="submit">Verify</button>
</form>
<p>Lost your device? Use one of your recovery codes.</p>
<form method="post" action="/user/two_factor/scratch">
${hidden("_csrf", csrf)}
<label for="token">Recovery code</label>
<input type="text" id="token" name="token" autocomplete="off" required>
<button type="submit">Use recovery code</button>
</form>`;
  return page(c, "Two-factor authentication", body, error ? 401 : 200);
}

/** A page saying the form's CSRF token was wrong (a stale page, or a forged post). */
export function badCsrf(c: AppContext): Response {
  return page(
    c,
    "Bad request",
    html`<p class="error">Invalid CSRF token. Reload the page and try again.</p>`,
    400,
  );
}

/** Signs a user in completely: a new session (new cookie), then on to where they were going. */
async function finishSignIn(c: AppContext, user: User, redirectTo: string | undefined): Promise<Response> {
  const cookie = await c.get("services").webSessions.start(user, false, {});
  const headers = new Headers();
  setSessionCookie(c, cookie, headers);
  return seeOther(redirectTo ?? HOME, headers);
}

async function postLogin(c: AppContext): Promise<Response> {
  const form = await readForm(c);
  const redirectTo = safeRedirect(form("redirect_to"));
  if (!csrfOk(c, form("_csrf"))) return badCsrf(c);
  const services = c.get("services");
  const userName = form("user_name");
  const user = await services.auth.checkPassword(userName, form("password"));
  if (!user)
    return loginForm(c, new Headers(), redirectTo ?? "", "Username or password is incorrect.", userName);
  try {
    services.auth.checkAccount(user);
  } catch (err) {
    if (!isKilnError(err)) throw err;
    return page(c, "Sign in", html`<p class="error">${err.message}</p>`, 403);
  }
  if (await services.twoFactor.isEnrolled(user)) {
    const data: SessionData = redirectTo ? { redirectTo } : {};
    const cookie = await services.webSessions.start(user, true, data);
    const headers = new Headers();
    setSessionCookie(c, cookie, headers);
    return seeOther("/user/two_factor", headers);
  }
  return finishSignIn(c, user, redirectTo);
}

/** The half-signed-in session of the TOTP step, or a redirect back to the sign-in page. */
async function pendingSession(c: AppContext): Promise<WebSession | Response> {
  const session = await c.get("services").webSessions.load(sessionCookie(c));
  if (!session?.pendingUser) return seeOther("/user/login");
  return session;
}

async function postTotp(
  c: AppContext,
  check: (user: User, fields: Fields) => Promise<boolean>,
): Promise<Response> {
  const form = await readForm(c);
  const session = await pendingSession(c);
  if (session instanceof Response) return session;
  if (!csrfOk(c, form("_csrf"))) return badCsrf(c);
  const services = c.get("services");
  const user = session.pendingUser as User;
  if (!(await check(user, form))) {
    const failures = (session.data.failures ?? 0) + 1;
    if (failures >= MAX_TOTP_FAILURES) {
      await services.webSessions.end(session.cookie);
      const headers = new Headers();
      clearSessionCookie(c, headers);
      return seeOther("/user/login", headers);
    }
    if (!(await services.webSessions.update(session, { ...session.data, failures })))
      return seeOther("/user/login");
    return totpForm(c, session, "The code is not valid.");
  }
  await services.webSessions.end(session.cookie);
  return finishSignIn(c, user, session.data.redirectTo);
}

async function postLogout(c: AppContext): Promise<Response> {
  const form = await readForm(c);
  const headers = new Headers();
  const cookie = sessionCookie(c);
  if (!csrfOk(c, form("_csrf"))) return badCsrf(c);
  if (cookie) await c.get("services").webSessions.end(cookie);
  clearSessionCookie(c, headers);
  return seeOther("/user/login", headers);
}

/** A sign-out form (pages that show a signed-in user carry one). */
export function logoutForm(c: AppContext, session: WebSession): Html {
  return html`<form method="post" action="/user/logout">${hidden("_csrf", c.get("services").webSessions.csrfToken(session.cookie))}<button type="submit">Sign out</button></form>`;
}

/**
 * The sign-in pages (Forgejo's routers/web/auth/auth.go and 2fa.go): `/user/login` (fields
 * `user_name`, `password`, `_csrf`, and a same-site `redirect_to`), the TOTP step
 * `/user/two_factor` (a passcode) and `/user/two_factor/scratch` (a recovery code), `/user/logout`.
 */
export function mountLoginPages(mount: Mount): void {
  mount("get", "/user/login", async (c) => {
    const redirectTo = safeRedirect(queryFields(c)("redirect_to"));
    if (await signedIn(c)) return seeOther(redirectTo ?? HOME);
    return loginForm(c, new Headers(), redirectTo ?? "");
  });
  mount("post", "/user/login", postLogin);
  mount("get", "/user/two_factor", async (c) => {
    const session = await pendingSession(c);
    return session instanceof Response ? session : totpForm(c, session);
  });
  mount("post", "/user/two_factor", (c) =>
    postTotp(c, (user, form) => c.get("services").twoFactor.checkPasscode(user, form("passcode"))),
  );
  mount("post", "/user/two_factor/scratch", (c) =>
    postTotp(c, (user, form) => c.get("services").twoFactor.useRecoveryCode(user, form("token"))),
  );
  mount("post", "/user/logout", postLogout);
}
