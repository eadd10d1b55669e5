/** What a delivery sent (Forgejo's HookRequest). */
export interface HookRequestInfo {
  readonly url: string;
  readonly http_method: string;
  readonly headers: Readonly<Record<string, string>>;
}

/** What a delivery got back, or why none came (Forgejo's HookResponse; status 0 when refused or failed). */
export interface HookResponseInfo {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** One delivery of one event to one hook (Forgejo's HookTask). */
export interface HookTask {
  readonly id: number;
  readonly hookId: number;
  readonly uuid: string;
  readonly eventType: string;
  readonly payload: string;
  readonly isDelivered: boolean;
  readonly isSucceed: boolean;
  readonly attempts: number;
  readonly nextAttemptAt: Date;
  readonly claimedUntil: Date | null;
  readonly deliveredAt: Date | null;
  /** {@link HookRequestInfo} as JSON text. */
  readonly requestInfo: string | null;
  /** {@link HookResponseInfo} as JSON text. */
  readonly responseInfo: string | null;
  readonly createdAt: Date;
}
