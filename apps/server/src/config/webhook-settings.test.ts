import { describe, expect, it } from "vitest";
import { parseIni } from "./ini.js";
import { ConfigError, loadSettings } from "./load-settings.js";

const load = (text: string) => loadSettings(parseIni(text), { workPath: "/srv/kiln" });

describe("[webhook] settings", () => {
  it("defaults to Forgejo's (external hosts only, 5 s) and Kiln's retries (3, from 10 s)", () => {
    expect(load("").webhook).toEqual({
      allowedHostList: "external",
      deliverTimeout: 5_000,
      maxRetries: 3,
      retryBackoff: 10_000,
      queueLength: 1000,
      skipTlsVerify: false,
      proxyUrl: "",
      pagingNum: 10,
    });
  });

  it("reads the keys: DELIVER_TIMEOUT in seconds, RETRY_BACKOFF as a duration", () => {
    const w = load(
      "[webhook]\nALLOWED_HOST_LIST = loopback, 10.0.0.0/8\nDELIVER_TIMEOUT = 2\nMAX_RETRIES = 0\nRETRY_BACKOFF = 1m\nSKIP_TLS_VERIFY = true\nQUEUE_LENGTH = 5",
    ).webhook;
    expect(w).toMatchObject({
      allowedHostList: "loopback, 10.0.0.0/8",
      deliverTimeout: 2_000,
      maxRetries: 0,
      retryBackoff: 60_000,
      skipTlsVerify: true,
      queueLength: 5,
    });
    expect(load("[webhook]\nALLOWED_HOST_LIST =").webhook.allowedHostList).toBe("external");
  });

  it("stops start-up for a timeout that is not a positive number of seconds", () => {
    expect(() => load("[webhook]\nDELIVER_TIMEOUT = 0")).toThrow(ConfigError);
    expect(() => load("[webhook]\nDELIVER_TIMEOUT = 5s")).toThrow(ConfigError);
  });
});
