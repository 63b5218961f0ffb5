// BLAKE2b (RFC 7693), unkeyed, with any digest length from 1 to 64 bytes. Caddie's ops are chained by
// BLAKE2b-256 (the digest length parameter set to 32, not a cut BLAKE2b-512), which no browser API offers. Words are
// 64 bits, held here as pairs of 32-bit halves (low half first) in Uint32Arrays. Checked against the RFC's example
// and Protocol/vectors by Tests/Web/ops.test.mjs.

// The initialisation vector (the SHA-512 one), as (low, high) halves.
const IV = new Uint32Array([
  0xf3bcc908, 0x6a09e667, 0x84caa73b, 0xbb67ae85, 0xfe94f82b, 0x3c6ef372, 0x5f1d36f1, 0xa54ff53a,
  0xade682d1, 0x510e527f, 0x2b3e6c1f, 0x9b05688c, 0xfb41bd6b, 0x1f83d9ab, 0x137e2179, 0x5be0cd19,
]);

// The message word schedule of each of the 12 rounds (rounds 10 and 11 repeat 0 and 1).
const SIGMA = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
  [14, 10, 4, 8, 9, 15, 13, 6, 1, 12, 0, 2, 11, 7, 5, 3],
  [11, 8, 12, 0, 5, 2, 15, 13, 10, 14, 3, 6, 7, 1, 9, 4],
  [7, 9, 3, 1, 13, 12, 11, 14, 2, 6, 5, 10, 4, 0, 15, 8],
  [9, 0, 5, 7, 2, 4, 10, 15, 14, 1, 11, 12, 6, 8, 3, 13],
  [2, 12, 6, 10, 0, 11, 8, 3, 4, 13, 7, 5, 15, 14, 1, 9],
  [12, 5, 1, 15, 14, 13, 4, 10, 0, 7, 6, 3, 9, 2, 8, 11],
  [13, 11, 7, 14, 12, 1, 3, 9, 5, 0, 15, 4, 8, 6, 2, 10],
  [6, 15, 14, 9, 11, 3, 0, 8, 12, 2, 13, 7, 1, 4, 10, 5],
  [10, 2, 8, 4, 7, 6, 1, 5, 15, 11, 9, 14, 3, 12, 13, 0],
];

// Word i of the working vector is v[2i] (low) and v[2i + 1] (high).
const v = new Uint32Array(32);
const m = new Uint32Array(32);

/** v[a] += v[b] + m[x], all 64-bit, carries across the halves. */
function add3(a, b, x) {
  let lo = v[2 * a] + v[2 * b];
  let hi = v[2 * a + 1] + v[2 * b + 1] + (lo > 0xffffffff ? 1 : 0);
  lo >>>= 0;
  const low = lo + m[2 * x];
  hi = hi + m[2 * x + 1] + (low > 0xffffffff ? 1 : 0);
  v[2 * a] = low;
  v[2 * a + 1] = hi;
}

/** v[a] += v[b]. */
function add2(a, b) {
  const lo = v[2 * a] + v[2 * b];
  v[2 * a + 1] = v[2 * a + 1] + v[2 * b + 1] + (lo > 0xffffffff ? 1 : 0);
  v[2 * a] = lo;
}

/** v[d] = (v[d] xor v[a]) rotated right by n (16, 24, 32 or 63). */
function xorRotate(d, a, n) {
  const lo = v[2 * d] ^ v[2 * a];
  const hi = v[2 * d + 1] ^ v[2 * a + 1];
  if (n === 32) {
    v[2 * d] = hi;
    v[2 * d + 1] = lo;
  } else if (n === 63) {
    v[2 * d] = (lo << 1) | (hi >>> 31);
    v[2 * d + 1] = (hi << 1) | (lo >>> 31);
  } else {
    v[2 * d] = (lo >>> n) | (hi << (32 - n));
    v[2 * d + 1] = (hi >>> n) | (lo << (32 - n));
  }
}

function mix(a, b, c, d, x, y) {
  add3(a, b, x);
  xorRotate(d, a, 32);
  add2(c, d);
  xorRotate(b, c, 24);
  add3(a, b, y);
  xorRotate(d, a, 16);
  add2(c, d);
  xorRotate(b, c, 63);
}

/** Compresses one 128-byte block at `offset` of `block` into the state `h`; `count` is the bytes hashed so far
 * including this block. */
function compress(h, block, offset, count, last) {
  for (let i = 0; i < 32; i += 1) {
    const at = offset + 4 * i;
    m[i] = block[at] | (block[at + 1] << 8) | (block[at + 2] << 16) | (block[at + 3] << 24);
  }
  v.set(h, 0);
  v.set(IV, 16);
  v[24] ^= count >>> 0;
  v[25] ^= Math.floor(count / 0x100000000);
  if (last) {
    v[28] = ~v[28];
    v[29] = ~v[29];
  }
  for (let round = 0; round < 12; round += 1) {
    const s = SIGMA[round % 10];
    mix(0, 4, 8, 12, s[0], s[1]);
    mix(1, 5, 9, 13, s[2], s[3]);
    mix(2, 6, 10, 14, s[4], s[5]);
    mix(3, 7, 11, 15, s[6], s[7]);
    mix(0, 5, 10, 15, s[8], s[9]);
    mix(1, 6, 11, 12, s[10], s[11]);
    mix(2, 7, 8, 13, s[12], s[13]);
    mix(3, 4, 9, 14, s[14], s[15]);
  }
  for (let i = 0; i < 16; i += 1) h[i] ^= v[i] ^ v[i + 16];
}

/** The BLAKE2b digest of `data` (a Uint8Array), `length` bytes long (1...64; 32 for Caddie's op hashes). */
export function blake2b(data, length = 32) {
  if (!(length >= 1 && length <= 64)) throw new RangeError('a BLAKE2b digest is 1 to 64 bytes long');
  const h = new Uint32Array(IV);
  // The parameter block's first word: digest length, no key, fanout 1, depth 1.
  h[0] ^= 0x01010000 ^ length;
  const block = new Uint8Array(128);
  let done = 0;
  while (data.length - done > 128) {
    compress(h, data, done, done + 128, false);
    done += 128;
  }
  block.set(data.subarray(done));
  compress(h, block, 0, data.length, true);
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i += 1) out[i] = h[i >> 2] >>> (8 * (i & 3));
  return out;
}
