const MAX_DEPTH = 3;

function key(name: PropertyKey): string {
  if (typeof name === "symbol") return `[${name.toString()}]`;
  const text = String(name);
  return /^[A-Za-z_$][\w$]*$/.test(text) ? text : JSON.stringify(text);
}

function inner(value: unknown, depth: number, seen: Set<object>): string {
  if (typeof value === "string") return JSON.stringify(value);
  return inspect(value, depth, seen);
}

/**
 * Formats a value for console output the way Deno and Node do, compactly: objects as
 * `{ a: 1, b: "x" }`, arrays as `[ 1, 2 ]`, errors by their stack, cycles as `[Circular]`.
 */
export function inspect(value: unknown, depth = 0, seen = new Set<object>()): string {
  switch (typeof value) {
    case "string":
      return value;
    case "bigint":
      return `${value}n`;
    case "symbol":
      return value.toString();
    case "function":
      return value.name ? `[Function: ${value.name}]` : "[Function (anonymous)]";
    case "undefined":
      return "undefined";
    case "number":
      return Object.is(value, -0) ? "-0" : String(value);
    case "boolean":
      return String(value);
  }
  if (value === null) return "null";
  const object = value as object;
  if (object instanceof Error) return object.stack ?? `${object.name}: ${object.message}`;
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? "Invalid Date" : object.toISOString();
  if (object instanceof RegExp) return String(object);
  if (seen.has(object)) return "[Circular]";
  const name = Object.getPrototypeOf(object)?.constructor?.name as string | undefined;
  if (depth > MAX_DEPTH) return Array.isArray(object) ? "[Array]" : `[${name ?? "Object"}]`;
  seen.add(object);
  try {
    const parts: string[] = [];
    let open = "{";
    let close = "}";
    let prefix = name && name !== "Object" ? `${name} ` : name ? "" : "[Object: null prototype] ";
    if (Array.isArray(object)) {
      [open, close, prefix] = ["[", "]", ""];
      for (const item of object) parts.push(inner(item, depth + 1, seen));
    } else if (object instanceof Map) {
      prefix = `Map(${object.size}) `;
      for (const [k, v] of object) parts.push(`${inner(k, depth + 1, seen)} => ${inner(v, depth + 1, seen)}`);
    } else if (object instanceof Set) {
      prefix = `Set(${object.size}) `;
      for (const item of object) parts.push(inner(item, depth + 1, seen));
    } else if (ArrayBuffer.isView(object) && !(object instanceof DataView)) {
      [open, close, prefix] = ["[", "]", `${name}(${(object as Uint8Array).length}) `];
      for (const item of Array.from(object as unknown as ArrayLike<number>)) parts.push(String(item));
    } else if (object instanceof Promise) {
      return "Promise { <unknown> }";
    }
    if (!Array.isArray(object) && !ArrayBuffer.isView(object)) {
      for (const name of Reflect.ownKeys(object)) {
        const descriptor = Object.getOwnPropertyDescriptor(object, name);
        if (!descriptor?.enumerable) continue;
        const shown = "value" in descriptor ? inner(descriptor.value, depth + 1, seen) : "[Getter]";
        parts.push(`${key(name)}: ${shown}`);
      }
    }
    if (parts.length === 0) return `${prefix}${open}${close}`;
    const oneLine = `${prefix}${open} ${parts.join(", ")} ${close}`;
    if (oneLine.length <= 80 - depth * 2) return oneLine;
    const indent = "  ".repeat(depth + 1);
    return `${prefix}${open}\n${indent}${parts.join(`,\n${indent}`)}\n${"  ".repeat(depth)}${close}`;
  } finally {
    seen.delete(object);
  }
}
