/** An e-mail address of a user; exactly one is primary, and it is also `User.email`. */
export interface EmailAddress {
  readonly id: number;
  readonly userId: number;
  readonly email: string;
  readonly isActivated: boolean;
  readonly isPrimary: boolean;
}

const EMAIL_PATTERN =
  /^[\w.!#$%&'*+/=?^`{|}~-]+@[a-zA-Z\d](?:[a-zA-Z\d-]{0,61}[a-zA-Z\d])?(?:\.[a-zA-Z\d](?:[a-zA-Z\d-]{0,61}[a-zA-Z\d])?)*$/;

/** A deliberately plain e-mail check, as Forgejo's: one @, a sane local part and a domain. */
export function isValidEmail(email: string): boolean {
  return email.length <= 254 && EMAIL_PATTERN.test(email);
}

/** An e-mail address with its owner's name, as `GET /admin/emails` shows it. */
export interface EmailWithOwner {
  readonly email: string;
  readonly isActivated: boolean;
  readonly isPrimary: boolean;
  readonly userId: number;
  readonly userName: string;
}
