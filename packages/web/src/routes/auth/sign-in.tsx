import { isKilnError, type User } from "@kiln/domain";
import type { SessionData, WebSession } from "@kiln/service";
import { CsrfField } from "../../components/csrf-field.js";
import type { WebContext } from "../../env.js";
import { safeRedirect } from "../../forms.js";
import { useHref } from "../../layout/frame.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { seeOther } from "../../responses.js";
import { clearSessionCookie, sessionCookie, setSessionCookie } from "../../security/cookies.js";
import { TotpForms } from "./totp-forms.js";

/** Where a user lands after signing in without a `redirect_to`: the dashboard, as in Forgejo. */
export const HOME = "/";

/** Wrong passcodes tolerated at the TOTP step before the half-open session is dropped. */
const MAX_TOTP_FAILURES = 5;

function SignInForm(props: { redirectTo: string; userName: string; error: string }) {
  const href = useHref();
  return (
    <section class="card">
      <h1>Sign in</h1>
      {props.error ? (
        <p class="flash flash-error" role="alert">
          {props.error}
        </p>
      ) : null}
      <form method="post" action={href("/user/login")} class="form">
        <CsrfField />
        {props.redirectTo ? <input type="hidden" name="redirect_to" value={props.redirectTo} /> : null}
        <label for="user_name">Username or email address</label>
        <input
          type="text"
          id="user_name"
          name="user_name"
          value={props.userName}
          autocomplete="username"
          required
          autofocus
        />
        <label for="password">Password</label>
        <input type="password" id="password" name="password" autocomplete="current-password" required />
        <button type="submit" class="button button-primary">
          Sign in
        </button>
      </form>
    </section>
  );
}

function signInPage(c: WebContext, redirectTo: string, error = "", userName = "", status = 200) {
  return render(
    c,
    { title: "Sign in", narrow: true, status },
    <SignInForm redirectTo={redirectTo} userName={userName} error={error} />,
  );
}

/** Signs a user in completely: a new session (a new cookie), then on to where they were going. */
export async function finishSignIn(
  c: WebContext,
  user: User,
  redirectTo: string | undefined,
): Promise<Response> {
  const cookie = await c.get("services").webSessions.start(user, false, {});
  setSessionCookie(c, cookie);
  return seeOther(c, redirectTo ?? HOME);
}

/** Forgejo's SignIn: the form, or straight on for a visitor already signed in. */
export const signInGet = page({
  method: "get",
  path: "/user/login",
  access: "public",
  handler(c, fields) {
    const redirectTo = safeRedirect(fields("redirect_to"));
    if (c.get("actor").user) return seeOther(c, redirectTo ?? HOME);
    return signInPage(c, redirectTo ?? "");
  },
});

/**
 * Forgejo's SignInPost: `user_name` (a name or an e-mail address), `password`, a same-site
 * `redirect_to`. A TOTP user gets a half-open session and the passcode step next.
 */
export const signInPost = page({
  method: "post",
  path: "/user/login",
  access: "public",
  async handler(c, form) {
    const redirectTo = safeRedirect(form("redirect_to"));
    const services = c.get("services");
    const userName = form("user_name");
    const user = await services.auth.checkPassword(userName, form("password"));
    if (!user) return signInPage(c, redirectTo ?? "", "Username or password is incorrect.", userName);
    try {
      services.auth.checkAccount(user);
    } catch (err) {
      if (!isKilnError(err)) throw err;
      return signInPage(c, redirectTo ?? "", err.message, userName, 403);
    }
    if (await services.twoFactor.isEnrolled(user)) {
      const data: SessionData = redirectTo ? { redirectTo } : {};
      setSessionCookie(c, await services.webSessions.start(user, true, data));
      return seeOther(c, "/user/two_factor");
    }
    return finishSignIn(c, user, redirectTo);
  },
});

/** The half-signed-in session of the TOTP step, or a redirect back to the sign-in page. */
function pendingSession(c: WebContext): WebSession | Response {
  const session = c.get("session");
  return session?.pendingUser ? session : seeOther(c, "/user/login");
}

function totpPage(c: WebContext, error = "", scratch = false) {
  return render(
    c,
    { title: "Two-factor authentication", narrow: true, status: error ? 401 : 200 },
    <TotpForms error={error} scratch={scratch} />,
  );
}

async function postTotp(
  c: WebContext,
  check: (user: User) => Promise<boolean>,
  scratch: boolean,
): Promise<Response> {
  const session = pendingSession(c);
  if (session instanceof Response) return session;
  const services = c.get("services");
  const user = session.pendingUser as User;
  if (!(await check(user))) {
    const failures = (session.data.failures ?? 0) + 1;
    if (failures >= MAX_TOTP_FAILURES) {
      await services.webSessions.end(session.cookie);
      clearSessionCookie(c);
      return seeOther(c, "/user/login");
    }
    if (!(await services.webSessions.update(session, { ...session.data, failures })))
      return seeOther(c, "/user/login");
    return totpPage(c, "The code is not valid.", scratch);
  }
  await services.webSessions.end(session.cookie);
  return finishSignIn(c, user, session.data.redirectTo);
}

/** Forgejo's TwoFactor: the passcode step after the password (a half-open session only). */
export const twoFactorGet = page({
  method: "get",
  path: "/user/two_factor",
  access: "public",
  handler(c) {
    const session = pendingSession(c);
    return session instanceof Response ? session : totpPage(c);
  },
});

/** Forgejo's TwoFactorScratch: the same step with a recovery code. */
export const twoFactorScratchGet = page({
  method: "get",
  path: "/user/two_factor/scratch",
  access: "public",
  handler(c) {
    const session = pendingSession(c);
    return session instanceof Response ? session : totpPage(c, "", true);
  },
});

/** Forgejo's TwoFactorPost: a passcode from the authenticator. */
export const twoFactorPost = page({
  method: "post",
  path: "/user/two_factor",
  access: "public",
  handler: (c, form) =>
    postTotp(c, (user) => c.get("services").twoFactor.checkPasscode(user, form("passcode")), false),
});

/** Forgejo's TwoFactorScratchPost: a recovery code, good once. */
export const twoFactorScratchPost = page({
  method: "post",
  path: "/user/two_factor/scratch",
  access: "public",
  handler: (c, form) =>
    postTotp(c, (user) => c.get("services").twoFactor.useRecoveryCode(user, form("token")), true),
});

/** Forgejo's SignOut: ends the session (CSRF-checked like every post) and forgets the cookie. */
export const signOut = page({
  method: "post",
  path: "/user/logout",
  access: "public",
  async handler(c) {
    const cookie = sessionCookie(c);
    if (cookie) await c.get("services").webSessions.end(cookie);
    clearSessionCookie(c);
    return seeOther(c, HOME);
  },
});

/** The sign-in pages. */
export const signInRoutes = [
  signInGet,
  signInPost,
  twoFactorGet,
  twoFactorScratchGet,
  twoFactorPost,
  twoFactorScratchPost,
  signOut,
];
