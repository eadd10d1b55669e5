import { Command, type Msg } from "./gen/main/msg_pb.js";
import { MSG_FIELDS } from "./wire/fields.js";

/** One finding of {@link validate}: a field (by its proto name) and what is wrong with it. */
export interface ValidationProblem {
  readonly field: string;
  readonly message: string;
}

/**
 * The fields each command uses, from the specification's "Used by command" column. ERROR may also
 * carry `fetch_res_id` when it answers a FETCH_REQ (see docs/protocol.md).
 */
export const fieldsByCommand: Readonly<Record<Command, readonly string[]>> = {
  [Command.ERROR]: ["error", "fetch_res_id"],
  [Command.START]: ["start_cwd", "start_argv", "start_debug_flag", "start_main_js", "start_main_map"],
  [Command.CODE_FETCH]: ["code_fetch_module_specifier", "code_fetch_containing_file"],
  [Command.CODE_FETCH_RES]: [
    "code_fetch_res_module_name",
    "code_fetch_res_filename",
    "code_fetch_res_source_code",
    "code_fetch_res_output_code",
  ],
  [Command.CODE_CACHE]: ["code_cache_filename", "code_cache_source_code", "code_cache_output_code"],
  [Command.EXIT]: ["exit_code"],
  [Command.TIMER_START]: ["timer_start_id", "timer_start_interval", "timer_start_duration"],
  [Command.TIMER_READY]: ["timer_ready_id", "timer_ready_done"],
  [Command.TIMER_CLEAR]: ["timer_clear_id"],
  [Command.FETCH_REQ]: ["fetch_req_id", "fetch_req_url"],
  [Command.FETCH_RES]: ["fetch_res_id", "fetch_res_status", "fetch_res_header_line", "fetch_res_body"],
};

/**
 * Checks a Msg against the command table: reports every field that is set (non-default, as proto3
 * sees it) but not used by the message's command, and a command value outside the enum. An empty
 * result means the message is well-formed.
 */
export function validate(msg: Msg): readonly ValidationProblem[] {
  const used = fieldsByCommand[msg.command];
  if (used === undefined) {
    return [{ field: "command", message: `unknown command value ${msg.command}` }];
  }
  const problems: ValidationProblem[] = [];
  const values = msg as unknown as Record<string, unknown>;
  for (const field of MSG_FIELDS) {
    if (field.name === "command" || !isSet(values[field.local]) || used.includes(field.name)) continue;
    problems.push({
      field: field.name,
      message: `${field.name} is set but ${Command[msg.command]} does not use it`,
    });
  }
  return problems;
}

/**
 * Whether a field of Msg holds a value proto3 would write. Every field has implicit presence, so
 * "set" means "not the zero value"; checked directly because this runs on every message the
 * host receives.
 */
export function isSet(value: unknown): boolean {
  if (typeof value === "string") return value !== "";
  if (typeof value === "number") return value !== 0;
  if (typeof value === "boolean") return value;
  if (value instanceof Uint8Array || Array.isArray(value)) return value.length > 0;
  return value !== undefined && value !== null;
}
