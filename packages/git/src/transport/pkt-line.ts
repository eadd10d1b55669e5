/** Encodes one pkt-line: four hex digits of length (including themselves) then the payload. */
export function pktLine(payload: string): Uint8Array {
  const body = Buffer.from(payload, "utf8");
  const header = (body.length + 4).toString(16).padStart(4, "0");
  return Buffer.concat([Buffer.from(header, "ascii"), body]);
}

/** The flush packet that ends a pkt-line section. */
export const FLUSH_PKT: Uint8Array = Buffer.from("0000", "ascii");
