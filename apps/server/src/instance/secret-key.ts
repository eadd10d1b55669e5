import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mergeSettings, type Settings } from "@kiln/domain";

/**
 * `[security] SECRET_KEY` encrypts secrets at rest. When the configuration sets none, Kiln
 * generates one on first start and keeps it in `<data>/secret_key` (mode 0600), so the server
 * and CLI commands of the same work path agree on it across restarts.
 */
export function withSecretKey(settings: Settings): Settings {
  if (settings.security.secretKey) return settings;
  const file = join(settings.server.appDataPath, "secret_key");
  let key: string;
  try {
    key = readFileSync(file, "utf8").trim();
  } catch {
    key = "";
  }
  if (!key) {
    key = randomBytes(32).toString("base64url");
    mkdirSync(settings.server.appDataPath, { recursive: true });
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "w" });
  }
  return mergeSettings(settings, { security: { secretKey: key } });
}
