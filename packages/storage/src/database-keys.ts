import type { ColumnType, Generated, Selectable } from "kysely";

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;

/** An SSH key: a user's (`type` 1) or a deploy key (`type` 2, no owner); migration 0019. */
export interface PublicKeyTable {
  id: Generated<number>;
  ownerId: number | null;
  name: string;
  /** `SHA256:<base64 without padding>` of the key blob, unique across the instance. */
  fingerprint: string;
  /** `<type> <base64>[ <comment>]`, one line. */
  content: string;
  /** Forgejo's access mode: 1 read, 2 write. */
  mode: Generated<number>;
  type: Generated<number>;
  verified: Generated<boolean>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A public key deployed to a repository (Forgejo's DeployKey). */
export interface DeployKeyTable {
  id: Generated<number>;
  keyId: number;
  repoId: number;
  name: string;
  fingerprint: string;
  mode: Generated<number>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A GPG primary key or subkey (Forgejo's GPGKey). */
export interface GpgKeyTable {
  id: Generated<number>;
  ownerId: number;
  /** 16 upper-case hex digits. */
  keyId: string;
  /** The primary key's id for a subkey, null for a primary key. */
  primaryKeyId: string | null;
  /** Base64 of the public key packet. */
  content: string;
  createdAt: Date;
  expiresAt: Date | null;
  addedAt: ColumnType<Date, Date | undefined, never>;
  /** JSON `[{"email","verified"}]`: the activated addresses the key's identities matched. */
  emails: Generated<string>;
  verified: Generated<boolean>;
  canSign: Generated<boolean>;
  canEncryptComms: Generated<boolean>;
  canEncryptStorage: Generated<boolean>;
  canCertify: Generated<boolean>;
}

/** The armored text of a primary GPG key, read to verify signatures. */
export interface GpgKeyImportTable {
  keyId: string;
  content: string;
}

/** The tables of SSH and GPG keys (migration 0019). */
export interface KeyTables {
  publicKey: PublicKeyTable;
  deployKey: DeployKeyTable;
  gpgKey: GpgKeyTable;
  gpgKeyImport: GpgKeyImportTable;
}

export type PublicKeyRow = Selectable<PublicKeyTable>;
export type DeployKeyRow = Selectable<DeployKeyTable>;
export type GpgKeyRow = Selectable<GpgKeyTable>;
