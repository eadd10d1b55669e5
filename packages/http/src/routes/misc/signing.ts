import { NotFoundError } from "@kiln/domain";
import * as v from "valibot";
import { route } from "../../route.js";
import { repoParams } from "../repo/context.js";
import { notFound } from "../responses.js";

/**
 * Forgejo's routers/api/v1/misc/signing.go. Kiln has no instance signing key (it signs no
 * commits), so each answers as Forgejo does when signing is not configured: the GPG ones 200 with
 * an empty body, the SSH one 404.
 */

const text = { description: "GPG armored public key", schema: "text" } as const;

export const getSigningKey = route({
  method: "get",
  path: "/signing-key.gpg",
  operationId: "getSigningKey",
  tags: ["miscellaneous"],
  summary: "Get default signing-key.gpg",
  access: "public",
  responses: { 200: text },
  handler(c) {
    return c.body("", 200, { "Content-Type": "text/plain; charset=utf-8" });
  },
});

export const repoSigningKey = route({
  method: "get",
  path: "/repos/{owner}/{repo}/signing-key.gpg",
  operationId: "repoSigningKey",
  tags: ["repository"],
  summary: "Get signing-key.gpg for given repository",
  access: "public",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { 200: text, ...notFound },
  handler(c) {
    return c.body("", 200, { "Content-Type": "text/plain; charset=utf-8" });
  },
});

export const getSSHSigningKey = route({
  method: "get",
  path: "/signing-key.ssh",
  operationId: "getSSHSigningKey",
  tags: ["miscellaneous"],
  summary: "Get default signing-key.ssh",
  access: "public",
  responses: {
    200: { description: "SSH public key in OpenSSH authorized key format", schema: "text" },
    ...notFound,
  },
  handler() {
    throw new NotFoundError();
  },
});

export const signingKeyRoutes = [getSigningKey, repoSigningKey, getSSHSigningKey];
