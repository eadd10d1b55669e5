/** An OAuth2 application as stored, its redirect URIs decoded. */
export interface OAuth2ApplicationRecord {
  readonly id: number;
  readonly uid: number;
  readonly name: string;
  readonly clientId: string;
  readonly clientSecretHash: string;
  readonly confidentialClient: boolean;
  readonly redirectUris: readonly string[];
  readonly createdAt: Date;
}
