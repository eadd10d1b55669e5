import { TraceMap, traceSegment } from "@jridgewell/trace-mapping";
import { moduleByName } from "../modules/loader.js";
import { startState } from "../state.js";

/** The file name the runtime bundle carries in stack traces (set by the boot code). */
export const RUNTIME_FILE = "kiln:runtime.js";

const maps = new Map<string, TraceMap | null>();

function traceMapOf(fileName: string): TraceMap | null {
  let map = maps.get(fileName);
  if (map === undefined) {
    let json: string | undefined;
    if (fileName === RUNTIME_FILE) json = startState.mainMap || undefined;
    else json = moduleByName(fileName)?.map;
    try {
      map = json ? new TraceMap(json) : null;
    } catch {
      map = null;
    }
    maps.set(fileName, map);
  }
  return map;
}

/** A position in a source file, 1-based line and column. */
export interface SourcePosition {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * Maps a position in evaluated code back to the source: for a module, from its compiled code
 * (whose line 1 is line 2 of the evaluated text) to the TypeScript it came from; for the
 * runtime bundle, through start_main_map to the runtime's own sources.
 */
export function mapPosition(fileName: string, line: number, column: number): SourcePosition {
  const isRuntime = fileName === RUNTIME_FILE;
  const generatedLine = isRuntime ? line : line - 1;
  const map = traceMapOf(fileName);
  if (map && generatedLine >= 1) {
    const generatedColumn = Math.max(0, column - 1);
    const segment = traceSegment(map, generatedLine - 1, generatedColumn);
    if (segment && segment.length >= 4) {
      const [segmentColumn, sourceIndex, sourceLine, sourceColumn] = segment as [
        number,
        number,
        number,
        number,
      ];
      // sucrase keeps lines and marks each line's start with a segment at column 0 whose source
      // column is not reliable; on such a line the code is unchanged, so columns are the same.
      const original =
        isRuntime || segmentColumn > 0 ? sourceColumn + (generatedColumn - segmentColumn) : generatedColumn;
      const file = isRuntime ? `kiln:${map.sources[sourceIndex] ?? "runtime"}` : fileName;
      return { file, line: sourceLine + 1, column: original + 1 };
    }
  }
  return { file: fileName, line: Math.max(1, generatedLine), column };
}
