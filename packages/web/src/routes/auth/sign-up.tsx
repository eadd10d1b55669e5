import { isKilnError } from "@kiln/domain";
import { CsrfField } from "../../components/csrf-field.js";
import type { WebContext } from "../../env.js";
import { errorPage } from "../../layout/error-page.js";
import { useHref } from "../../layout/frame.js";
import { render } from "../../layout/render.js";
import { page } from "../../page-route.js";
import { seeOther } from "../../responses.js";
import { finishSignIn, HOME } from "./sign-in.js";

interface SignUpValues {
  readonly userName: string;
  readonly email: string;
}

function SignUpForm(props: { values: SignUpValues; error: string }) {
  const href = useHref();
  return (
    <section class="card">
      <h1>Register</h1>
      {props.error ? (
        <p class="flash flash-error" role="alert">
          {props.error}
        </p>
      ) : null}
      <form method="post" action={href("/user/sign_up")} class="form">
        <CsrfField />
        <label for="user_name">Username</label>
        <input
          type="text"
          id="user_name"
          name="user_name"
          value={props.values.userName}
          autocomplete="username"
          maxlength={40}
          required
          autofocus
        />
        <label for="email">Email address</label>
        <input
          type="email"
          id="email"
          name="email"
          value={props.values.email}
          autocomplete="email"
          required
        />
        <label for="password">Password</label>
        <input
          type="password"
          id="password"
          name="password"
          autocomplete="new-password"
          minlength={8}
          required
        />
        <label for="retype">Confirm password</label>
        <input type="password" id="retype" name="retype" autocomplete="new-password" minlength={8} required />
        <button type="submit" class="button button-primary">
          Register account
        </button>
      </form>
      <p>
        Already have an account? <a href={href("/user/login")}>Sign in now!</a>
      </p>
    </section>
  );
}

function signUpPage(c: WebContext, values: SignUpValues, error = "", status = 200) {
  return render(c, { title: "Register", narrow: true, status }, <SignUpForm values={values} error={error} />);
}

const CLOSED = "Registration is disabled. Please contact your site administrator.";

/** Forgejo's SignUp: the registration form (403 when `[service] DISABLE_REGISTRATION` is on). */
export const signUpGet = page({
  method: "get",
  path: "/user/sign_up",
  access: "public",
  handler(c) {
    if (!c.get("services").registrations.open) return errorPage(c, 403, CLOSED);
    if (c.get("actor").user) return seeOther(c, HOME);
    return signUpPage(c, { userName: "", email: "" });
  },
});

/**
 * Forgejo's SignUpPost: the passwords must match; the account is made by the registration
 * service (the admin API's name, e-mail and password rules), signed in, and sent home. A refusal
 * shows the form again, filled in, with the reason.
 */
export const signUpPost = page({
  method: "post",
  path: "/user/sign_up",
  access: "public",
  async handler(c, form) {
    const services = c.get("services");
    if (!services.registrations.open) return errorPage(c, 403, CLOSED);
    const values = { userName: form("user_name").trim(), email: form("email").trim() };
    if (form("password") !== form("retype")) return signUpPage(c, values, "The passwords do not match.", 422);
    try {
      const user = await services.registrations.register({
        username: values.userName,
        email: values.email,
        password: form("password"),
      });
      return finishSignIn(c, user, undefined);
    } catch (err) {
      if (!isKilnError(err) || err.kind === "not_found") throw err;
      return signUpPage(c, values, err.message, 422);
    }
  },
});

/** The registration pages. */
export const signUpRoutes = [signUpGet, signUpPost];
