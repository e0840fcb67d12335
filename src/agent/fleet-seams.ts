import { quoteData } from "../context/render.ts";
import type { AgentEvent } from "../core/events.ts";
import type { Fleet } from "./fleet.ts";
import type { RunSeams } from "./run-seams.ts";

/**
 * The main agent's seams with its workers in them. `open`: reports of workers an earlier run did not
 * collect (it ended first) open the next run, quoted as the data they are (a worker's parsers load
 * when its compile needs them, not for every run: most runs start no worker). `report`: a run never ends with workers
 * still going — they are stopped, the display is told, and the closing event lists every worker's
 * spend. Neither throws: a failing fleet step leaves the run's own opening and report as they were.
 */
export function withFleet(seams: RunSeams, fleet: Fleet, o: { workspace: string; emit: (e: AgentEvent) => void }): RunSeams {
  const { open, report } = seams;
  return Object.assign(seams, {
    open: async (task: string) => {
      const opening = await open?.(task);
      const left = await fleet.uncollected().catch(() => []);
      if (!left.length) return opening;
      const block =
        `[weir · reports of workers from an earlier turn that were not ` +
        `collected]\n${quoteData(left.map((r) => JSON.stringify({ ...r, answer: r.answer.slice(0, 1_000) })).join("\n"))}`;
      return [opening, block].filter(Boolean).join("\n\n");
    },
    report: async () => {
      const stopped = await fleet.stopAll().catch(() => []);
      if (stopped.length)
        o.emit({
          type: "notice",
          level: "warn",
          message:
            `the run ended with ${stopped.length} worker${stopped.length === 1 ? "" : "s"} still running ` +
            `(${stopped.join(", ")}); stopped them (what they wrote stays)`,
        });
      const base = (await report?.()) ?? {};
      const agents = fleet.usage();
      return agents.length ? { ...base, agents } : base;
    },
  });
}
