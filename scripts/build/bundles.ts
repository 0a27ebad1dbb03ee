/**
 * The bundles of `dist/`: one self-contained bundle per hook entry of the event table and the CLI,
 * the lazily loaded shell, runner-file reader, YAML, interpreter code, parser, glob and compiler bundles,
 * the loaders of the hot hooks, and the
 * default compiled policy of the pack.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { build, type Plugin } from "esbuild";
import { compilePolicy } from "../../src/config/compile.ts";
import { AgentDefinition } from "../../src/definitions/agent.ts";
import { parseDefinition } from "../../src/definitions/load.ts";
import { BUNDLES, bundleSource, HOT_BUNDLES, type Bundle } from "../../src/host/events.ts";
import type { LoaderConfig } from "../../src/hooks/lazy/hook-loader.ts";
import { BUILTIN_AGENT_TYPES } from "../../src/policy/lanes.ts";
import { serializeCompiledPolicy } from "../../src/policy/compiled.ts";
import { CODE_ONLY, FORMATS_ONLY, forbiddenInputs, hotPathViolations, nonAscii } from "./hot-path.ts";
import { ROOT } from "./root.ts";
import { lrTablesOf, lrTablesPlugin } from "./lr-tables.ts";
import { dataTables, TableStore } from "./tables.ts";

/** Entry points and the bundle each becomes: every hook bundle of the event table, and the CLI. */
const ENTRIES: Readonly<Record<string, string>> = {
  ...Object.fromEntries((Object.keys(BUNDLES) as Bundle[]).map((bundle) => [bundle, bundleSource(bundle)])),
  cli: "src/cli/main.ts",
};

/** Bundles that run on every tool call. */
const HOT: ReadonlySet<string> = new Set(HOT_BUNDLES);

/** Kinds of call (see src/hooks/lazy/hook-loader.ts) a code cache takes in before it stops growing. */
const MAX_PROFILES = 24;

/** Bundles the hook loader runs are built inside the CommonJS wrapper it calls (src/hooks/lazy/hook-loader.ts). */
const IMPL_WRAPPER = {
  banner: { js: "(function (exports, require, module, __filename, __dirname) {" },
  footer: { js: "})" },
} as const;

const version = (): string =>
  (JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { version: string }).version;

/**
 * In hot bundles, imports of the shell module go to the lazy proxy (src/hooks/lazy/shell-proxy.ts),
 * and imports of the policy compiler to its lazy proxy (src/hooks/lazy/compiler-proxy.ts).
 */
const lazyShell: Plugin = {
  name: "lanes-lazy-shell",
  setup(b) {
    b.onResolve({ filter: /shell\/index\.ts$/ }, (args) =>
      args.importer.includes(`${join("src", "shell")}`)
        ? undefined
        : { path: join(ROOT, "src", "hooks", "lazy", "shell-proxy.ts") },
    );
    b.onResolve({ filter: /config\/load\.ts$/ }, (args) =>
      args.importer.includes(join("src", "hooks", "guard", "recompile.ts"))
        ? { path: join(ROOT, "src", "hooks", "lazy", "compiler-proxy.ts") }
        : undefined,
    );
  },
};

/**
 * In the shell bundle of the hot hooks, the YAML reader of Taskfiles goes to its lazy proxy
 * (src/hooks/lazy/yaml-proxy.ts): the `yaml` package is a bundle of its own, loaded by a `task` call.
 */
const lazyYaml: Plugin = {
  name: "lanes-lazy-yaml",
  setup(b) {
    const target = join(ROOT, "src", "shell", "formats", "yaml.ts");
    b.onResolve({ filter: /yaml\.ts$/ }, (args) =>
      resolve(args.resolveDir, args.path) === target
        ? { path: join(ROOT, "src", "hooks", "lazy", "yaml-proxy.ts") }
        : undefined,
    );
  },
};

/** The parsers are loaded lazily by the code bundle, each on the first code of its language. */
const PARSERS = ["python", "javascript"] as const;

/**
 * In the shell bundle, imports of the interpreter code analysis (src/shell/code/index.ts, from
 * outside that folder) go to its lazy proxy (src/hooks/lazy/code-proxy.ts).
 */
const lazyCode: Plugin = {
  name: "lanes-lazy-code",
  setup(b) {
    const target = join(ROOT, "src", "shell", "code", "index.ts");
    const folder = join(ROOT, "src", "shell", "code");
    b.onResolve({ filter: /code\/index\.ts$/ }, (args) =>
      resolve(args.resolveDir, args.path) === target && !args.importer.startsWith(folder)
        ? { path: join(ROOT, "src", "hooks", "lazy", "code-proxy.ts") }
        : undefined,
    );
  },
};

/**
 * In the shell bundle of the hot hooks, the readers of Makefiles, justfiles, Taskfiles, Rakefiles
 * and mise tasks go to their lazy proxy (src/hooks/lazy/formats-proxy.ts): a bundle of their own,
 * loaded by a call that runs or stores such a file.
 */
const lazyFormats: Plugin = {
  name: "lanes-lazy-formats",
  setup(b) {
    const target = join(ROOT, "src", "shell", "formats", "index.ts");
    b.onResolve({ filter: /index\.ts$/ }, (args) =>
      resolve(args.resolveDir, args.path) === target
        ? { path: join(ROOT, "src", "hooks", "lazy", "formats-proxy.ts") }
        : undefined,
    );
  },
};

/**
 * In the code bundle, imports of a parser (src/shell/code/python.ts, javascript.ts) go to its lazy
 * proxy (src/hooks/lazy/python-proxy.ts, javascript-proxy.ts).
 */
const lazyParsers: Plugin = {
  name: "lanes-lazy-parsers",
  setup(b) {
    for (const language of PARSERS) {
      const target = join(ROOT, "src", "shell", "code", `${language}.ts`);
      b.onResolve({ filter: new RegExp(`${language}\\.ts$`) }, (args) =>
        resolve(args.resolveDir, args.path) === target
          ? { path: join(ROOT, "src", "hooks", "lazy", `${language}-proxy.ts`) }
          : undefined,
      );
    }
  },
};

/** In hot bundles, imports of glob compilation (picomatch) go to the lazy proxy (src/hooks/lazy/glob-proxy.ts). */
const lazyGlobs: Plugin = {
  name: "lanes-lazy-globs",
  setup(b) {
    const target = join(ROOT, "src", "globs", "compile.ts");
    b.onResolve({ filter: /compile\.ts$/ }, (args) =>
      resolve(args.resolveDir, args.path) === target
        ? { path: join(ROOT, "src", "hooks", "lazy", "glob-proxy.ts") }
        : undefined,
    );
  },
};

/** The default compiled policy: built-in rules plus the pack's agents, no project files. */
function defaultPolicy(): string {
  const dir = join(ROOT, "definitions", "agents");
  const agents = readdirSync(dir)
    .filter((f) => f.endsWith(".yaml"))
    .sort()
    .map((f) => {
      const path = join(dir, f);
      const parsed = parseDefinition(AgentDefinition, readFileSync(path, "utf8"), `definitions/agents/${f}`);
      if (!parsed.ok)
        throw new Error(`${parsed.issues[0]?.file}:${parsed.issues[0]?.line ?? ""}: ${parsed.issues[0]?.message}`);
      // the path recorded is the pack-relative one, so the output does not depend on where the repository lives
      return { path: `definitions/agents/${f}`, definition: parsed.value.value };
    });
  const compiled = compilePolicy({ lanesVersion: version(), layers: [], agents, sources: [], listings: [] });
  if (!compiled.ok) throw new Error(compiled.issues.map((i) => `${i.file}: ${i.message}`).join("\n"));
  const known = [...new Set([...BUILTIN_AGENT_TYPES, ...agents.map((a) => a.definition.name)])].sort();
  return serializeCompiledPolicy({ ...compiled.value, knownAgentTypes: known });
}

/** The loader's code (src/hooks/lazy/hook-loader.ts), compiled once for every hot hook. */
async function loaderBody(): Promise<string> {
  const result = await build({
    stdin: {
      contents: `import { runLoader } from "./hook-loader.ts";\nrunLoader();\n`,
      resolveDir: join(ROOT, "src", "hooks", "lazy"),
      sourcefile: "hook-loader-main.ts",
      loader: "ts",
    },
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    write: false,
    logLevel: "silent",
  });
  return result.outputFiles[0]!.text;
}

/** A hot hook's loader: the generated header, then the loader's code. */
const loaderSource = (config: LoaderConfig, body: string): string =>
  `"use strict";
// lanes: ${config.name} hook loader (src/hooks/lazy/hook-loader.ts, built by scripts/build/bundles.ts); the hook itself is ${config.name}.impl.cjs
const LANES_LOADER = ${JSON.stringify(config)};
${body}`;

const bundleId = (path: string): string => createHash("sha256").update(readFileSync(path)).digest("hex").slice(0, 16);

/** Builds everything into `outDir` (the `dist/` layout) and returns problems found. */
export async function buildAll(outDir: string): Promise<string[]> {
  mkdirSync(outDir, { recursive: true });
  const problems: string[] = [];
  // LANES_BUILD_MINIFY=0 keeps the code readable, =names keeps readable names in compact code (for
  // timing marks and profiles close to the committed bundles); committed output is always minified
  const common = {
    bundle: true,
    platform: "node",
    target: "node20",
    ...(process.env["LANES_BUILD_MINIFY"] === "names"
      ? { minifyWhitespace: true, minifySyntax: true }
      : { minify: process.env["LANES_BUILD_MINIFY"] !== "0" }),
    legalComments: "eof",
    metafile: true,
    logLevel: "silent",
    define: { __LANES_VERSION__: JSON.stringify(version()) },
  } as const;
  const tables = new TableStore();
  const shell = await build({
    ...common,
    entryPoints: [join(ROOT, "src", "shell", "index.ts")],
    outfile: join(outDir, "shell.impl.cjs"),
    format: "cjs",
    ...IMPL_WRAPPER,
    inject: [join(ROOT, "scripts", "shims", "text-decoder.ts")],
    plugins: [lazyCode, dataTables(tables), lazyYaml, lazyFormats],
  });
  writeFileSync(join(outDir, "shell.tables"), tables.contents());
  problems.push(
    ...nonAscii(join(outDir, "shell.impl.cjs")),
    ...forbiddenInputs("shell", shell.metafile, [...CODE_ONLY, ...FORMATS_ONLY]),
  );
  // the YAML reader of Taskfiles, loaded by the shell bundle on a `task` call (src/hooks/lazy/yaml-proxy.ts)
  await build({
    ...common,
    entryPoints: [join(ROOT, "src", "shell", "formats", "yaml.ts")],
    outfile: join(outDir, "yaml.impl.cjs"),
    format: "cjs",
    ...IMPL_WRAPPER,
  });
  problems.push(...nonAscii(join(outDir, "yaml.impl.cjs")));
  // the readers of runner files, loaded by the shell bundle when a call runs or stores one (src/hooks/lazy/formats-proxy.ts)
  const formats = await build({
    ...common,
    entryPoints: [join(ROOT, "src", "shell", "formats", "index.ts")],
    outfile: join(outDir, "formats.impl.cjs"),
    format: "cjs",
    ...IMPL_WRAPPER,
    plugins: [lazyCode, lazyYaml],
  });
  problems.push(
    ...nonAscii(join(outDir, "formats.impl.cjs")),
    ...forbiddenInputs("formats", formats.metafile, CODE_ONLY),
  );
  // the interpreter code analysis, loaded by the shell bundle on the first call with interpreter code
  const code = await build({
    ...common,
    entryPoints: [join(ROOT, "src", "shell", "code", "index.ts")],
    outfile: join(outDir, "code.impl.cjs"),
    format: "cjs",
    ...IMPL_WRAPPER,
    plugins: [lazyParsers, dataTables()],
  });
  problems.push(
    ...nonAscii(join(outDir, "code.impl.cjs")),
    ...forbiddenInputs("code", code.metafile, ["node_modules/@lezer/", ...FORMATS_ONLY]),
  );
  // each language's parser, loaded by the code bundle on the first code of that language
  for (const language of PARSERS) {
    const tables = await lrTablesOf(language);
    writeFileSync(join(outDir, `${language}.lrtables`), tables.contents);
    const parser = await build({
      ...common,
      entryPoints: [join(ROOT, "src", "shell", "code", `${language}.ts`)],
      outfile: join(outDir, `${language}.impl.cjs`),
      format: "cjs",
      ...IMPL_WRAPPER,
      plugins: [lrTablesPlugin(language, tables.file)],
    });
    problems.push(...nonAscii(join(outDir, `${language}.impl.cjs`)), ...forbiddenInputs(language, parser.metafile));
  }
  const globs = await build({
    ...common,
    entryPoints: [join(ROOT, "src", "globs", "compile.ts")],
    outfile: join(outDir, "globs.impl.cjs"),
    format: "cjs",
    ...IMPL_WRAPPER,
  });
  problems.push(...forbiddenInputs("globs", globs.metafile));
  // the policy compiler, loaded by the hot hooks only to recompile a stale policy (src/hooks/lazy/compiler-proxy.ts)
  await build({
    ...common,
    entryPoints: [join(ROOT, "src", "config", "load.ts")],
    outfile: join(outDir, "compile.impl.cjs"),
    format: "cjs",
    plugins: [dataTables()],
  });
  const loader = await loaderBody();
  for (const [name, entry] of Object.entries(ENTRIES)) {
    const cli = name === "cli";
    const hot = HOT.has(name);
    const file = cli ? "cli.mjs" : hot ? `${name}.impl.cjs` : `${name}.cjs`;
    const result = await build({
      ...common,
      entryPoints: [join(ROOT, entry)],
      outfile: join(outDir, file),
      format: cli ? "esm" : "cjs",
      ...(hot && IMPL_WRAPPER),
      plugins: hot ? [lazyShell, lazyGlobs, dataTables()] : [dataTables()],
      // the ESM CLI bundles CommonJS dependencies, which need `require` for node built-ins
      ...(cli && {
        banner: {
          js: `import { createRequire as __lanesRequire } from "node:module"; const require = __lanesRequire(import.meta.url);`,
        },
      }),
    });
    if (hot) {
      problems.push(...hotPathViolations(name, result.metafile), ...nonAscii(join(outDir, file)));
      const ids = {
        [name]: bundleId(join(outDir, file)),
        shell: bundleId(join(outDir, "shell.impl.cjs")),
        globs: bundleId(join(outDir, "globs.impl.cjs")),
        yaml: bundleId(join(outDir, "yaml.impl.cjs")),
        formats: bundleId(join(outDir, "formats.impl.cjs")),
        code: bundleId(join(outDir, "code.impl.cjs")),
        ...Object.fromEntries(PARSERS.map((l) => [l, bundleId(join(outDir, `${l}.impl.cjs`))])),
      };
      writeFileSync(join(outDir, `${name}.cjs`), loaderSource({ name, ids, maxProfiles: MAX_PROFILES }, loader));
    }
  }
  writeFileSync(join(outDir, "policy.default.json"), defaultPolicy());
  return problems;
}
