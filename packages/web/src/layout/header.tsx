import { Avatar } from "../components/avatar.js";
import { CsrfField } from "../components/csrf-field.js";
import { Icon } from "../components/icon.js";
import { withQuery } from "../urls.js";
import { useFrame, useHref } from "./frame.js";

/** The account menu of a signed-in user: a `<details>` menu, so it opens without a script. */
function UserMenu() {
  const { user } = useFrame();
  const href = useHref();
  if (!user) return null;
  return (
    <div class="header-user">
      <a class="header-icon" href={href("/notifications")} title="Notifications">
        <Icon name="bell" />
        <span class="visually-hidden">Notifications</span>
      </a>
      <details class="menu">
        <summary aria-label={`Account menu of ${user.name}`}>
          <Avatar user={user} size={20} />
          <span class="menu-name">{user.name}</span>
        </summary>
        <div class="menu-items">
          <p class="menu-who">
            Signed in as <strong>{user.name}</strong>
          </p>
          <a href={href(`/${encodeURIComponent(user.name)}`)}>
            <Icon name="person" /> Your profile
          </a>
          <a href={href(`/${encodeURIComponent(user.name)}?tab=stars`)}>
            <Icon name="star" /> Your stars
          </a>
          <a href={href("/user/settings/security")}>
            <Icon name="shield-lock" /> Security
          </a>
          <form method="post" action={href("/user/logout")}>
            <CsrfField />
            <button type="submit" class="menu-button">
              <Icon name="sign-out" /> Sign out
            </button>
          </form>
        </div>
      </details>
    </div>
  );
}

/** The links a visitor who is not signed in gets. */
function SignInLinks() {
  const { user, here, registrationOpen } = useFrame();
  const href = useHref();
  if (user) return null;
  const back = here === "/" || here.startsWith("/user/") ? undefined : here;
  return (
    <div class="header-user">
      {registrationOpen ? (
        <a class="header-link" href={href("/user/sign_up")}>
          Register
        </a>
      ) : null}
      <a class="button button-small" href={href(withQuery("/user/login", { redirect_to: back }))}>
        <Icon name="sign-in" /> Sign in
      </a>
    </div>
  );
}

/** The site header: home, explore, the search box and the account menu or sign-in link. */
export function SiteHeader(props: { search?: string }) {
  const href = useHref();
  return (
    <header class="site-header">
      <a class="brand" href={href("/")}>
        <span class="brand-mark" aria-hidden="true">
          ◆
        </span>
        Kiln
      </a>
      <nav class="header-nav" aria-label="Site">
        <a class="header-link" href={href("/explore/repos")}>
          Explore
        </a>
      </nav>
      <search class="header-search">
        <form method="get" action={href("/explore/repos")}>
          <label class="visually-hidden" for="site-search">
            Search repositories
          </label>
          <input
            id="site-search"
            type="search"
            name="q"
            value={props.search ?? ""}
            placeholder="Search repositories…"
            maxlength={255}
            data-hotkey="/"
          />
        </form>
      </search>
      <UserMenu />
      <SignInLinks />
    </header>
  );
}
