import { existsSync } from "node:fs";
import { maskSecret, type Resolved } from "../../config/resolve.ts";
import { usageError } from "../../core/errors.ts";
import { defaultPolicy, layerPolicy } from "../../actions/permissions.ts";

/** `weir config show`: every resolved value with its source; the key masked. */
export function configCommand(words: string[], resolved: Resolved, paths: { user: string; project: string }, out: (s: string) => void, json = false): number {
  const sub = words[1] ?? "show";
  if (sub !== "show") throw usageError(`unknown command "config ${sub}"; use: weir config show`);
  const { settings, sources } = resolved;
  const where = (p: string) => (existsSync(p) ? p : `${p} (none)`);
  // A role's key is shown as the main one is: masked, with where it came from.
  const roles = Object.fromEntries(Object.entries(settings.models).map(([role, m]) => [role, { ...m, apiKey: maskSecret(m.apiKey) }]));
  if (json) {
    const valueOf = (k: string, v: unknown) => (k === "apiKey" ? maskSecret(v as string | undefined) : k === "models" ? roles : (v ?? null));
    const sourceOf = (k: string) => sources[k as keyof typeof sources] ?? "default";
    const values = Object.fromEntries(Object.entries(settings).map(([k, v]) => [k, { value: valueOf(k, v), source: sourceOf(k) }]));
    const files = { user: { path: paths.user, exists: existsSync(paths.user) }, project: { path: paths.project, exists: existsSync(paths.project) } };
    out(`${JSON.stringify({ settings: values, files }, null, 2)}\n`);
    return 0;
  }
  const shown = (k: string, v: unknown) =>
    k === "apiKey" ? maskSecret(v as string | undefined) : v === undefined ? "(unset)" : typeof v === "object" ? JSON.stringify(v) : `${v}`;
  const rows: [string, string][] = Object.entries(settings)
    .filter(([k]) => k !== "models")
    .map(([k, v]) => [k, shown(k, v)]);
  // The roles, main first: each model, where it is sent and its key.
  rows.push(["models.main", `${settings.provider}/${settings.model}`]);
  for (const [role, m] of Object.entries(roles)) rows.push([`models.${role}`, `${m.provider}/${m.model} at ${m.baseUrl}, key ${m.apiKey} from ${m.keySource}`]);
  const width = Math.max(...rows.map(([k]) => k.length));
  const roleSource = (k: string) => (k === "models.main" ? sources.model : k.startsWith("models.") ? sources.models : "default");
  const sourceOf = (k: string) => sources[k as keyof typeof sources] ?? roleSource(k);
  for (const [k, v] of rows) out(`${k.padEnd(width)}  ${v}  (${sourceOf(k)})\n`);
  // The permission rules in force, each with where it comes from: what an approval prompt names.
  const policy = layerPolicy(layerPolicy(defaultPolicy(), resolved.permissions.user, "user"), resolved.permissions.project, "project");
  out("\npermissions (actions):\n");
  for (const [id, d] of Object.entries(policy.actions).sort()) out(`  ${id.padEnd(width)}  ${d}\n`);
  out("permissions (commands; the strictest matching rule decides):\n");
  for (const c of policy.commands) out(`  ${c.decision.padEnd(5)}  ${c.pattern}  (${c.source.split(";")[0]})\n`);
  out(`\nuser config:    ${where(paths.user)}\nproject config: ${where(paths.project)}\n`);
  return 0;
}
