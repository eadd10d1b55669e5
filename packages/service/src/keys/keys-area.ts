import type { ServiceContext } from "../context.js";
import { GpgKeyService } from "./gpg-key-service.js";
import { SshKeyService } from "./ssh-key-service.js";

/** Keys: users' SSH and GPG keys and repositories' deploy keys (commit verification is core). */
export interface KeysArea {
  /** SSH keys of users and deploy keys of repositories. */
  readonly sshKeys: SshKeyService;
  /** GPG keys of users. */
  readonly gpgKeys: GpgKeyService;
}

/** Builds the keys area. */
export function keysArea(ctx: ServiceContext): KeysArea {
  return { sshKeys: new SshKeyService(ctx), gpgKeys: new GpgKeyService(ctx) };
}
