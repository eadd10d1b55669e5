import { api } from "@kiln/domain";
import { toApiEmail } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { route } from "../../route.js";
import { empty, notFound, validationError } from "../responses.js";

/** Forgejo's routers/api/v1/user/email.go: the signed-in user's e-mail addresses. */

export const userListEmails = route({
  method: "get",
  path: "/user/emails",
  operationId: "userListEmails",
  tags: ["user"],
  summary: "List the authenticated user's email addresses",
  access: "signed-in",
  scopes: ["user"],
  responses: { 200: { description: "EmailList", schema: v.array(api.Email) } },
  async handler(c, { principal }) {
    const { user } = requirePrincipal(principal);
    const list = await c.get("services").emails.list(user);
    return c.json(list.map((e) => toApiEmail(e, user)));
  },
});

export const userAddEmail = route({
  method: "post",
  path: "/user/emails",
  operationId: "userAddEmail",
  tags: ["user"],
  summary: "Add email addresses",
  access: "signed-in",
  scopes: ["user"],
  body: api.CreateEmailOption,
  responses: {
    201: { description: "EmailList", schema: v.array(api.Email) },
    ...validationError,
  },
  async handler(c, { body, principal }) {
    const { user } = requirePrincipal(principal);
    const added = await c.get("services").emails.add(user, body.emails ?? []);
    return c.json(
      added.map((e) => toApiEmail(e, user)),
      201,
    );
  },
});

export const userDeleteEmail = route({
  method: "delete",
  path: "/user/emails",
  operationId: "userDeleteEmail",
  tags: ["user"],
  summary: "Delete email addresses",
  access: "signed-in",
  scopes: ["user"],
  body: api.DeleteEmailOption,
  responses: {
    ...empty,
    ...notFound,
  },
  async handler(c, { body, principal }) {
    await c.get("services").emails.delete(requirePrincipal(principal).user, body.emails ?? []);
    return c.body(null, 204);
  },
});

export const emailRoutes = [userListEmails, userAddEmail, userDeleteEmail];
