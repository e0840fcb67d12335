/**
 * Mines eval/checks/projects.jsonl: the root of real public repositories, each a case of "which
 * command runs this project's tests". A case holds the repository's root entries at its newest
 * stored commit (directories end in "/") and the text of the root files a detector may read; every
 * other file is recorded by name only. The labels (`quick`: the commands that run the tests, any of
 * them right; empty: none may be claimed) were written from each repository's own CI workflow,
 * Makefile or contributing guide before weir's detection was changed for them. One case comes from
 * an `npm init` package.json as published in a tutorial. Every third case is test, never tuned on.
 *   bun eval/checks/mine.ts /work/.mirror     (directories OWNER+NAME/repo, from the search tool's fetch)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

/** The files whose text is kept: manifests and build files that name a project's checks. */
const READ = /^(package\.json|Makefile|makefile|GNUmakefile|pyproject\.toml|setup\.cfg|tox\.ini|pytest\.ini|Rakefile|Gemfile|\.rspec|composer\.json|deno\.jsonc?|requirements[\w.-]*\.txt|mix\.exs)$/;

const LABELS: [string, string[]][] = [
  ["google/gson", ["mvn test"]],
  ["FasterXML/jackson-core", ["./mvnw test"]],
  ["square/okhttp", ["./gradlew test"]],
  ["square/retrofit", ["./gradlew test"]],
  ["square/okio", ["./gradlew test"]],
  ["rack/rack", ["bundle exec rake test"]],
  ["sinatra/sinatra", ["bundle exec rake test"]],
  ["rubocop/rubocop", ["bundle exec rspec", "bundle exec rake spec"]],
  ["thoughtbot/factory_bot", ["bundle exec rspec", "bundle exec rake spec"]],
  ["Seldaek/monolog", ["composer test", "vendor/bin/phpunit"]],
  ["guzzle/guzzle", ["make test", "vendor/bin/phpunit"]],
  ["serilog/serilog", ["dotnet test"]],
  ["restsharp/RestSharp", ["dotnet test"]],
  ["JamesNK/Newtonsoft.Json", []],
  ["elixir-plug/plug", ["mix test"]],
  ["phoenixframework/phoenix", ["mix test", "npm run test"]],
  ["apple/swift-argument-parser", ["swift test"]],
  ["Alamofire/Alamofire", ["swift test"]],
  ["oakserver/oak", ["deno task test"]],
  ["psf/requests", ["make test", "pytest"]],
  ["python-attrs/attrs", ["pytest"]],
  ["tornadoweb/tornado", []],
  ["expressjs/express", ["npm run test"]],
  ["colinhacks/zod", ["pnpm run test"]],
  ["spf13/cobra", ["go test ./...", "make test"]],
  ["BurntSushi/ripgrep", ["cargo test"]],
];

/** `npm init`'s package.json with a start script, as a tutorial published it: its test script only fails. */
const NPM_INIT = {
  id: "c27",
  repo: "npm init (tutorial)",
  commit: "",
  root: ["package.json", "src/", "ecosystem.config.js", "Dockerfile"],
  files: {
    "package.json": `${JSON.stringify(
      {
        name: "api",
        version: "1.0.0",
        description: "",
        main: "index.js",
        scripts: { start: "nodemon ./src/index.js", prod: "pm2-runtime ecosystem.config.js", test: 'echo "Error: no test specified" && exit 1' },
        keywords: [],
        author: "",
        license: "ISC",
        dependencies: { express: "^4.17.2", mongodb: "^4.3.0", nodemon: "^2.0.15" },
      },
      null,
      2,
    )}\n`,
  },
  quick: [] as string[],
};

const mirrors = process.argv[2];
if (!mirrors) throw new Error("usage: bun eval/checks/mine.ts MIRRORS_DIR");
const out: object[] = [];
for (const [i, [repo, quick]] of LABELS.entries()) {
  const gitDir = join(mirrors, repo.replace("/", "+"), "repo");
  const git = (...a: string[]) => Bun.spawnSync(["git", `--git-dir=${gitDir}`, ...a]).stdout.toString();
  const commit = git("rev-parse", "HEAD").trim();
  const entries = git("ls-tree", commit).trim().split("\n").map((l) => {
    const [meta, name] = l.split("\t") as [string, string];
    return meta.split(" ")[1] === "tree" ? `${name}/` : name;
  });
  const files: Record<string, string> = {};
  for (const e of entries) if (READ.test(e)) files[e] = git("show", `${commit}:${e}`);
  out.push({ id: `c${String(i + 1).padStart(2, "0")}`, repo, commit, root: entries, files, quick });
}
out.push(NPM_INIT);
const lines = out.map((c, i) => JSON.stringify({ ...c, split: i % 3 === 2 ? "test" : "dev" }));
writeFileSync(join(import.meta.dir, "projects.jsonl"), `${lines.join("\n")}\n`);
console.log(`${lines.length} cases`);
