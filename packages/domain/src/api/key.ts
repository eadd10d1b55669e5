import * as v from "valibot";
import { dateTime, int64, optionalField } from "./primitives.js";
import { Repository } from "./repository.js";
import { User } from "./user.js";

/** The longest SSH public key line accepted (an RSA 16384-bit key is under 3 KiB). */
export const MAX_SSH_KEY_LENGTH = 16 * 1024;
/** The longest armored GPG key text accepted (a keyring of several keys with their signatures). */
export const MAX_ARMORED_GPG_KEY_LENGTH = 256 * 1024;
/** The longest armored signature accepted. */
export const MAX_ARMORED_SIGNATURE_LENGTH = 64 * 1024;

const required = (max: number) => v.pipe(v.string(), v.minLength(1, "Required"), v.maxLength(max));

/** An SSH key of a user (Forgejo's `PublicKey`); `key_type` and `user` only for its owner and site admins. */
export const PublicKey = v.object({
  id: int64(),
  key: v.string(),
  url: v.optional(v.string()),
  title: v.optional(v.string()),
  fingerprint: v.optional(v.string()),
  created_at: v.optional(dateTime()),
  user: v.optional(User),
  read_only: v.optional(v.boolean()),
  key_type: v.optional(v.string()),
});

/** An SSH key deployed to a repository (Forgejo's `DeployKey`). */
export const DeployKey = v.object({
  id: int64(),
  key_id: int64(),
  key: v.string(),
  url: v.string(),
  title: v.string(),
  fingerprint: v.string(),
  created_at: dateTime(),
  read_only: v.boolean(),
  repository: v.optional(Repository),
});

/** Body of `POST /user/keys`, `POST /admin/users/{username}/keys` and `POST /repos/{owner}/{repo}/keys`. */
export const CreateKeyOption = v.object({
  title: required(255),
  key: required(MAX_SSH_KEY_LENGTH),
  read_only: optionalField(v.boolean()),
});

/** An e-mail address of a GPG key (Forgejo's `GPGKeyEmail`). */
export const GPGKeyEmail = v.object({
  email: v.string(),
  verified: v.boolean(),
});

const gpgKeyFields = {
  id: int64(),
  primary_key_id: v.string(),
  key_id: v.string(),
  public_key: v.string(),
  emails: v.nullable(v.array(GPGKeyEmail)),
  can_sign: v.boolean(),
  can_encrypt_comms: v.boolean(),
  can_encrypt_storage: v.boolean(),
  can_certify: v.boolean(),
  verified: v.boolean(),
  created_at: dateTime(),
  expires_at: dateTime(),
};

/** A GPG primary key with its subkeys (Forgejo's `GPGKey`). */
export const GPGKey = v.object({
  ...gpgKeyFields,
  subkeys: v.nullable(v.array(v.object({ ...gpgKeyFields, subkeys: v.nullable(v.array(v.unknown())) }))),
});

/** Body of `POST /user/gpg_keys`. */
export const CreateGPGKeyOption = v.object({
  armored_public_key: required(MAX_ARMORED_GPG_KEY_LENGTH),
  armored_signature: optionalField(v.pipe(v.string(), v.maxLength(MAX_ARMORED_SIGNATURE_LENGTH))),
});

/** Body of `POST /user/gpg_key_verify`. */
export const VerifyGPGKeyOption = v.object({
  key_id: required(64),
  armored_signature: required(MAX_ARMORED_SIGNATURE_LENGTH),
});
