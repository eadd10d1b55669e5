/**
 * The only code the host puts into a new isolate before START. It takes the host's bindings off
 * the global object and returns the entry function the host calls with every batch of messages
 * (length-prefixed BaseMsg frames). The first batch is START: unless the runtime was preloaded
 * (compiled from V8's code cache), the boot code reads `start_main_js` straight from the protobuf
 * bytes (frame, then fields 2 → 13) and evaluates it; then it hands the bindings to the runtime's
 * `__kiln_attach` and every batch to the function that returns.
 */
export const bootScript = String.raw`(function () {
  "use strict";
  const g = globalThis;
  const requestRef = g.__kiln_request_ref;
  const send = g.__kiln_send;
  const rawPrint = g.__kiln_print;
  const drainedRef = g.__kiln_drained_ref;
  // Output backs up when nobody reads it: wait for the reader before printing more.
  const print = (text, stream) => {
    if (rawPrint(text, stream) === true) drainedRef.applySyncPromise(undefined, []);
  };
  delete g.__kiln_request_ref;
  delete g.__kiln_send;
  delete g.__kiln_print;
  delete g.__kiln_drained_ref;
  const request = (bytes) => requestRef.applySyncPromise(undefined, [bytes], { arguments: { copy: true } });
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
  // The first batch from the host holds START alone. A preloaded runtime has already defined
  // __kiln_attach; otherwise the bundle comes in START's start_main_js. The host puts a reference
  // to this entry itself on the global object after it is made: the runtime calls itself through
  // it to handle each further message of a batch in a task of its own.
  let entry;
  let selfRef;
  const next = () => selfRef.apply(undefined, []);
  return (batch) => {
    if (entry === undefined) {
      if (batch === undefined) throw new Error("kiln boot: the first call must carry START");
      selfRef = g.__kiln_self_ref;
      delete g.__kiln_self_ref;
      if (selfRef === undefined) throw new Error("kiln boot: the host gave no reference to the entry");
      if (typeof g.__kiln_attach !== "function") {
        const at = { i: 0 };
        const length = varint(batch, at);
        const start = batch.subarray(at.i, at.i + length);
        const payload = field(start, 2);
        const mainJs = payload && field(payload, 13);
        if (!mainJs) throw new Error("kiln boot: the first message must be START carrying start_main_js");
        (0, eval)(text(mainJs) + "\n//# sourceURL=kiln:runtime.js");
      }
      const attach = g.__kiln_attach;
      if (typeof attach !== "function") throw new Error("kiln boot: the runtime bundle did not define __kiln_attach");
      entry = attach(send, request, print, next);
    }
    return entry(batch);
  };
})()`;
