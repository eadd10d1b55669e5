import { oauth2Grants } from "@kiln/storage";
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  type JWTPayload,
  jwtVerify,
  SignJWT,
} from "jose";
import { openSecret, sealSecret } from "../auth/secret-box.js";
import type { ServiceContext } from "../context.js";

/** The instance's JWT signing key: signs access, refresh and ID tokens; published at `/login/oauth/keys`. */
export interface SigningKey {
  readonly algorithm: string;
  /** The public key as a JWK with `kid`, `alg` and `use`, as Forgejo's JWKS lists it. */
  readonly publicJwk: JWK;
  sign(claims: JWTPayload): Promise<string>;
  /** The claims of a token this key signed and that has not expired; undefined otherwise. */
  verify(token: string): Promise<JWTPayload | undefined>;
}

/** Members of a private JWK that are public, by key type. */
const PUBLIC_MEMBERS: Record<string, readonly string[]> = {
  RSA: ["kty", "n", "e"],
  EC: ["kty", "crv", "x", "y"],
  OKP: ["kty", "crv", "x"],
};

async function generate(algorithm: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair(algorithm, {
    extractable: true,
    ...(algorithm.startsWith("RS") ? { modulusLength: 2048 } : {}),
  });
  return exportJWK(privateKey);
}

async function build(algorithm: string, privateJwk: JWK): Promise<SigningKey> {
  const publicMembers: JWK = {};
  for (const name of PUBLIC_MEMBERS[privateJwk.kty ?? ""] ?? []) {
    (publicMembers as Record<string, unknown>)[name] = (privateJwk as Record<string, unknown>)[name];
  }
  const kid = await calculateJwkThumbprint(publicMembers, "sha256");
  const privateKey = await importJWK(privateJwk, algorithm);
  const publicKey = await importJWK(publicMembers, algorithm);
  return {
    algorithm,
    publicJwk: { ...publicMembers, alg: algorithm, kid, use: "sig" },
    sign: (claims) =>
      new SignJWT(claims).setProtectedHeader({ alg: algorithm, kid, typ: "JWT" }).sign(privateKey),
    async verify(token) {
      try {
        const { payload } = await jwtVerify(token, publicKey, { algorithms: [algorithm] });
        return payload;
      } catch {
        return undefined;
      }
    },
  };
}

/**
 * Loads the key of `[oauth2] JWT_SIGNING_ALGORITHM` from the database, generating and storing it
 * (sealed with `[security] SECRET_KEY`) the first time; every process then signs with the same key.
 */
async function loadSigningKey(ctx: ServiceContext): Promise<SigningKey> {
  const algorithm = ctx.settings.oauth2.jwtSigningAlgorithm;
  const secretKey = ctx.settings.security.secretKey;
  let sealed = await oauth2Grants.findSigningKey(ctx.db, algorithm);
  if (!sealed) {
    const fresh = sealSecret(secretKey, JSON.stringify(await generate(algorithm)));
    sealed = await oauth2Grants.insertSigningKey(ctx.db, algorithm, fresh);
  }
  return build(algorithm, JSON.parse(openSecret(secretKey, sealed)) as JWK);
}

const perInstance = new WeakMap<ServiceContext, Promise<SigningKey>>();

/** The signing key of an instance, loaded once per service context. */
export function signingKeyOf(ctx: ServiceContext): Promise<SigningKey> {
  let key = perInstance.get(ctx);
  if (!key) {
    key = loadSigningKey(ctx);
    // A failed load (database down) is retried by the next caller.
    key.catch(() => perInstance.delete(ctx));
    perInstance.set(ctx, key);
  }
  return key;
}
