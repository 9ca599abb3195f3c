/** Round constants of SHA-256 (FIPS 180-4, 4.2.2), built on first use. */
let roundConstants: Uint32Array | undefined;

function constants(): Uint32Array {
  if (roundConstants) return roundConstants;
  // The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
  const k = new Uint32Array(64);
  let found = 0;
  for (let candidate = 2; found < 64; candidate++) {
    let prime = true;
    for (let d = 2; d * d <= candidate; d++) if (candidate % d === 0) prime = false;
    if (!prime) continue;
    const root = Math.cbrt(candidate);
    k[found++] = Math.floor((root - Math.floor(root)) * 2 ** 32);
  }
  roundConstants = k;
  return k;
}

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/**
 * SHA-256 of the UTF-8 bytes of `text`, as 64 lowercase hex characters: the same as
 * `createHash("sha256").update(text).digest("hex")`, without loading `node:crypto` (a few milliseconds
 * of start-up). For short inputs (a path); large data should use `node:crypto`.
 */
export function sha256Hex(text: string): string {
  const data = Buffer.from(text, "utf8");
  const blocks = Math.ceil((data.length + 9) / 64);
  const bytes = new Uint8Array(blocks * 64);
  bytes.set(data);
  bytes[data.length] = 0x80;
  const view = new DataView(bytes.buffer);
  view.setUint32(bytes.length - 8, Math.floor((data.length * 8) / 2 ** 32));
  view.setUint32(bytes.length - 4, (data.length * 8) >>> 0);
  const k = constants();
  const h = Uint32Array.of(
    0x6a09e667,
    0xbb67ae85,
    0x3c6ef372,
    0xa54ff53a,
    0x510e527f,
    0x9b05688c,
    0x1f83d9ab,
    0x5be0cd19,
  );
  const w = new Uint32Array(64);
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block * 64 + t * 4);
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15] as number;
      const b = w[t - 2] as number;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[t] = (w[t - 16] as number) + s0 + (w[t - 7] as number) + s1;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as number[];
    for (let t = 0; t < 64; t++) {
      const e1 = rotr(e as number, 6) ^ rotr(e as number, 11) ^ rotr(e as number, 25);
      const choose = ((e as number) & (f as number)) ^ (~(e as number) & (g as number));
      const t1 = ((hh as number) + e1 + choose + (k[t] as number) + (w[t] as number)) >>> 0;
      const a0 = rotr(a as number, 2) ^ rotr(a as number, 13) ^ rotr(a as number, 22);
      const majority =
        ((a as number) & (b as number)) ^ ((a as number) & (c as number)) ^ ((b as number) & (c as number));
      const t2 = (a0 + majority) >>> 0;
      hh = g;
      g = f;
      f = e;
      e = ((d as number) + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    const round = [a, b, c, d, e, f, g, hh] as number[];
    for (let i = 0; i < 8; i++) h[i] = (h[i] as number) + (round[i] as number);
  }
  let hex = "";
  for (const word of h) hex += word.toString(16).padStart(8, "0");
  return hex;
}
