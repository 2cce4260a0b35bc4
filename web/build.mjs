// Builds the web client into dist/ (served by the gateway): the bundle (esbuild: TypeScript, JSX for
// Preact) and the static files from public/. The titles' facts come from the Gateway (GetTitle).
// `node build.mjs --tests` bundles the helpers of the Python test suite (test/*.ts) for node into dist-tests/.
import * as esbuild from "esbuild";
import { cpSync, readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));

async function buildApp() {
  const out = join(here, "dist");
  rmSync(out, { recursive: true, force: true });
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
