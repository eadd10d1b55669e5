import { TraceMap, traceSegment } from "@jridgewell/trace-mapping";
import { moduleByName } from "../modules/loader.js";
import { HEADER_LINES } from "../modules/register.js";
import { startState } from "../state.js";

/** The file name the runtime bundle carries in stack traces (set by the boot code). */
export const RUNTIME_FILE = "kiln:runtime.js";

let runtimeMap: TraceMap | null | undefined;
const moduleMaps = new Map<string, TraceMap | null>();
const INLINE_MAP = "//# sourceMappingURL=data:application/json;charset=utf-8,";

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

/** The inline source map the host appended to a module's compiled code, parsed once. */
function moduleTraceMap(fileName: string): TraceMap | null {
  let map = moduleMaps.get(fileName);
  if (map !== undefined) return map;
  map = null;
  const code = moduleByName(fileName)?.code ?? "";
  const at = code.lastIndexOf(INLINE_MAP);
  if (at !== -1) {
    try {
      map = new TraceMap(decodeURIComponent(code.slice(at + INLINE_MAP.length).trim()));
    } catch {
      map = null;
    }
  }
  moduleMaps.set(fileName, map);
  return map;
}

/**
 * Maps a position in evaluated code back to the source: a module's through the source map the
 * host's compiler made (its code starts after the wrapper's header line), the runtime bundle's
 * through start_main_map to the runtime's own sources.
 */
export function mapPosition(fileName: string, line: number, column: number): SourcePosition {
  if (fileName === RUNTIME_FILE) return mapRuntime(line, column);
  const map = moduleTraceMap(fileName);
  const generatedLine = line - 1 - HEADER_LINES;
  const segment = map && generatedLine >= 0 && traceSegment(map, generatedLine, Math.max(0, column - 1));
  if (!segment || segment.length < 4)
    return { file: fileName, line: Math.max(1, line - HEADER_LINES), column };
  const [, , sourceLine, sourceColumn] = segment as [number, number, number, number];
  return { file: fileName, line: sourceLine + 1, column: sourceColumn + 1 };
}
