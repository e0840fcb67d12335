/** Child for the SIGKILL test: rewrites one file atomically, alternating two complete versions, forever. */
import { writeFileAtomic } from "../../src/workspace/atomic.ts";

const [file, size] = [process.argv[2]!, Number(process.argv[3] ?? 200_000)];
const a = "A".repeat(size);
const b = "B".repeat(size);
console.log("ready");
for (let i = 0; ; i++) writeFileAtomic(file, i % 2 ? a : b);
