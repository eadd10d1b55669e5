/**
 * UTF-8 TextEncoder and TextDecoder for the isolate, which has none (they are web APIs, not
 * V8). Written here because the bundle must stay small and free of Node; follows the Encoding
 * Standard for UTF-8: U+FFFD for invalid sequences, `fatal`, and `ignoreBOM`.
 */
export class KilnTextEncoder {
  readonly encoding = "utf-8";

  encode(input = ""): Uint8Array {
    const text = String(input);
    const out = new Uint8Array(text.length * 3);
    let at = 0;
    for (let i = 0; i < text.length; i++) {
      let code = text.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
        const low = text.charCodeAt(i + 1);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i++;
        }
      }
      if (code >= 0xd800 && code <= 0xdfff) code = 0xfffd;
      if (code < 0x80) out[at++] = code;
      else if (code < 0x800) {
        out[at++] = 0xc0 | (code >> 6);
        out[at++] = 0x80 | (code & 63);
      } else if (code < 0x10000) {
        out[at++] = 0xe0 | (code >> 12);
        out[at++] = 0x80 | ((code >> 6) & 63);
        out[at++] = 0x80 | (code & 63);
      } else {
        out[at++] = 0xf0 | (code >> 18);
        out[at++] = 0x80 | ((code >> 12) & 63);
        out[at++] = 0x80 | ((code >> 6) & 63);
        out[at++] = 0x80 | (code & 63);
      }
    }
    return out.slice(0, at);
  }
}

/** Decodes UTF-8 bytes (only UTF-8; other labels throw RangeError). */
export class KilnTextDecoder {
  readonly encoding = "utf-8";
  readonly fatal: boolean;
  readonly ignoreBOM: boolean;

  constructor(label = "utf-8", options: { fatal?: boolean; ignoreBOM?: boolean } = {}) {
    if (!/^(utf-?8|unicode-1-1-utf-8)$/i.test(String(label).trim())) {
      throw new RangeError(`The encoding "${label}" is not supported; only utf-8 is`);
    }
    this.fatal = Boolean(options.fatal);
    this.ignoreBOM = Boolean(options.ignoreBOM);
  }

  decode(input?: ArrayBuffer | ArrayBufferView): string {
    const bytes =
      input === undefined
        ? new Uint8Array(0)
        : input instanceof ArrayBuffer
          ? new Uint8Array(input)
          : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
    let i = !this.ignoreBOM && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    let out = "";
    // Fast path for the ASCII prefix (all of the runtime bundle and most sources).
    let ascii = i;
    while (ascii < bytes.length && bytes[ascii]! < 0x80) ascii++;
    for (let chunk = i; chunk < ascii; chunk += 8192) {
      out += String.fromCharCode.apply(
        null,
        bytes.subarray(chunk, Math.min(ascii, chunk + 8192)) as unknown as number[],
      );
    }
    i = ascii;
    const units: number[] = [];
    const bad = () => {
      if (this.fatal) throw new TypeError("The encoded data was not valid utf-8");
      units.push(0xfffd);
    };
    while (i < bytes.length) {
      const first = bytes[i]!;
      const need =
        first < 0x80
          ? 0
          : first >= 0xc2 && first <= 0xdf
            ? 1
            : first >= 0xe0 && first <= 0xef
              ? 2
              : first >= 0xf0 && first <= 0xf4
                ? 3
                : -1;
      if (need === -1) {
        bad();
        i++;
      } else {
        let code = need === 0 ? first : first & (0x3f >> need);
        const lower = first === 0xe0 ? 0xa0 : first === 0xf0 ? 0x90 : 0x80;
        const upper = first === 0xed ? 0x9f : first === 0xf4 ? 0x8f : 0xbf;
        let j = 1;
        for (; j <= need; j++) {
          const next = bytes[i + j];
          if (next === undefined || next < (j === 1 ? lower : 0x80) || next > (j === 1 ? upper : 0xbf)) break;
          code = (code << 6) | (next & 0x3f);
        }
        if (j <= need) {
          bad();
          i += j;
        } else {
          if (code >= 0x10000)
            units.push(0xd800 + ((code - 0x10000) >> 10), 0xdc00 + ((code - 0x10000) & 0x3ff));
          else units.push(code);
          i += need + 1;
        }
      }
      if (units.length > 8192) out += String.fromCharCode(...units.splice(0));
    }
    return out + String.fromCharCode(...units);
  }
}
