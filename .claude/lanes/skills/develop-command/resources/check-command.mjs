#!/usr/bin/env node
// Checks a slash command file (`.claude/commands/<name>.md`): the phase script of develop-command.
// Usage: node check-command.mjs <file>. Prints `ok: <file>` and exits 0, or one problem per line
// and exits 1. No dependencies: the frontmatter is read as simple `key: value` lines.
import { readFileSync } from "node:fs";
import { basename } from "node:path";

const BUILT_IN = new Set(["help", "clear", "compact", "review", "init", "login", "logout", "config", "cost", "doctor", "memory", "model", "status", "agents", "hooks", "mcp", "permissions", "resume", "exit"]);
const TOOL = /^(?:Read|Write|Edit|MultiEdit|NotebookEdit|Glob|Grep|LS|Bash|WebFetch|WebSearch|TodoWrite|Agent|Task|Skill|mcp__[A-Za-z0-9_-]+)(?:\(.+\))?$/;

const file = process.argv[2];
if (file === undefined) {
  process.stderr.write("usage: node check-command.mjs <command file>\n");
  process.exit(64);
}
let text;
try {
  text = readFileSync(file, "utf8");
} catch (error) {
  process.stdout.write(`cannot read ${file}: ${error.message}\n`);
  process.exit(1);
}

const problems = [];
const name = basename(file).replace(/\.md$/, "");
if (!file.endsWith(".md")) problems.push("a command file ends in `.md`");
if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(name)) problems.push(`the name \`${name}\` is not kebab-case`);
if (BUILT_IN.has(name)) problems.push(`\`/${name}\` shadows a built-in command`);

const match = /^---\n([\s\S]*?)\n---\n?([\s\S]*)$/.exec(text.replace(/\r\n/g, "\n"));
if (match === null) {
  problems.push("no frontmatter: start with a `---` block holding at least `description`");
} else {
  const fields = new Map();
  for (const line of match[1].split("\n")) {
    const kv = /^([a-z-]+):\s*(.*)$/.exec(line);
    if (kv !== null) fields.set(kv[1], kv[2].replace(/^["']|["']$/g, ""));
  }
  const body = match[2].trim();
  if (!fields.get("description")) problems.push("`description` is missing or empty");
  else if (fields.get("description").length > 200) problems.push("`description` is over 200 characters: keep it to one line");
  const usesArgs = /\$(?:ARGUMENTS|[0-9])/.test(body);
  if (fields.has("argument-hint") && !usesArgs) problems.push("`argument-hint` is set but the body never uses the arguments");
  if (usesArgs && !fields.has("argument-hint")) problems.push("the body uses arguments: add an `argument-hint`");
  const tools = fields.get("allowed-tools");
  if (tools !== undefined) {
    for (const tool of tools.split(",").map((t) => t.trim()).filter(Boolean)) {
      if (!TOOL.test(tool)) problems.push(`\`${tool}\` in \`allowed-tools\` is not a tool or rule such as \`Bash(npm test:*)\``);
      if (tool === "Bash") problems.push("a bare `Bash` in `allowed-tools` lets every command run without a prompt: list exact rules");
    }
  }
  if (body === "") problems.push("the body is empty: say what Claude should do");
  else if (body.split("\n").length > 60) problems.push(`the body has ${body.split("\n").length} lines: keep it under 60 and move detail into a file`);
}

if (problems.length === 0) {
  process.stdout.write(`ok: ${file}\n`);
} else {
  for (const p of problems) process.stdout.write(`${file}: ${p}\n`);
  process.exitCode = 1;
}
