import { isKilnError } from "@kiln/domain";
import type { WebSession } from "@kiln/service";
import { CsrfField } from "../../components/csrf-field.js";
import type { WebContext } from "../../env.js";
import { useHref } from "../../layout/frame.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { seeOther } from "../../responses.js";

const SECURITY = "/user/settings/security";
const ENROLL = `${SECURITY}/two_factor/enroll`;

/** The signed-in session (the route is `signed-in`, so there is one). */
function sessionOf(c: WebContext): WebSession {
  return c.get("session") as WebSession;
}

function RecoveryCodes(props: { codes: readonly string[] }) {
  const href = useHref();
  return (
    <section class="card">
      <h1>Recovery codes</h1>
      <p>
        Two-factor authentication is on. Keep these recovery codes somewhere safe: each signs you in once when
        you cannot use your authenticator. They are shown only now.
      </p>
      <ul class="codes">
        {props.codes.map((code) => (
          <li>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <p>
        <a href={href(SECURITY)}>Back to security settings</a>
      </p>
    </section>
  );
}

function recoveryCodesPage(c: WebContext, codes: readonly string[]) {
  return render(c, { title: "Recovery codes", narrow: true }, <RecoveryCodes codes={codes} />);
}

function SecurityBody(props: { name: string; enrolled: boolean; remaining: number }) {
  const href = useHref();
  return (
    <section class="card">
      <h1>Security</h1>
      {props.enrolled ? (
        <>
          <p>
            Signed in as <strong>{props.name}</strong>. Two-factor authentication is <strong>on</strong> (
            {`${props.remaining} recovery codes left`}).
          </p>
          <form method="post" action={href(`${SECURITY}/two_factor/regenerate_scratch`)} class="form-inline">
            <CsrfField />
            <button type="submit" class="button">
              Regenerate recovery codes
            </button>
          </form>
          <form method="post" action={href(`${SECURITY}/two_factor/disable`)} class="form-inline">
            <CsrfField />
            <button type="submit" class="button button-danger">
              Disable two-factor authentication
            </button>
          </form>
        </>
      ) : (
        <>
          <p>
            Signed in as <strong>{props.name}</strong>. Two-factor authentication is <strong>off</strong>.
          </p>
          <p>
            <a href={href(ENROLL)}>Enroll an authenticator app</a>
          </p>
        </>
      )}
    </section>
  );
}

function EnrollBody(props: { secret: string; uri: string; error: string }) {
  const href = useHref();
  return (
    <section class="card">
      <h1>Enroll two-factor authentication</h1>
      {props.error ? (
        <p class="flash flash-error" role="alert">
          {props.error}
        </p>
      ) : null}
      <p>
        Add this account to your authenticator app with the secret <code id="secret">{props.secret}</code> or
        the URI <code id="otpauth">{props.uri}</code>, then enter the passcode it shows.
      </p>
      <form method="post" action={href(ENROLL)} class="form">
        <CsrfField />
        <label for="passcode">Passcode</label>
        <input
          type="text"
          id="passcode"
          name="passcode"
          inputmode="numeric"
          autocomplete="one-time-code"
          required
          autofocus
        />
        <button type="submit" class="button button-primary">
          Verify
        </button>
      </form>
    </section>
  );
}

async function enrollPage(c: WebContext, error = ""): Promise<Response> {
  const services = c.get("services");
  const session = sessionOf(c);
  const user = session.user!;
  const { secret, sealed } = services.twoFactor.newSecret();
  if (!(await services.webSessions.update(session, { ...session.data, enrolSecret: sealed })))
    return seeOther(c, "/user/login");
  const uri = services.twoFactor.otpauthUri(user, secret);
  return render(
    c,
    { title: "Enroll two-factor authentication", narrow: true, status: error ? 422 : 200 },
    <EnrollBody secret={secret} uri={uri} error={error} />,
  );
}

/** Forgejo's settings/security page, as far as TOTP goes: on or off, and what to do about it. */
export const securityPage = page({
  method: "get",
  path: SECURITY,
  access: "signed-in",
  async handler(c) {
    const user = sessionOf(c).user!;
    const twoFactor = c.get("services").twoFactor;
    const enrolled = await twoFactor.isEnrolled(user);
    const remaining = enrolled ? await twoFactor.remainingRecoveryCodes(user) : 0;
    return render(
      c,
      { title: "Security", narrow: true },
      <SecurityBody name={user.name} enrolled={enrolled} remaining={remaining} />,
    );
  },
});

/** Forgejo's EnrollTwoFactor: a new secret, confirmed with a passcode. */
export const enrollGet = page({
  method: "get",
  path: ENROLL,
  access: "signed-in",
  async handler(c) {
    if (await c.get("services").twoFactor.isEnrolled(sessionOf(c).user!)) return seeOther(c, SECURITY);
    return enrollPage(c);
  },
});

/** Forgejo's EnrollTwoFactorPost: the passcode of the secret the session holds; then the recovery codes, once. */
export const enrollPost = page({
  method: "post",
  path: ENROLL,
  access: "signed-in",
  async handler(c, form) {
    const services = c.get("services");
    const session = sessionOf(c);
    const user = session.user!;
    if (await services.twoFactor.isEnrolled(user)) return seeOther(c, SECURITY);
    const sealed = session.data.enrolSecret;
    if (!sealed) return seeOther(c, ENROLL);
    try {
      const codes = await services.twoFactor.enrol(user, sealed, form("passcode"));
      const { enrolSecret: _, ...rest } = session.data;
      await services.webSessions.update(session, rest);
      return recoveryCodesPage(c, codes);
    } catch (err) {
      if (!isKilnError(err)) throw err;
      return enrollPage(c, "The passcode is not valid; scan the new secret and try again.");
    }
  },
});

/** Forgejo's DisableTwoFactor. */
export const disableTwoFactor = page({
  method: "post",
  path: `${SECURITY}/two_factor/disable`,
  access: "signed-in",
  async handler(c) {
    await c.get("services").twoFactor.disable(sessionOf(c).user!);
    return seeOther(c, SECURITY);
  },
});

/** Forgejo's RegenerateScratchTwoFactor: new recovery codes, shown once. */
export const regenerateRecoveryCodes = page({
  method: "post",
  path: `${SECURITY}/two_factor/regenerate_scratch`,
  access: "signed-in",
  async handler(c) {
    try {
      return recoveryCodesPage(
        c,
        await c.get("services").twoFactor.regenerateRecoveryCodes(sessionOf(c).user!),
      );
    } catch (err) {
      if (!isKilnError(err)) throw err;
      return seeOther(c, SECURITY);
    }
  },
});

/** The TOTP settings pages. */
export const securityRoutes = [
  securityPage,
  enrollGet,
  enrollPost,
  disableTwoFactor,
  regenerateRecoveryCodes,
];
