import type { RawResult } from "./raw-caller.js";
import type { Instance } from "./targets.js";
import type { ActorName, Secret } from "./world-model.js";

/** The JSON shape an object has, to compare its `id` with ids of the same kind only. */
function shapeOf(o: Record<string, unknown>): Secret["kind"] | undefined {
  if ("full_name" in o && "owner" in o) return "repo";
  if ("permission" in o && ("units" in o || "includes_all_repositories" in o)) return "team";
  if ("login" in o || "username" in o) return "user";
  return undefined;
}

function findIds(value: unknown, hidden: readonly Secret[], found: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) findIds(item, hidden, found);
    return;
  }
  if (typeof value !== "object" || value === null) return;
  const o = value as Record<string, unknown>;
  const kind = shapeOf(o);
  if (kind && typeof o.id === "number" && ("name" in o || "full_name" in o || "username" in o)) {
    const secret = hidden.find(
      (s) => s.id === o.id && (s.kind === kind || (kind === "user" && s.kind === "org")),
    );
    if (secret) found.push(`a ${kind} object with the id ${o.id} of ${secret.kind} ${secret.name}`);
  }
  for (const child of Object.values(o)) findIds(child, hidden, found);
}

/**
 * What an answer reveals to `actor` that it may not see: names of hidden things in the body or
 * headers (except names the request itself carried, which an error message may echo), and JSON
 * objects carrying a hidden thing's id.
 */
export function leaksIn(
  actor: ActorName,
  secrets: readonly Secret[],
  instance: Pick<Instance, "path" | "body">,
  res: RawResult,
): string[] {
  const asked = `${safeDecode(instance.path)} ${JSON.stringify(instance.body ?? "")}`;
  const hidden = secrets.filter((s) => s.hiddenFrom.has(actor));
  const headerText = [...res.headers.entries()].map(([k, v]) => `${k}: ${v}`).join("\n");
  const found: string[] = [];
  for (const s of hidden) {
    if (asked.includes(s.name)) continue;
    if (res.text.includes(s.name)) found.push(`the name of ${s.kind} ${s.name} in the body`);
    if (headerText.includes(s.name)) found.push(`the name of ${s.kind} ${s.name} in a header`);
  }
  const askedIds = hidden.filter((s) => asked.includes(s.name));
  findIds(
    res.json,
    hidden.filter((s) => !askedIds.includes(s)),
    found,
  );
  return found;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** Excerpt of a body for a failure message. */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, " ");
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
}
