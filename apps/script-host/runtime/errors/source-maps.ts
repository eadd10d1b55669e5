import { TraceMap, traceSegment } from "@jridgewell/trace-mapping";
import { moduleByName } from "../modules/loader.js";
import { startState } from "../state.js";
import { alignColumn } from "./align-columns.js";

/** The file name the runtime bundle carries in stack traces (set by the boot code). */
export const RUNTIME_FILE = "kiln:runtime.js";

let runtimeMap: TraceMap | null | undefined;
const lineCache = new Map<string, { source: string[]; compiled: string[] }>();

function runtimeTraceMap(): TraceMap | null {
  if (runtimeMap === undefined) {
    try {
      runtimeMap = startState.mainMap ? new TraceMap(startState.mainMap) : null;
    } catch {
      runtimeMap = null;
    }
  }
  return runtimeMap;
}

/** A position in a source file, 1-based line and column. */
export interface SourcePosition {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

function mapRuntime(line: number, column: number): SourcePosition {
  const map = runtimeTraceMap();
  const segment = map && traceSegment(map, line - 1, Math.max(0, column - 1));
  if (!map || !segment || segment.length < 4) return { file: RUNTIME_FILE, line, column };
  const [, sourceIndex, sourceLine, sourceColumn] = segment as [number, number, number, number];
  return {
    file: `kiln:${map.sources[sourceIndex] ?? "runtime"}`,
    line: sourceLine + 1,
    column: sourceColumn + 1,
  };
}

/**
 * Maps a position in evaluated code back to the source. A module's compiled code keeps the
 * source's lines (its line 1 is line 2 of the evaluated text, after the wrapper's header) and
 * columns are aligned token by token with the source line; the runtime bundle is mapped through
 * start_main_map to the runtime's own sources.
 */
export function mapPosition(fileName: string, line: number, column: number): SourcePosition {
  if (fileName === RUNTIME_FILE) return mapRuntime(line, column);
  const record = moduleByName(fileName);
  const sourceLine = line - 1;
  if (!record?.source || sourceLine < 1) return { file: fileName, line: Math.max(1, sourceLine), column };
  let lines = lineCache.get(fileName);
  if (!lines) {
    lines = { source: record.source.split("\n"), compiled: record.code.split("\n") };
    lineCache.set(fileName, lines);
  }
  const source = lines.source[sourceLine - 1];
  const compiled = lines.compiled[sourceLine - 1];
  if (source === undefined || compiled === undefined) return { file: fileName, line: sourceLine, column };
  return { file: fileName, line: sourceLine, column: alignColumn(source, compiled, column - 1) + 1 };
}
