/** A git author, committer or tagger as stored in an object. */
export interface GitSignature {
  readonly name: string;
  readonly email: string;
  /** Seconds since the Unix epoch. */
  readonly timestamp: number;
  /** Minutes east of UTC of the signer's timezone (`+0200` → 120). */
  readonly timezoneOffset: number;
}

/** An identity to sign a new commit or tag with; the date defaults to now and the timezone to UTC. */
export interface SignatureInput {
  readonly name: string;
  readonly email: string;
  readonly date?: Date;
  /** Minutes east of UTC (`+0200` → 120). */
  readonly timezoneOffset?: number;
}

/** isomorphic-git's signature shape: its timezoneOffset has the sign of `Date#getTimezoneOffset`. */
export interface IsoSignature {
  name: string;
  email: string;
  timestamp: number;
  timezoneOffset: number;
}

/** Converts an isomorphic-git signature to this package's shape. */
export function fromIsoSignature(sig: IsoSignature): GitSignature {
  return {
    name: sig.name,
    email: sig.email,
    timestamp: sig.timestamp,
    timezoneOffset: -sig.timezoneOffset || 0,
  };
}

/** Converts an input identity to isomorphic-git's shape, stamping the current time when no date is given. */
export function toIsoSignature(input: SignatureInput): IsoSignature {
  const date = input.date ?? new Date();
  return {
    name: input.name,
    email: input.email,
    timestamp: Math.floor(date.getTime() / 1000),
    timezoneOffset: -(input.timezoneOffset ?? 0) || 0,
  };
}

function pad(value: number): string {
  return String(value).padStart(2, "0");
}

/** Formats a signature's time as RFC 3339 in the signer's own timezone (`2024-05-01T12:00:00+02:00`), as Forgejo does. */
export function signatureDate(sig: GitSignature): string {
  const local = new Date((sig.timestamp + sig.timezoneOffset * 60) * 1000);
  const offset = Math.abs(sig.timezoneOffset);
  const zone =
    sig.timezoneOffset === 0
      ? "Z"
      : `${sig.timezoneOffset < 0 ? "-" : "+"}${pad(Math.floor(offset / 60))}:${pad(offset % 60)}`;
  return `${local.toISOString().slice(0, 19)}${zone}`;
}
