import { Command, type Msg } from "./gen/main/msg_pb.js";
import { isSet } from "./validate.js";
import { MSG_FIELDS } from "./wire/fields.js";

const LONG = 120;

/** The name of a command value, or `Command(n)` for a value outside the enum. */
export function commandName(command: Command): string {
  return Command[command] ?? `Command(${command})`;
}

function show(value: unknown): string {
  if (value instanceof Uint8Array) return `<${value.byteLength} bytes>`;
  if (typeof value === "string") {
    return value.length > LONG ? `<${value.length} chars>` : JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map(show).join(", ")}]`;
  return String(value);
}

/**
 * A one-line human-readable form of a Msg for `--debug` logs: the command and each set field;
 * long strings and bytes are shown by their size only.
 */
export function describeMsg(msg: Msg): string {
  const values = msg as unknown as Record<string, unknown>;
  const parts = [commandName(msg.command)];
  for (const field of MSG_FIELDS) {
    const value = values[field.local];
    if (field.name === "command" || !isSet(value)) continue;
    parts.push(`${field.name}=${show(value)}`);
  }
  if (msg.$unknown?.length) parts.push(`<${msg.$unknown.length} unknown fields>`);
  return parts.join(" ");
}
