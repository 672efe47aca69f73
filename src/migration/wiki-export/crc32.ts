// CRC-32 as zip uses it, to check that entities.xml inflated to what the archive recorded. Node 22 has
// zlib.crc32 (native, fast); Node 20 does not, so a table-driven version in JS stands in there.
import * as zlib from 'node:zlib';

const native = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;

const TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** The CRC-32 of `data`, continued from `crc` (0 to start). */
export function crc32(data: Uint8Array, crc = 0): number {
  if (native) return native(data, crc);
  let c = ~crc >>> 0;
  for (let i = 0; i < data.length; i++) c = TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}
