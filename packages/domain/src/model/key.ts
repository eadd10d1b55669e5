/** An SSH key of a user or a deploy key's public key (Forgejo's `PublicKey`). */
export interface SshKey {
  readonly id: number;
  /** The owner of a user's key; null for a deploy key. */
  readonly ownerId: number | null;
  readonly name: string;
  /** `SHA256:<base64 without padding>` of the key blob. */
  readonly fingerprint: string;
  /** `<type> <base64>[ <comment>]`. */
  readonly content: string;
  /** Access mode: 1 read, 2 write. */
  readonly mode: number;
  /** 1 a user's key, 2 a deploy key. */
  readonly type: number;
  readonly createdAt: Date;
}

/** An SSH key deployed to a repository (Forgejo's `DeployKey`). */
export interface DeployKeyEntry {
  readonly id: number;
  /** The id of the public key it deploys. */
  readonly keyId: number;
  readonly repoId: number;
  readonly name: string;
  readonly fingerprint: string;
  readonly content: string;
  /** Access mode: 1 read, 2 write. */
  readonly mode: number;
  readonly createdAt: Date;
}

/** An e-mail address a GPG key carries, and whether it was an activated address of its owner. */
export interface GpgKeyEmailEntry {
  readonly email: string;
  readonly verified: boolean;
}

/** A GPG primary key or subkey (Forgejo's `GPGKey`). */
export interface GpgKeyEntry {
  readonly id: number;
  readonly ownerId: number;
  /** 16 upper-case hex digits. */
  readonly keyId: string;
  /** The primary key's id for a subkey; null for a primary key. */
  readonly primaryKeyId: string | null;
  /** Base64 of the public key packet. */
  readonly content: string;
  readonly createdAt: Date;
  /** Null when the key does not expire. */
  readonly expiresAt: Date | null;
  readonly emails: readonly GpgKeyEmailEntry[];
  readonly verified: boolean;
  readonly canSign: boolean;
  readonly canEncryptComms: boolean;
  readonly canEncryptStorage: boolean;
  readonly canCertify: boolean;
  readonly subkeys: readonly GpgKeyEntry[];
}
