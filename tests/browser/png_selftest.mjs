// Round-trip test of check_report.mjs's PNG decoder: encodes random 8-bit
// RGB and RGBA images with each filter type (0-4, and a mix), then decodes.
// Also decodes the screenshots given on the command line, if any.
import { readFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';
import { decodePng, colourStats } from './check_report.mjs';

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function chunk(type, body) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(body.length);
  const tb = Buffer.concat([Buffer.from(type, 'latin1'), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(tb));
  return Buffer.concat([len, tb, crc]);
}

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a), pb = Math.abs(p - b), pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function encode(w, h, ch, px, filterOf) {
  const stride = w * ch;
  const raw = Buffer.alloc(h * (stride + 1));
  for (let y = 0; y < h; y++) {
    const f = filterOf(y);
    raw[y * (stride + 1)] = f;
    for (let x = 0; x < stride; x++) {
      const i = y * stride + x;
      const a = x >= ch ? px[i - ch] : 0;
      const b = y > 0 ? px[i - stride] : 0;
      const c = x >= ch && y > 0 ? px[i - stride - ch] : 0;
      const pred = [0, a, b, (a + b) >> 1, paeth(a, b, c)][f];
      raw[y * (stride + 1) + 1 + x] = (px[i] - pred) & 0xff;
    }
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = ch === 4 ? 6 : 2;
  const z = deflateSync(raw);
  // split the image data over two IDAT chunks, as encoders may
  const half = z.length >> 1;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', z.subarray(0, half)),
    chunk('IDAT', z.subarray(half)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

let passed = 0;
let failed = 0;
let seed = 12345;
const rnd = () => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 0xff;

for (const ch of [3, 4]) {
  for (const filter of [0, 1, 2, 3, 4, 'mixed']) {
    const w = 37, h = 23;
    const px = Buffer.alloc(w * h * ch);
    for (let i = 0; i < px.length; i++) px[i] = rnd();
    const png = encode(w, h, ch, px, (y) => (filter === 'mixed' ? y % 5 : filter));
    const name = `decode ${ch === 4 ? 'RGBA' : 'RGB'} filter ${filter}`;
    try {
      const img = decodePng(png);
      const same = img.width === w && img.height === h && img.channels === ch && img.data.equals(px);
      console.log(`${same ? 'ok' : 'FAIL'} ${name}`);
      same ? passed++ : failed++;
    } catch (e) {
      console.log(`FAIL ${name}: ${e.message}`);
      failed++;
    }
  }
}

// colour statistics on a known image: 90% white, 10% in 2 other colours
{
  const w = 10, h = 10, px = Buffer.alloc(w * h * 3, 255);
  for (let i = 0; i < 10; i++) px.set(i < 5 ? [255, 0, 0] : [0, 0, 255], i * 3);
  const st = colourStats(decodePng(encode(w, h, 3, px, () => 4)));
  const good = st.distinct === 3 && Math.abs(st.differing - 0.1) < 1e-9 && st.background === '#ffffffff';
  console.log(`${good ? 'ok' : 'FAIL'} colour statistics (${st.distinct} colours, ${st.differing} differing)`);
  good ? passed++ : failed++;
}

for (const f of process.argv.slice(2)) {
  try {
    const img = decodePng(readFileSync(f));
    console.log(`ok decode ${f} (${img.width}x${img.height}, ${img.channels} channels)`);
    passed++;
  } catch (e) {
    console.log(`FAIL decode ${f}: ${e.message}`);
    failed++;
  }
}

console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed ? 1 : 0;
