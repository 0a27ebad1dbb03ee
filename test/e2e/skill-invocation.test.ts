/**
 * End to end with the real client: a generated skill, loaded with context, reaches the model with
 * its handoff protocol and the context in place of `$ARGUMENTS`, through the `/skill <context>`
 * slash command and through the Skill tool, for the plugin and for a project install.
 */
import { cpSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { generate } from "../../src/generate/generate.ts";
import {
  explain,
  makeRepo,
  runClaude,
  startMockApi,
  text,
  toolUse,
  userTexts,
  type MockApi,
  type TempRepo,
} from "./harness/index.ts";

const ROOT = join(import.meta.dirname, "../..");
const CONTEXT =
  "## Handoff context **Previous skill:** ui-components **New skill:** auth-security ### User's goal Users sign in with Google E2E-MARKER-7f3a";

let api: MockApi | undefined;
const repos: TempRepo[] = [];
afterEach(async () => {
  await api?.close();
  api = undefined;
  for (const repo of repos.splice(0)) repo.cleanup();
});

/** A plugin folder holding the committed `skills/` of this repository, named `lanes`. */
function pluginDir(repo: TempRepo): string {
  const dir = join(repo.home, "lanes-plugin");
  mkdirSync(join(dir, ".claude-plugin"), { recursive: true });
  writeFileSync(
    join(dir, ".claude-plugin", "plugin.json"),
    JSON.stringify({ name: "lanes", version: "0.0.0", description: "lanes skills under test" }),
  );
  cpSync(join(ROOT, "skills"), join(dir, "skills"), { recursive: true });
  return dir;
}

/** Every text the model received from the user side in the last main request, tool results included. */
function received(mock: MockApi): string {
  const last = mock.lastRequest();
  const results = mock.toolResults().map((r) => r.text);
  return [...userTexts(last), ...results].join("\n");
}

describe("a generated skill invoked with context", () => {
  it("/lanes:auth-security <context> reaches the model with the handoff protocol and the context", async () => {
    const repo = makeRepo();
    repos.push(repo);
    const plugin = pluginDir(repo);
    api = await startMockApi({ main: [[text("ok")]] });
    const run = await runClaude({
      repo,
      api,
      prompt: `/lanes:auth-security ${CONTEXT}`,
      args: ["--plugin-dir", plugin],
    });
    expect(run.exitCode, explain(run, api)).toBe(0);
    const seen = received(api);
    expect(seen).toContain("## Handoff protocol");
    expect(seen).toContain("You are **Auth and security** (`lanes:auth-security`)");
    expect(seen).toMatch(
      /## Context from previous skill\n\n## Handoff context .*E2E-MARKER-7f3a\n\nIf nothing appears above/,
    );
    // ${CLAUDE_PLUGIN_ROOT} is substituted, so the handoff command the model runs has a real path
    expect(seen).toContain(`node "${plugin}/dist/cli.mjs" handoff --from auth-security`);
    expect(seen).not.toContain("$ARGUMENTS");
  });

  it("the Skill tool with args loads the target skill with the context", async () => {
    const repo = makeRepo();
    repos.push(repo);
    const plugin = pluginDir(repo);
    api = await startMockApi({
      main: [[toolUse("Skill", { skill: "lanes:auth-security", args: CONTEXT })], [text("handed off")]],
    });
    const run = await runClaude({
      repo,
      api,
      prompt: "add Google login to the dashboard",
      args: ["--plugin-dir", plugin],
    });
    expect(run.exitCode, explain(run, api)).toBe(0);
    const seen = received(api);
    expect(seen, explain(run, api)).toContain("## Handoff protocol");
    expect(seen).toContain("E2E-MARKER-7f3a");
    expect(seen).not.toContain("$ARGUMENTS");
  });

  it("every generated agent and skill is listed by the client", async () => {
    const repo = makeRepo();
    repos.push(repo);
    const plugin = pluginDir(repo);
    cpSync(join(ROOT, "agents"), join(plugin, "agents"), { recursive: true });
    api = await startMockApi({ main: [[text("ok")]] });
    const run = await runClaude({ repo, api, prompt: "hi", args: ["--plugin-dir", plugin] });
    expect(run.exitCode, explain(run, api)).toBe(0);
    const request = JSON.stringify(api.lastRequest()?.body ?? {});
    const names = [
      ...readdirSync(join(ROOT, "agents")).map((f) => f.replace(/\.md$/, "")),
      ...readdirSync(join(ROOT, "skills")),
    ];
    expect(names.filter((name) => !request.includes(`lanes:${name}: `))).toEqual([]);
  });

  it("a project install (/risk-classifier <context>) gets the project's paths and no plugin namespace", async () => {
    const repo = makeRepo();
    repos.push(repo);
    cpSync(join(ROOT, "definitions"), repo.path(".claude/lanes"), { recursive: true });
    expect(generate({ root: repo.dir, target: "project" }).findings.filter((f) => f.severity !== "info")).toEqual([]);
    api = await startMockApi({ main: [[text("ok")]] });
    const run = await runClaude({ repo, api, prompt: `/risk-classifier ${CONTEXT}` });
    expect(run.exitCode, explain(run, api)).toBe(0);
    const seen = received(api);
    expect(seen).toContain("You are **Risk classifier** (`risk-classifier`)");
    expect(seen).toContain(`node "${repo.dir}/.claude/lanes/dist/cli.mjs" check --json '<command>'`);
    expect(seen).toContain(`${repo.dir}/.claude/skills/risk-classifier/references/risk-signals.md`);
    expect(seen).toContain("E2E-MARKER-7f3a");
  });
});
