import { describe, expect, it } from "vitest";
import { parseIni } from "./ini.js";
import { ConfigError, loadSettings } from "./load-settings.js";

const load = (text: string) => loadSettings(parseIni(text), { workPath: "/srv/kiln" });

describe("[oauth2] and [session] settings", () => {
  it("defaults to Forgejo's values", () => {
    const s = load("");
    expect(s.oauth2).toEqual({
      enabled: true,
      accessTokenExpirationTime: 3600,
      refreshTokenExpirationTime: 730,
      invalidateRefreshTokens: false,
      jwtSigningAlgorithm: "RS256",
    });
    expect(s.session).toEqual({ cookieName: "i_like_gitea", sessionLifeTime: 86400, cookieSecure: false });
    expect(load("[server]\nROOT_URL = https://forge.example/").session.cookieSecure).toBe(true);
  });

  it("reads every key", () => {
    const s = load(
      "[oauth2]\nENABLED = false\nACCESS_TOKEN_EXPIRATION_TIME = 60\nREFRESH_TOKEN_EXPIRATION_TIME = 2\nINVALIDATE_REFRESH_TOKENS = true\nJWT_SIGNING_ALGORITHM = EdDSA\n[session]\nCOOKIE_NAME = kiln_session\nSESSION_LIFE_TIME = 600\nCOOKIE_SECURE = true",
    );
    expect(s.oauth2).toEqual({
      enabled: false,
      accessTokenExpirationTime: 60,
      refreshTokenExpirationTime: 2,
      invalidateRefreshTokens: true,
      jwtSigningAlgorithm: "EdDSA",
    });
    expect(s.session).toEqual({ cookieName: "kiln_session", sessionLifeTime: 600, cookieSecure: true });
  });

  it("stops on symmetric or unknown algorithms and bad numbers", () => {
    expect(() => load("[oauth2]\nJWT_SIGNING_ALGORITHM = HS256")).toThrow(ConfigError);
    expect(() => load("[oauth2]\nJWT_SIGNING_ALGORITHM = none")).toThrow(/JWT_SIGNING_ALGORITHM/);
    expect(() => load("[oauth2]\nACCESS_TOKEN_EXPIRATION_TIME = 0")).toThrow(/ACCESS_TOKEN_EXPIRATION_TIME/);
    expect(() => load("[session]\nSESSION_LIFE_TIME = abc")).toThrow(/SESSION_LIFE_TIME/);
  });
});
