#!/usr/bin/env node
// Draws resources/icon.png (512×512): a waypoint marker on an indigo rounded square.
// Kept as code so the icon can be regenerated without design tools.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const S = 512;
const px = Buffer.alloc(S * S * 4);

function inRoundedSquare(x, y, r) {
  const cx = Math.min(Math.max(x, r), S - r);
  const cy = Math.min(Math.max(y, r), S - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
}

for (let y = 0; y < S; y++) {
  for (let x = 0; x < S; x++) {
    const i = (y * S + x) * 4;
    if (!inRoundedSquare(x + 0.5, y + 0.5, 96)) continue;
    const t = y / S;
    let [r, g, b] = [Math.round(79 - 30 * t), Math.round(70 - 25 * t), Math.round(229 - 40 * t)];
    // Marker: a circle on top of a downward point.
    const dx = x - 256, dy = y - 210;
    const inHead = dx * dx + dy * dy <= 120 * 120;
    const inPoint = y >= 290 && y <= 420 && Math.abs(dx) <= (420 - y) * 0.62;
    const inHole = dx * dx + dy * dy <= 48 * 48;
    if ((inHead || inPoint) && !inHole) [r, g, b] = [255, 255, 255];
    px[i] = r; px[i + 1] = g; px[i + 2] = b; px[i + 3] = 255;
  }
}

const raw = Buffer.alloc(S * (S * 4 + 1));
for (let y = 0; y < S; y++) px.copy(raw, y * (S * 4 + 1) + 1, y * S * 4, (y + 1) * S * 4);

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4); len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4); crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(S, 0); ihdr.writeUInt32BE(S, 4); ihdr[8] = 8; ihdr[9] = 6;
const png = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0)),
]);
writeFileSync(new URL('../resources/icon.png', import.meta.url), png);
console.log(`resources/icon.png written (${png.length} bytes)`);
