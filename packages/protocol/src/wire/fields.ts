/**
 * The fields of `Msg` as the wire sees them, in field-number order (the order protobuf-es
 * writes them): number, the property name in the generated type, and the kind. A test checks
 * this table against the generated descriptor (MsgSchema.fields), so it cannot drift from
 * proto/main/msg.proto.
 */
export type FieldKind = "enum" | "int32" | "bool" | "string" | "bytes" | "strings";

/** One field of Msg. */
export interface WireField {
  readonly no: number;
  /** The name in msg.proto (and in error messages). */
  readonly name: string;
  /** The property name in the generated type. */
  readonly local: string;
  readonly kind: FieldKind;
}

export const MSG_FIELDS: readonly WireField[] = [
  { no: 1, name: "command", local: "command", kind: "enum" },
  { no: 2, name: "error", local: "error", kind: "string" },
  { no: 10, name: "start_cwd", local: "startCwd", kind: "string" },
  { no: 11, name: "start_argv", local: "startArgv", kind: "strings" },
  { no: 12, name: "start_debug_flag", local: "startDebugFlag", kind: "bool" },
  { no: 13, name: "start_main_js", local: "startMainJs", kind: "string" },
  { no: 14, name: "start_main_map", local: "startMainMap", kind: "string" },
  { no: 20, name: "code_fetch_module_specifier", local: "codeFetchModuleSpecifier", kind: "string" },
  { no: 21, name: "code_fetch_containing_file", local: "codeFetchContainingFile", kind: "string" },
  { no: 30, name: "code_fetch_res_module_name", local: "codeFetchResModuleName", kind: "string" },
  { no: 31, name: "code_fetch_res_filename", local: "codeFetchResFilename", kind: "string" },
  { no: 32, name: "code_fetch_res_source_code", local: "codeFetchResSourceCode", kind: "string" },
  { no: 33, name: "code_fetch_res_output_code", local: "codeFetchResOutputCode", kind: "string" },
  { no: 41, name: "code_cache_filename", local: "codeCacheFilename", kind: "string" },
  { no: 42, name: "code_cache_source_code", local: "codeCacheSourceCode", kind: "string" },
  { no: 43, name: "code_cache_output_code", local: "codeCacheOutputCode", kind: "string" },
  { no: 50, name: "exit_code", local: "exitCode", kind: "int32" },
  { no: 60, name: "timer_start_id", local: "timerStartId", kind: "int32" },
  { no: 61, name: "timer_start_interval", local: "timerStartInterval", kind: "bool" },
  { no: 62, name: "timer_start_duration", local: "timerStartDuration", kind: "int32" },
  { no: 70, name: "timer_ready_id", local: "timerReadyId", kind: "int32" },
  { no: 71, name: "timer_ready_done", local: "timerReadyDone", kind: "bool" },
  { no: 80, name: "timer_clear_id", local: "timerClearId", kind: "int32" },
  { no: 90, name: "fetch_req_id", local: "fetchReqId", kind: "int32" },
  { no: 91, name: "fetch_req_url", local: "fetchReqUrl", kind: "string" },
  { no: 100, name: "fetch_res_id", local: "fetchResId", kind: "int32" },
  { no: 101, name: "fetch_res_status", local: "fetchResStatus", kind: "int32" },
  { no: 102, name: "fetch_res_header_line", local: "fetchResHeaderLine", kind: "strings" },
  { no: 103, name: "fetch_res_body", local: "fetchResBody", kind: "bytes" },
];
