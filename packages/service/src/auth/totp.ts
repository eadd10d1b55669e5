import { Secret, TOTP } from "otpauth";

/** A TOTP generator/validator with the usual parameters (SHA-1, 6 digits, 30 s), as Forgejo uses. */
function totp(base32Secret: string): TOTP {
  return new TOTP({ secret: Secret.fromBase32(base32Secret), algorithm: "SHA1", digits: 6, period: 30 });
}

/** A new random TOTP secret, base32-encoded. */
export function generateTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** Whether `passcode` is valid now for the secret, allowing one step of clock drift either way. */
export function validateTotp(base32Secret: string, passcode: string, at: number = Date.now()): boolean {
  if (!/^\d{6}$/.test(passcode)) return false;
  return totp(base32Secret).validate({ token: passcode, timestamp: at, window: 1 }) !== null;
}

/** The passcode for a secret at a moment (for tests and enrolment checks). */
export function currentTotp(base32Secret: string, at: number = Date.now()): string {
  return totp(base32Secret).generate({ timestamp: at });
}
