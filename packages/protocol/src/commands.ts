import { Command, type Msg } from "./gen/main/msg_pb.js";
import { newMsg as create } from "./wire/wire-msg.js";

/**
 * ERROR: a failed or malformed request, with the reason. When it answers a FETCH_REQ it also
 * carries that request's id in `fetch_res_id`, so the runtime can reject the right promise.
 */
export function error(args: { error: string; fetchResId?: number }): Msg {
  return create({ command: Command.ERROR, error: args.error, fetchResId: args.fetchResId ?? 0 });
}

/** START (host → runtime): working directory, argv (script then its args), debug flag and the runtime bundle. */
export function start(args: {
  cwd: string;
  argv: readonly string[];
  debugFlag?: boolean;
  mainJs: string;
  mainMap?: string;
}): Msg {
  return create({
    command: Command.START,
    startCwd: args.cwd,
    startArgv: [...args.argv],
    startDebugFlag: args.debugFlag ?? false,
    startMainJs: args.mainJs,
    startMainMap: args.mainMap ?? "",
  });
}

/** CODE_FETCH (runtime → host): resolve `moduleSpecifier` against `containingFile` and load it. */
export function codeFetch(args: { moduleSpecifier: string; containingFile: string }): Msg {
  return create({
    command: Command.CODE_FETCH,
    codeFetchModuleSpecifier: args.moduleSpecifier,
    codeFetchContainingFile: args.containingFile,
  });
}

/** CODE_FETCH_RES (host → runtime): the module's name, local filename, source, and cached output if any. */
export function codeFetchRes(args: {
  moduleName: string;
  filename: string;
  sourceCode: string;
  outputCode?: string;
}): Msg {
  return create({
    command: Command.CODE_FETCH_RES,
    codeFetchResModuleName: args.moduleName,
    codeFetchResFilename: args.filename,
    codeFetchResSourceCode: args.sourceCode,
    codeFetchResOutputCode: args.outputCode ?? "",
  });
}

/** CODE_CACHE (runtime → host): store compiled output for this filename and source. */
export function codeCache(args: { filename: string; sourceCode: string; outputCode: string }): Msg {
  return create({
    command: Command.CODE_CACHE,
    codeCacheFilename: args.filename,
    codeCacheSourceCode: args.sourceCode,
    codeCacheOutputCode: args.outputCode,
  });
}

/** EXIT (runtime → host): end the process with this code. */
export function exit(args: { code: number }): Msg {
  return create({ command: Command.EXIT, exitCode: args.code });
}

/** TIMER_START (runtime → host): fire timer `id` after `duration` ms, repeatedly when `interval`. */
export function timerStart(args: { id: number; interval: boolean; duration: number }): Msg {
  return create({
    command: Command.TIMER_START,
    timerStartId: args.id,
    timerStartInterval: args.interval,
    timerStartDuration: args.duration,
  });
}

/** TIMER_READY (host → runtime): timer `id` fired; `done` when it will not fire again. */
export function timerReady(args: { id: number; done: boolean }): Msg {
  return create({
    command: Command.TIMER_READY,
    timerReadyId: args.id,
    timerReadyDone: args.done,
  });
}

/** TIMER_CLEAR (runtime → host): cancel timer `id`; an unknown id is a no-op. */
export function timerClear(args: { id: number }): Msg {
  return create({ command: Command.TIMER_CLEAR, timerClearId: args.id });
}

/** FETCH_REQ (runtime → host): GET `url`; answered by FETCH_RES or ERROR with the same id. */
export function fetchReq(args: { id: number; url: string }): Msg {
  return create({ command: Command.FETCH_REQ, fetchReqId: args.id, fetchReqUrl: args.url });
}

/** FETCH_RES (host → runtime): the response to FETCH_REQ `id`: status, `Name: value` header lines, body. */
export function fetchRes(args: {
  id: number;
  status: number;
  headerLines?: readonly string[];
  body?: Uint8Array;
}): Msg {
  return create({
    command: Command.FETCH_RES,
    fetchResId: args.id,
    fetchResStatus: args.status,
    fetchResHeaderLine: [...(args.headerLines ?? [])],
    fetchResBody: args.body ?? new Uint8Array(0),
  });
}
