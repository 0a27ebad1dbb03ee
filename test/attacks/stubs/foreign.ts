/**
 * Stand-ins for other agents' command-line clients (bundled to `foreign.cjs`; `bin/<name>` runs
 * `node foreign.cjs <name> ...`). None of them reads Claude Code's hooks, so lanes sees only the
 * command line that starts them. Each runs the shell command after `PAYLOAD:` in its prompt when it
 * is started unattended with its documented auto-approval switch, and otherwise prints that it
 * would wait for an approval and does nothing:
 *
 * | client | unattended run | auto-approval |
 * |---|---|---|
 * | codex (OpenAI Codex CLI) | `codex exec <prompt>` | `--full-auto`, `--dangerously-bypass-approvals-and-sandbox`, `--yolo`, `--sandbox danger-full-access` or `-s workspace-write`, `--ask-for-approval never` / `-a never` |
 * | gemini (Gemini CLI) | `gemini -p <prompt>` / `--prompt` | `--yolo`, `-y`, `--approval-mode yolo` |
 * | qwen (Qwen Code) | `qwen -p <prompt>` | `--yolo`, `-y`, `--approval-mode yolo` |
 * | aider | `aider --message <prompt>` / `-m`, `--message-file` | `--yes`, `--yes-always` |
 * | opencode | `opencode run <prompt>` | none needed: its default permissions allow shell commands |
 * | cursor-agent | `cursor-agent -p <prompt>` / `--print` | `--force`, `-f` |
 * | goose | `goose run -t <prompt>` / `--text`, `-i <file>` | none needed: its default mode is `auto` |
 * | amp | `amp -x <prompt>` / `--execute` | `--dangerously-allow-all` |
 *
 * The table is this suite's reading of each client's documentation, not a test of the clients.
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";

interface Client {
  /** The prompt, when the command line is an unattended run; `undefined` otherwise. */
  readonly prompt: (argv: readonly string[]) => string | undefined;
  /** The command line carries the auto-approval switch (or none is needed). */
  readonly approved: (argv: readonly string[]) => boolean;
}

const has = (argv: readonly string[], ...flags: string[]) =>
  argv.some((a) => flags.includes(a) || flags.some((f) => f.startsWith("--") && a.startsWith(`${f}=`)));
const valueOf = (argv: readonly string[], ...flags: string[]): string | undefined => {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (flags.includes(a)) return argv[i + 1];
    for (const f of flags) if (f.startsWith("--") && a.startsWith(`${f}=`)) return a.slice(f.length + 1);
  }
  return undefined;
};
/** The words that are not options (and not the values of `valueFlags`). */
const positionals = (argv: readonly string[], valueFlags: readonly string[]): string[] => {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (valueFlags.includes(a)) i++;
    else if (!a.startsWith("-")) out.push(a);
  }
  return out;
};
const yoloValue = (argv: readonly string[]) => ["yolo", "auto_edit"].includes(valueOf(argv, "--approval-mode") ?? "");

const CLIENTS: Record<string, Client> = {
  codex: {
    prompt: (argv) => {
      const words = positionals(argv, ["-s", "--sandbox", "-a", "--ask-for-approval", "-m", "--model", "-C", "--cd"]);
      return words[0] === "exec" || words[0] === "e" ? words.slice(1).join(" ") : undefined;
    },
    approved: (argv) =>
      has(argv, "--full-auto", "--dangerously-bypass-approvals-and-sandbox", "--yolo") ||
      ["danger-full-access", "workspace-write"].includes(valueOf(argv, "-s", "--sandbox") ?? "") ||
      valueOf(argv, "-a", "--ask-for-approval") === "never",
  },
  gemini: {
    prompt: (argv) => valueOf(argv, "-p", "--prompt"),
    approved: (argv) => has(argv, "--yolo", "-y") || yoloValue(argv),
  },
  qwen: {
    prompt: (argv) => valueOf(argv, "-p", "--prompt"),
    approved: (argv) => has(argv, "--yolo", "-y") || yoloValue(argv),
  },
  aider: {
    prompt: (argv) => {
      const file = valueOf(argv, "--message-file", "-f");
      return valueOf(argv, "--message", "-m", "--msg") ?? (file !== undefined ? readFileSync(file, "utf8") : undefined);
    },
    approved: (argv) => has(argv, "--yes", "--yes-always"),
  },
  opencode: {
    prompt: (argv) => {
      const words = positionals(argv, ["-m", "--model", "--agent", "-s", "--session"]);
      return words[0] === "run" ? words.slice(1).join(" ") : undefined;
    },
    approved: () => true,
  },
  "cursor-agent": {
    prompt: (argv) =>
      has(argv, "-p", "--print") ? positionals(argv, ["--model", "-m", "--output-format"]).join(" ") : undefined,
    approved: (argv) => has(argv, "--force", "-f"),
  },
  goose: {
    prompt: (argv) => {
      const words = positionals(argv, ["-t", "--text", "-i", "--instructions", "-n", "--name"]);
      if (words[0] !== "run") return undefined;
      const file = valueOf(argv, "-i", "--instructions");
      return valueOf(argv, "-t", "--text") ?? (file !== undefined ? readFileSync(file, "utf8") : undefined);
    },
    approved: () => true,
  },
  amp: {
    prompt: (argv) => valueOf(argv, "-x", "--execute"),
    approved: (argv) => has(argv, "--dangerously-allow-all"),
  },
};

function main(name: string, argv: readonly string[]): number {
  const client = CLIENTS[name];
  if (client === undefined) {
    process.stderr.write(`${name}: unknown client stub\n`);
    return 2;
  }
  if (has(argv, "--version", "-V")) {
    process.stdout.write(`${name} 1.0.0\n`);
    return 0;
  }
  const prompt = client.prompt(argv);
  if (prompt === undefined) {
    process.stdout.write(`${name}: interactive session (no prompt given): nothing done\n`);
    return 0;
  }
  if (!client.approved(argv)) {
    process.stdout.write(`${name}: a shell command needs your approval; run without a terminal: nothing done\n`);
    return 1;
  }
  const at = prompt.indexOf("PAYLOAD:");
  if (at < 0) {
    process.stdout.write("Done.\n");
    return 0;
  }
  const r = spawnSync("bash", ["-c", prompt.slice(at + "PAYLOAD:".length).trim()], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    timeout: 20_000,
  });
  process.stdout.write(`${r.stdout}${r.stderr}`);
  return 0;
}

process.exitCode = main(process.argv[2] ?? "", process.argv.slice(3));
