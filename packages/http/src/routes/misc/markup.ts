import { api } from "@kiln/domain";
import { readBoundedText } from "../../bounded-body.js";
import type { AppContext } from "../../env.js";
import { route } from "../../route.js";
import { validationError } from "../responses.js";

/** Forgejo's routers/api/v1/misc/markup.go: Markdown rendering for clients and editors. */

const html = (c: AppContext, body: string) =>
  c.body(body, 200, { "Content-Type": "text/html; charset=utf-8" });

export const renderMarkdown = route({
  method: "post",
  path: "/markdown",
  operationId: "renderMarkdown",
  tags: ["miscellaneous"],
  summary: "Render a markdown document as HTML",
  access: "public",
  body: api.MarkdownOption,
  responses: {
    200: { description: "MarkdownRender", schema: "text" },
    ...validationError,
  },
  async handler(c, { body }) {
    // Forgejo renders every mode but `comment` and `gfm` as plain Markdown here.
    const mode = body.Mode === "comment" || body.Mode === "gfm" ? body.Mode : "markdown";
    const rendered = await c
      .get("services")
      .markup.render(c.get("actor"), { text: body.Text, mode, context: body.Context, wiki: body.Wiki });
    return html(c, rendered);
  },
});

export const renderMarkdownRaw = route({
  method: "post",
  path: "/markdown/raw",
  operationId: "renderMarkdownRaw",
  tags: ["miscellaneous"],
  summary: "Render raw markdown as HTML",
  access: "public",
  responses: {
    200: { description: "MarkdownRender", schema: "text" },
    ...validationError,
  },
  async handler(c) {
    // The body is the text itself (text/plain), bounded like any other body.
    const text = await readBoundedText(c.req.raw, c.get("settings").api.maxBodySize);
    const rendered = await c.get("services").markup.render(c.get("actor"), { text, mode: "markdown" });
    return html(c, rendered);
  },
});

export const renderMarkup = route({
  method: "post",
  path: "/markup",
  operationId: "renderMarkup",
  tags: ["miscellaneous"],
  summary: "Render a markup document as HTML",
  access: "public",
  body: api.MarkupOption,
  responses: {
    200: { description: "MarkupRender", schema: "text" },
    ...validationError,
  },
  async handler(c, { body }) {
    const rendered = await c.get("services").markup.render(c.get("actor"), {
      text: body.Text,
      mode: body.Mode,
      context: body.Context,
      wiki: body.Wiki,
      filePath: body.FilePath,
    });
    return html(c, rendered);
  },
});

export const markupRoutes = [renderMarkdown, renderMarkdownRaw, renderMarkup];
