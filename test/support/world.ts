import { afterAll, afterEach, beforeAll, beforeEach } from "bun:test";
import { mkdirSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { MockServer } from "./mock-server.ts";
import { tempDir } from "./temp.ts";

/**
 * The end-to-end tests' world: one mock wire server for the file, and per test a fresh temp dir with
 * an isolated home (config dir ready) and a workspace. Registers its own hooks.
 */
export function e2eWorld(workspaceName = "project") {
  let server: MockServer | undefined;
  let tmp: ReturnType<typeof tempDir> | undefined;
  const world = {
    get server(): MockServer {
      return server!;
    },
    /** The test's temp dir (canonical path). */
    get tmp(): string {
      return realpathSync(tmp!.path);
    },
    get home(): string {
      return join(world.tmp, "home");
    },
    get ws(): string {
      return join(world.tmp, workspaceName);
    },
  };
  beforeAll(async () => {
    server = await new MockServer().start();
  });
  afterAll(() => server?.stop());
  beforeEach(() => {
    tmp = tempDir();
    mkdirSync(join(world.home, ".config", "weir"), { recursive: true });
    mkdirSync(world.ws);
  });
  afterEach(() => tmp?.cleanup());
  return world;
}
