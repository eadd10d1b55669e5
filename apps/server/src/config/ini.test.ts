import { describe, expect, it } from "vitest";
import { applyEnvOverrides, IniSyntaxError, parseIni } from "./ini.js";

describe("parseIni", () => {
  it("reads Forgejo-style app.ini: sections, comments, quotes, dotted section names", () => {
    const ini = parseIni(
      [
        "\uFEFFAPP_NAME = Kiln",
        "; a comment",
        "# another",
        "[server]",
        "ROOT_URL = https://git.example.org/",
        "http_port=8080",
        "[Quota.Default]",
        'TOTAL = "2 GiB"',
        "[security]",
        "SECRET_KEY = `abc#def;ghi`",
        "PASS = a # not a comment",
      ].join("\n"),
    );
    expect(ini.get("")?.get("APP_NAME")).toBe("Kiln");
    expect(ini.get("server")?.get("ROOT_URL")).toBe("https://git.example.org/");
    expect(ini.get("server")?.get("HTTP_PORT")).toBe("8080");
    expect(ini.get("quota.default")?.get("TOTAL")).toBe("2 GiB");
    expect(ini.get("security")?.get("SECRET_KEY")).toBe("abc#def;ghi");
    expect(ini.get("security")?.get("PASS")).toBe("a # not a comment");
  });

  it("reports syntax errors with the line number", () => {
    expect(() => parseIni("[server\n", "x.ini")).toThrow(IniSyntaxError);
    expect(() => parseIni("[server]\nnot a pair\n", "x.ini")).toThrow("x.ini:2:");
  });
});

describe("applyEnvOverrides", () => {
  it("maps KILN__SECTION__KEY, DEFAULT, and _0X2E_ escapes onto sections", () => {
    const ini = parseIni("[server]\nHTTP_PORT = 1\n");
    applyEnvOverrides(ini, {
      KILN__SERVER__HTTP_PORT: "2",
      KILN__QUOTA_0X2E_DEFAULT__TOTAL: "3G",
      KILN__DEFAULT__APP_NAME: "x",
      KILN__database__db_type: "postgres",
      FORGEJO__SERVER__HTTP_PORT: "9",
      KILN__BROKEN: "ignored",
    });
    expect(ini.get("server")?.get("HTTP_PORT")).toBe("2");
    expect(ini.get("quota.default")?.get("TOTAL")).toBe("3G");
    expect(ini.get("")?.get("APP_NAME")).toBe("x");
    expect(ini.get("database")?.get("DB_TYPE")).toBe("postgres");
  });
});
