import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { NotFoundError } from "@kiln/domain";

/** One license of the catalogue: its SPDX identifier and name. */
export interface LicenseEntry {
  readonly key: string;
  readonly name: string;
}

/** A license with its text, to put in a repository's `LICENSE`. */
export interface LicenseTemplate extends LicenseEntry {
  readonly body: string;
}

interface SpdxEntry {
  readonly name: string;
  readonly licenseText?: string;
}

/**
 * The license templates (Forgejo's `options/license`): every license of the SPDX list, with its
 * text, from the maintained `spdx-license-list` package rather than copied by hand. The list is
 * read once; a license's text is read from its own file when asked for.
 */
export class LicenseTemplates {
  readonly #dir: string;
  #entries: Promise<ReadonlyMap<string, LicenseEntry>> | undefined;

  constructor() {
    this.#dir = dirname(createRequire(import.meta.url).resolve("spdx-license-list/spdx.json"));
  }

  /** Every license, sorted by identifier (case-insensitively). */
  async list(): Promise<LicenseEntry[]> {
    return [...(await this.#load()).values()];
  }

  /** One license by its SPDX identifier (exact spelling); NotFoundError when there is none. */
  async get(key: string): Promise<LicenseTemplate> {
    const entry = (await this.#load()).get(key);
    if (!entry) throw new NotFoundError();
    const raw = JSON.parse(
      await readFile(join(this.#dir, "licenses", `${entry.key}.json`), "utf8"),
    ) as SpdxEntry;
    return { ...entry, body: raw.licenseText ?? "" };
  }

  #load(): Promise<ReadonlyMap<string, LicenseEntry>> {
    this.#entries ??= readFile(join(this.#dir, "spdx.json"), "utf8").then((text) => {
      const all = JSON.parse(text) as Record<string, SpdxEntry>;
      const keys = Object.keys(all).sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" }));
      return new Map(keys.map((key) => [key, { key, name: all[key]?.name ?? key }]));
    });
    return this.#entries;
  }
}

/** The instance's license catalogue (read from the package on first use). */
export const licenseTemplates = new LicenseTemplates();

/**
 * A license's text for a new repository's `LICENSE`, with the usual placeholders for the year
 * and the copyright holder filled in (as Forgejo's `repository.GetLicense` does).
 */
export function fillLicense(body: string, holder: string, year: number): string {
  return body
    .replace(/<year>|\[year\]|\[yyyy\]|\{yyyy\}|<yyyy>/g, String(year))
    .replace(
      /<copyright holders?>|<owner>|\[fullname\]|\[name of copyright owner\]|<name of author>/g,
      holder,
    );
}
