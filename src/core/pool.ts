/**
 * Runs `fn` over `items` with at most `limit` in flight, in order of start; `stop` ends the run
 * between items (an interrupted replay). The one worker pool of live calls: eval replay, the judge's
 * chunk check, `weir eval firewall`.
 */
export async function eachLimited<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>, stop?: () => boolean): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length && !stop?.()) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}
