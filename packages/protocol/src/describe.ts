import { reflect } from "@bufbuild/protobuf/reflect";
import { Command, type Msg, MsgSchema } from "./gen/main/msg_pb.js";

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
  const message = reflect(MsgSchema, msg);
  const parts = [commandName(msg.command)];
  for (const field of message.fields) {
    if (field.name === "command" || !message.isSet(field)) continue;
    parts.push(`${field.name}=${show((msg as unknown as Record<string, unknown>)[field.localName])}`);
  }
  if (msg.$unknown?.length) parts.push(`<${msg.$unknown.length} unknown fields>`);
  return parts.join(" ");
}
