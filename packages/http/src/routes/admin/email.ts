import type { EmailWithOwner } from "@kiln/domain";
import { api } from "@kiln/domain";
import * as v from "valibot";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden } from "../responses.js";

/** Forgejo's routers/api/v1/admin/email.go: every user's e-mail addresses. */

function toApiEmail(e: EmailWithOwner): v.InferOutput<typeof api.Email> {
  return {
    email: e.email,
    verified: e.isActivated,
    primary: e.isPrimary,
    user_id: e.userId,
    username: e.userName,
  };
}

const emailList = { 200: { description: "EmailList", schema: v.array(api.Email) }, ...forbidden };

export const adminGetAllEmails = route({
  method: "get",
  path: "/admin/emails",
  operationId: "adminGetAllEmails",
  tags: ["admin"],
  summary: "List all emails",
  access: "site-admin",
  scopes: ["admin"],
  query: v.object(pageQuery),
  responses: emailList,
  handler(c, { query }) {
    return pagedJson(c, query, (page) => c.get("services").adminEmails.search("", page), toApiEmail);
  },
});

export const adminSearchEmails = route({
  method: "get",
  path: "/admin/emails/search",
  operationId: "adminSearchEmails",
  tags: ["admin"],
  summary: "Search all emails",
  access: "site-admin",
  scopes: ["admin"],
  query: v.object({ q: v.optional(qs.string("keyword")), ...pageQuery }),
  responses: emailList,
  handler(c, { query }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").adminEmails.search(query.q ?? "", page),
      toApiEmail,
    );
  },
});

export const adminEmailRoutes = [adminGetAllEmails, adminSearchEmails];
