import type { Child } from "hono/jsx";
import { Breadcrumbs, type Crumb } from "./breadcrumbs.js";
import { useFrame, useHref } from "./frame.js";
import { SiteHeader } from "./header.js";
import { RepoHeader, type RepoHeaderProps } from "./repo-header.js";

/** What a page tells the layout besides its content. */
export interface PageOptions {
  /** The page's title (the window title gets " - Kiln" after it). */
  readonly title: string;
  readonly status?: number;
  readonly crumbs?: readonly Crumb[];
  /** A repository page's header, above the content. */
  readonly repo?: RepoHeaderProps;
  /** The search box's text. */
  readonly search?: string;
  /** A narrow, centred column (sign-in and other small forms). */
  readonly narrow?: boolean;
}

/**
 * The one layout of every page: the site header, the repository header when there is one, the
 * breadcrumbs, the content and the footer. The style sheet and the script are static files with
 * hashed names; the script carries the response's nonce and only adds to what works without it.
 */
export function Layout(props: { options: PageOptions; children?: Child }) {
  const { nonce, assets } = useFrame();
  const href = useHref();
  const { options } = props;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{`${options.title} - Kiln`}</title>
        <link rel="stylesheet" href={assets.url("style.css")} />
        <link rel="icon" href="data:," />
        <script nonce={nonce} src={assets.url("app.js")} defer></script>
      </head>
      <body>
        <a class="skip-link" href="#main">
          Skip to content
        </a>
        <SiteHeader search={options.search ?? ""} />
        <main id="main" class={options.narrow ? "page page-narrow" : "page"}>
          {options.repo ? <RepoHeader {...options.repo} /> : null}
          {options.crumbs ? <Breadcrumbs crumbs={options.crumbs} /> : null}
          {props.children}
        </main>
        <footer class="site-footer">
          <span>Kiln</span>
          <a href={href("/api/swagger")}>API</a>
          <a href={href("/explore/repos")}>Explore</a>
        </footer>
      </body>
    </html>
  );
}
