import { describe, expect, it } from "vitest";
import { hashPassword, verifyPassword } from "./password.js";
import { openSecret, sealSecret } from "./secret-box.js";
import { generateTokenSecret, hashTokenSecret } from "./token-secret.js";
import { currentTotp, generateTotpSecret, validateTotp } from "./totp.js";

describe("password hashing", () => {
  it("verifies the right password only, with a salted PHC scrypt hash", async () => {
    const a = await hashPassword("correct horse");
    const b = await hashPassword("correct horse");
    expect(a).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[\w-]+\$[\w-]+$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword("correct horse", a)).toBe(true);
    expect(await verifyPassword("correct horsf", a)).toBe(false);
    expect(await verifyPassword("anything", "")).toBe(false);
    expect(await verifyPassword("anything", "plaintext")).toBe(false);
  });
});

describe("token secrets", () => {
  it("are 40 hex characters and hash deterministically", () => {
    const s = generateTokenSecret();
    expect(s).toMatch(/^[0-9a-f]{40}$/);
    expect(generateTokenSecret()).not.toBe(s);
    expect(hashTokenSecret(s)).toBe(hashTokenSecret(s));
    expect(hashTokenSecret(s)).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe("secret box", () => {
  it("round-trips under the same key and fails under another", () => {
    const sealed = sealSecret("k1", "JBSWY3DPEHPK3PXP");
    expect(sealed).not.toContain("JBSWY3DPEHPK3PXP");
    expect(openSecret("k1", sealed)).toBe("JBSWY3DPEHPK3PXP");
    expect(() => openSecret("k2", sealed)).toThrow();
  });
});

describe("TOTP", () => {
  it("accepts the current passcode and one step of drift, not older ones", () => {
    const secret = generateTotpSecret();
    const now = Date.UTC(2026, 10, 21, 12, 0, 0);
    expect(validateTotp(secret, currentTotp(secret, now), now)).toBe(true);
    expect(validateTotp(secret, currentTotp(secret, now - 30_000), now)).toBe(true);
    expect(validateTotp(secret, currentTotp(secret, now - 120_000), now)).toBe(false);
    expect(validateTotp(secret, "12345", now)).toBe(false);
  });
});
