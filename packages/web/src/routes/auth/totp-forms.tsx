import { CsrfField } from "../../components/csrf-field.js";
import { useHref } from "../../layout/frame.js";

/** The TOTP step's forms: a passcode, or (the scratch page) a recovery code. */
export function TotpForms(props: { error: string; scratch: boolean }) {
  const href = useHref();
  return (
    <section class="card">
      <h1>Two-factor authentication</h1>
      {props.error ? (
        <p class="flash flash-error" role="alert">
          {props.error}
        </p>
      ) : null}
      {props.scratch ? null : (
        <>
          <p>Enter the passcode from your authenticator app.</p>
          <form method="post" action={href("/user/two_factor")} class="form">
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
        </>
      )}
      <p>Lost your device? Use one of your recovery codes.</p>
      <form method="post" action={href("/user/two_factor/scratch")} class="form">
        <CsrfField />
        <label for="token">Recovery code</label>
        <input type="text" id="token" name="token" autocomplete="off" required autofocus={props.scratch} />
        <button type="submit" class="button">
          Use recovery code
        </button>
      </form>
    </section>
  );
}
