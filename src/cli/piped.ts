import { fstatSync } from "node:fs";

interface Piped {
  text: string;
  /** Bytes read (at most the cap). */
  bytes: number;
  /** Whether more was there than the cap. */
  cut: boolean;
}

/**
 * Input piped to weir beside a task (`git diff | weir "review this diff"`): read to its end, at most
 * `maxBytes`, when stdin is a pipe or a file. A pipe that has said nothing after `waitMs` is not
 * waited for (a parent that keeps stdin open and never writes must not hang the run); undefined then,
 * and for a terminal or /dev/null.
 */
export async function pipedInput(maxBytes = 1_000_000, waitMs = 3_000): Promise<Piped | "silent" | undefined> {
  let st;
  try {
    st = fstatSync(0);
  } catch {
    return undefined; // no stdin at all
  }
  if (!st.isFIFO() && !st.isFile()) return undefined;
  const reader = Bun.stdin.stream().getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let next = reader.read();
  const first = await Promise.race([next, Bun.sleep(waitMs).then(() => "late" as const)]);
  if (first === "late") return "silent";
  let r = first;
  while (!r.done) {
    const room = maxBytes - bytes;
    chunks.push(r.value.subarray(0, room));
    bytes += Math.min(room, r.value.length);
    if (r.value.length > room) {
      await reader.cancel();
      return { text: Buffer.concat(chunks).toString("utf8"), bytes, cut: true };
    }
    next = reader.read();
    r = await next;
  }
  return { text: Buffer.concat(chunks).toString("utf8"), bytes, cut: false };
}
