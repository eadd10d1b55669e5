/** A personal access token as stored: only a SHA-256 hash of the secret and its last eight characters. */
export interface AccessToken {
  readonly id: number;
  readonly userId: number;
  readonly name: string;
  readonly tokenHash: string;
  readonly tokenLastEight: string;
  /** Normalized, comma-separated scope names (see formatScopes). */
  readonly scope: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}
