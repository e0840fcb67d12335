import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * A real headless Chromium driven over the DevTools protocol (no dependency: its WebSocket and
 * Runtime.evaluate), for pages weir serves. Skip the test where `chromium` is missing.
 */
export async function chromiumPage(url: string, profileDir: string) {
  const proc = Bun.spawn(
    ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--remote-debugging-port=0", `--user-data-dir=${profileDir}`, url],
    { stdout: "ignore", stderr: "ignore" },
  );
  const portFile = join(profileDir, "DevToolsActivePort");
  const until = Date.now() + 30_000;
  while (!existsSync(portFile) || readFileSync(portFile, "utf8").split("\n").length < 2) {
    if (Date.now() > until) throw new Error("chromium did not open its DevTools port");
    await Bun.sleep(50);
  }
  const port = readFileSync(portFile, "utf8").split("\n")[0]!.trim();
  let target: { type: string; url: string; webSocketDebuggerUrl: string } | undefined;
  while (!target) {
    if (Date.now() > until) throw new Error("chromium opened no page");
    const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { type: string; url: string; webSocketDebuggerUrl: string }[];
    target = list.find((t) => t.type === "page" && t.url.startsWith(url.slice(0, 20)));
    if (!target) await Bun.sleep(50);
  }
  const ws = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((ok, fail) => {
    ws.onopen = ok;
    ws.onerror = fail;
  });
  let id = 0;
  const pending = new Map<number, (v: any) => void>();
  ws.onmessage = (m) => {
    const msg = JSON.parse(String(m.data));
    pending.get(msg.id)?.(msg);
    pending.delete(msg.id);
  };
  const send = (method: string, params: unknown) =>
    new Promise<any>((ok) => {
      const n = ++id;
      pending.set(n, ok);
      ws.send(JSON.stringify({ id: n, method, params }));
    });
  return {
    /** Evaluates `expression` in the page (promises awaited) and returns its value. */
    async eval(expression: string): Promise<unknown> {
      const r = await send("Runtime.evaluate", { expression, awaitPromise: true, returnByValue: true });
      if (r.result?.exceptionDetails) throw new Error(`page error: ${JSON.stringify(r.result.exceptionDetails).slice(0, 300)}`);
      return r.result?.result?.value;
    },
    /** Waits until `expression` is truthy in the page. */
    async waitFor(expression: string, ms = 15_000): Promise<void> {
      const end = Date.now() + ms;
      while (!(await this.eval(expression).catch(() => false))) {
        if (Date.now() > end) throw new Error(`timed out waiting for ${expression}`);
        await Bun.sleep(50);
      }
    },
    close() {
      ws.close();
      proc.kill();
    },
  };
}
