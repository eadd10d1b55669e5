import { describe, expect, it } from "vitest";
import { fromIsoSignature, signatureDate, toIsoSignature } from "./signature.js";

describe("signatures", () => {
  it("round-trips through isomorphic-git's sign convention", () => {
    const iso = toIsoSignature({
      name: "A",
      email: "a@x",
      date: new Date("2024-01-01T00:00:00Z"),
      timezoneOffset: 330,
    });
    expect(iso).toEqual({ name: "A", email: "a@x", timestamp: 1704067200, timezoneOffset: -330 });
    expect(fromIsoSignature(iso).timezoneOffset).toBe(330);
  });

  it("formats RFC 3339 dates in the signer's timezone", () => {
    const base = { name: "A", email: "a@x", timestamp: 1704067200 };
    expect(signatureDate({ ...base, timezoneOffset: 0 })).toBe("2024-01-01T00:00:00Z");
    expect(signatureDate({ ...base, timezoneOffset: 330 })).toBe("2024-01-01T05:30:00+05:30");
    expect(signatureDate({ ...base, timezoneOffset: -480 })).toBe("2023-12-31T16:00:00-08:00");
  });
});
