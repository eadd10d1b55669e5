import type { ColumnType, Generated } from "kysely";

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;

/** A registered OAuth2 client (migration 0018). */
export interface OAuth2ApplicationTable {
  id: Generated<number>;
  uid: number;
  name: string;
  clientId: string;
  /** SHA-256 (hex) of the client secret. */
  clientSecretHash: string;
  confidentialClient: Generated<boolean>;
  /** JSON array of strings. */
  redirectUris: Generated<string>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A user's consent to an application. */
export interface OAuth2GrantTable {
  id: Generated<number>;
  userId: number;
  applicationId: number;
  counter: Generated<number>;
  scope: Generated<string>;
  nonce: Generated<string>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A single-use authorization code (stored hashed). */
export interface OAuth2AuthorizationCodeTable {
  id: Generated<number>;
  grantId: number;
  codeHash: string;
  codeChallenge: Generated<string>;
  codeChallengeMethod: Generated<string>;
  redirectUri: string;
  validUntil: Date;
}

/** The instance's JWT signing key for one algorithm, sealed. */
export interface OAuth2SigningKeyTable {
  algorithm: string;
  privateKey: string;
  createdAt: CreatedAt;
}

/** A web page session; `id` is the SHA-256 of the cookie value. */
export interface WebSessionTable {
  id: string;
  userId: number | null;
  pendingUserId: number | null;
  data: Generated<string>;
  expiresAt: Date;
  createdAt: CreatedAt;
}

/** A TOTP recovery code, SHA-256 hashed; spent when `usedAt` is set. */
export interface TwoFactorRecoveryCodeTable {
  id: Generated<number>;
  userId: number;
  codeHash: string;
  usedAt: Date | null;
}

/** The tables of migration 0018. */
export interface OAuthTables {
  oauth2Application: OAuth2ApplicationTable;
  oauth2Grant: OAuth2GrantTable;
  oauth2AuthorizationCode: OAuth2AuthorizationCodeTable;
  oauth2SigningKey: OAuth2SigningKeyTable;
  webSession: WebSessionTable;
  twoFactorRecoveryCode: TwoFactorRecoveryCodeTable;
}
