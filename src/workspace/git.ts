/**
 * Read-only git queries for context gathering: Bun.spawn (cheaper to start than node's
 * child_process, which matters when a compile runs git three times), a timeout, no credentials
 * in the environment, and undefined when git fails or the directory is not a repository.
 */
export async function gitOutput(root: string, args: string[], timeoutMs = 10_000): Promise<string | undefined> {
  try {
    const p = Bun.spawn(["git", ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0" },
      stdin: "ignore",
      stdout: "pipe",
      stderr: "ignore",
      timeout: timeoutMs,
    });
    const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    return code === 0 ? out : undefined;
  } catch {
    return undefined;
  }
}
