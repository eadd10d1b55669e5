import { randomBytes } from "node:crypto";
import { InvalidArgumentError, type User } from "@kiln/domain";
import { type Db, recoveryCodes, twoFactor } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { base32Lower } from "../oauth2/client-secret.js";
import { openSecret, sealSecret } from "./secret-box.js";
import { hashTokenSecret } from "./token-secret.js";
import { generateTotpSecret, validateTotp } from "./totp.js";

/** Wrong second factors (passcodes and recovery codes, web and API) before the lock. */
export const MAX_TWO_FACTOR_FAILURES = 5;
/** How long the second factor stays locked after {@link MAX_TWO_FACTOR_FAILURES}. */
export const TWO_FACTOR_LOCK_MINUTES = 15;

/**
 * Runs one second-factor check under the per-user attempt counter: the attempt is counted in the
 * database before `check` runs, a locked user is refused like a wrong code, and success resets
 * the count.
 */
export async function limitedTwoFactorCheck(
  db: Db,
  userId: number,
  check: () => Promise<boolean>,
): Promise<boolean> {
  const allowed = await twoFactor.beginTwoFactorAttempt(
    db,
    userId,
    MAX_TWO_FACTOR_FAILURES,
    TWO_FACTOR_LOCK_MINUTES,
  );
  if (!allowed || !(await check())) return false;
  await twoFactor.resetTwoFactorAttempts(db, userId);
  return true;
}

/** How many recovery codes an enrolment hands out. */
export const RECOVERY_CODE_COUNT = 10;

/** A recovery code as the user types it: letters and digits, dashes and spaces ignored, any case. */
function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

function newRecoveryCode(): string {
  const raw = base32Lower(randomBytes(7)).slice(0, 10);
  return `${raw.slice(0, 5)}-${raw.slice(5)}`;
}

/**
 * TOTP two-factor authentication: enrolment (secret sealed with the secret box at rest), checks
 * at sign-in, and single-use recovery codes (stored hashed, shown once). Forgejo has one scratch
 * token; Kiln hands out {@link RECOVERY_CODE_COUNT} codes. Recovery codes are for the sign-in page
 * only: `X-Forgejo-OTP` takes passcodes, as Forgejo's does.
 */
export class TwoFactorService {
  constructor(private readonly ctx: ServiceContext) {}

  private get key(): string {
    return this.ctx.settings.security.secretKey;
  }

  async isEnrolled(user: User): Promise<boolean> {
    return (await twoFactor.findTwoFactor(this.ctx.db, user.id)) !== undefined;
  }

  /** How many unused recovery codes the user has. */
  remainingRecoveryCodes(user: User): Promise<number> {
    return recoveryCodes.countUnusedRecoveryCodes(this.ctx.db, user.id);
  }

  /** A new secret for an enrolment in progress, sealed (the page keeps it in the session). */
  newSecret(): { readonly secret: string; readonly sealed: string } {
    const secret = generateTotpSecret();
    return { secret, sealed: sealSecret(this.key, secret) };
  }

  /** The secret of an enrolment in progress. */
  openSecret(sealed: string): string {
    return openSecret(this.key, sealed);
  }

  /** The `otpauth://` URI authenticator apps scan. */
  otpauthUri(user: User, secret: string): string {
    const issuer = new URL(this.ctx.settings.server.rootUrl).host;
    const label = encodeURIComponent(`${issuer}:${user.name}`);
    return `otpauth://totp/${label}?secret=${secret}&issuer=${encodeURIComponent(issuer)}&algorithm=SHA1&digits=6&period=30`;
  }

  /** Completes an enrolment when the passcode matches the secret; returns the new recovery codes. */
  async enrol(user: User, sealedSecret: string, passcode: string): Promise<string[]> {
    const secret = openSecret(this.key, sealedSecret);
    if (!validateTotp(secret, passcode.trim())) throw new InvalidArgumentError("invalid passcode");
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await this.ctx.db.transaction().execute(async (trx) => {
      await twoFactor.upsertTwoFactor(trx, user.id, sealSecret(this.key, secret));
      await twoFactor.markPasscodeUsed(trx, user.id, passcode.trim());
      await recoveryCodes.replaceRecoveryCodes(
        trx,
        user.id,
        codes.map((c) => hashTokenSecret(normalizeRecoveryCode(c))),
      );
    });
    return codes;
  }

  /** Replaces the recovery codes of an enrolled user; the new ones. */
  async regenerateRecoveryCodes(user: User): Promise<string[]> {
    if (!(await this.isEnrolled(user)))
      throw new InvalidArgumentError("two-factor authentication is not enrolled");
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await recoveryCodes.replaceRecoveryCodes(
      this.ctx.db,
      user.id,
      codes.map((c) => hashTokenSecret(normalizeRecoveryCode(c))),
    );
    return codes;
  }

  /** Turns two-factor authentication off; false when it was not on. */
  disable(user: User): Promise<boolean> {
    return this.ctx.db.transaction().execute((trx) => twoFactor.deleteTwoFactor(trx, user.id));
  }

  /** Checks a passcode at sign-in; a passcode is good once (a replay is refused). */
  async checkPasscode(user: User, passcode: string): Promise<boolean> {
    const enrolment = await twoFactor.findTwoFactor(this.ctx.db, user.id);
    if (!enrolment) return false;
    const code = passcode.trim();
    return limitedTwoFactorCheck(
      this.ctx.db,
      user.id,
      async () =>
        validateTotp(openSecret(this.key, enrolment.secret), code) &&
        twoFactor.markPasscodeUsed(this.ctx.db, user.id, code),
    );
  }

  /** Spends a recovery code at sign-in; false when it is not one of the user's unused codes. */
  async useRecoveryCode(user: User, code: string): Promise<boolean> {
    const normalized = normalizeRecoveryCode(code);
    return limitedTwoFactorCheck(
      this.ctx.db,
      user.id,
      async () =>
        /^[a-z2-7]{10}$/.test(normalized) &&
        recoveryCodes.useRecoveryCode(this.ctx.db, user.id, hashTokenSecret(normalized)),
    );
  }
}
