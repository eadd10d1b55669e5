/**
 * The only code the host puts into a new isolate before START. It wires the host's bindings and
 * returns the entry function the host calls with every message. The first message must be START:
 * the boot code reads `start_main_js` straight from the protobuf bytes (fields 2 → 13), evaluates
 * the runtime bundle, and hands START (and every later message) to the handler the bundle installs.
 */
export const bootScript = String.raw`(function () {
  "use strict";
  const g = globalThis;
  const requestRef = g.__kiln_request_ref;
  delete g.__kiln_request_ref;
  g.__kiln_request = (bytes) => requestRef.applySyncPromise(undefined, [bytes], { arguments: { copy: true } });
  const varint = (bytes, at) => {
    let value = 0;
    for (let shift = 0; ; shift += 7) {
      const byte = bytes[at.i++];
      if (byte === undefined || shift > 63) throw new Error("kiln boot: truncated varint");
      value += (byte & 127) * 2 ** shift;
      if ((byte & 128) === 0) return value;
    }
  };
  const field = (bytes, wanted) => {
    const at = { i: 0 };
    let found;
    while (at.i < bytes.length) {
      const tag = varint(bytes, at);
      const type = tag % 8;
      if (type === 0) varint(bytes, at);
      else if (type === 1) at.i += 8;
      else if (type === 5) at.i += 4;
      else if (type === 2) {
        const length = varint(bytes, at);
        if (at.i + length > bytes.length) throw new Error("kiln boot: truncated field");
        if (Math.floor(tag / 8) === wanted) found = bytes.subarray(at.i, at.i + length);
        at.i += length;
      } else throw new Error("kiln boot: bad wire type " + type);
    }
    return found;
  };
  const text = (bytes) => {
    let ascii = true;
    for (let i = 0; i < bytes.length; i++) if (bytes[i] > 127) { ascii = false; break; }
    if (!ascii) {
      let escaped = "";
      for (let i = 0; i < bytes.length; i++) escaped += "%" + (bytes[i] < 16 ? "0" : "") + bytes[i].toString(16);
      return decodeURIComponent(escaped);
    }
    let out = "";
    for (let i = 0; i < bytes.length; i += 8192) out += String.fromCharCode.apply(null, bytes.subarray(i, i + 8192));
    return out;
  };
  let handler = function boot(bytes) {
    const payload = field(bytes, 2);
    const mainJs = payload && field(payload, 13);
    if (!mainJs) throw new Error("kiln boot: the first message must be START carrying start_main_js");
    (0, eval)(text(mainJs) + "\n//# sourceURL=kiln:runtime.js");
    if (handler === boot) throw new Error("kiln boot: the runtime bundle did not install its handler");
    return handler(bytes);
  };
  g.__kiln_install = (next) => {
    handler = next;
    delete g.__kiln_install;
  };
  return (bytes) => handler(bytes);
})()`;
