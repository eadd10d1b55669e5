import type { WebContext } from "../env.js";
import { useHref } from "./frame.js";
import { render } from "./render.js";

/** The statuses that have a page of their own. */
export type ErrorStatus = 400 | 403 | 404 | 413 | 500 | 503;

const TEXTS: Readonly<Record<ErrorStatus, { title: string; text: string }>> = {
  400: { title: "Bad request", text: "The request could not be understood." },
  403: { title: "Forbidden", text: "You do not have permission to do this." },
  404: {
    title: "Page not found",
    text: "The page you are trying to reach either does not exist or you are not authorized to view it.",
  },
  413: { title: "Too large", text: "What was sent is larger than this page accepts." },
  500: { title: "Internal server error", text: "Something went wrong on our side. Please try again later." },
  503: {
    title: "Service unavailable",
    text: "The service is unavailable for now. Please try again shortly.",
  },
};

function ErrorBody(props: { status: ErrorStatus; message?: string }) {
  const href = useHref();
  const { title, text } = TEXTS[props.status];
  return (
    <section class="error-page">
      <p class="error-code">{props.status}</p>
      <h1>{title}</h1>
      <p>{props.message ?? text}</p>
      <p>
        <a href={href("/")}>Go to the home page</a>
      </p>
    </section>
  );
}

/**
 * An error page in the layout. `message` is shown instead of the standard text: only messages meant
 * for the visitor (a refusal's reason) are passed, never an internal error's.
 */
export function errorPage(
  c: WebContext,
  status: ErrorStatus,
  message?: string,
): Response | Promise<Response> {
  return render(
    c,
    { title: TEXTS[status].title, status },
    <ErrorBody status={status} {...(message !== undefined ? { message } : {})} />,
  );
}
