// Builds the web client into dist/ (served by the gateway): the bundle (esbuild: TypeScript, JSX for
// Preact), the static files from public/, and each title's facts (libs/engine/titles/<slug>/data.json,
// the one source the engine reads too) as dist/titles/<slug>.json with an index for the lobby.
// `node build.mjs --tests` bundles the helpers of the Python test suite (test/*.ts) for node into dist-tests/.
import * as esbuild from "esbuild";
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const titlesDir = join(here, "..", "libs", "engine", "titles");

async function buildApp() {
  const out = join(here, "dist");
  rmSync(out, { recursive: true, force: true });
  mkdirSync(join(out, "titles"), { recursive: true });
  const index = [];
  for (const slug of readdirSync(titlesDir).sort()) {
    const file = join(titlesDir, slug, "data.json");
    if (!existsSync(file)) continue;
    const data = JSON.parse(readFileSync(file, "utf8"));
    const meta = data.meta ?? {};
    index.push({
      title: data.title, slug: data.slug, display: meta.full_title ?? data.title,
      subtitle: meta.subtitle ?? null, players: meta.player_range ?? null,
      optional_rules: meta.optional_rules ?? [],
    });
    writeFileSync(join(out, "titles", `${data.slug}.json`), JSON.stringify(data));
  }
  writeFileSync(join(out, "titles", "index.json"), JSON.stringify(index));
  cpSync(join(here, "public"), out, { recursive: true });
  await esbuild.build({
    entryPoints: [join(here, "src", "main.tsx")],
    outfile: join(out, "app.js"),
    bundle: true, format: "esm", minify: true, sourcemap: true,
    jsx: "automatic", jsxImportSource: "preact",
    target: ["chrome110", "firefox110", "safari16"],
    logLevel: "warning",
  });
}

async function buildTests() {
  const out = join(here, "dist-tests");
  rmSync(out, { recursive: true, force: true });
  const tests = readdirSync(join(here, "test")).filter((f) => f.endsWith(".ts")).map((f) => join(here, "test", f));
  await esbuild.build({
    entryPoints: tests, outdir: out, outExtension: { ".js": ".mjs" },
    bundle: true, format: "esm", platform: "node", target: "node20",
    jsx: "automatic", jsxImportSource: "preact", logLevel: "warning",
  });
}

await (process.argv.includes("--tests") ? buildTests() : buildApp());
