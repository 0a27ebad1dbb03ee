/**
 * Code on disk for `npm run bench`: a Makefile and a shell script of a given length, written the
 * way projects write them, that the `make` and `bash` rows run (and the guard reads).
 */

/** A Makefile of `lines` lines as projects write them: variables, pattern rules, phony targets, `all` reaching most. */
export function benchMakefile(lines: number): string {
  const out = [
    "SHELL := /bin/bash",
    "GO ?= go",
    "BIN := bin",
    "PKG := ./...",
    "VERSION := 1.4.2",
    "LDFLAGS := -s -w -X main.version=$(VERSION)",
    "SRCS := $(wildcard cmd/*/main.go)",
    "TOOLS := $(patsubst cmd/%/main.go,%,$(SRCS))",
    "DOCKER ?= docker",
    "IMAGE ?= example/app:$(VERSION)",
    "",
    ".PHONY: all clean test lint fmt vet build docker",
    "",
    "all: fmt vet lint test build",
    "",
    "%.o: %.c",
    "	$(CC) $(CFLAGS) -c $< -o $@",
    "",
  ];
  for (let i = 0; out.length + 6 <= lines - 8; i++) {
    out.push(
      `step${i}: ${i > 0 ? `step${i - 1}` : ""}`.trimEnd(),
      `	@echo "== step ${i}"`,
      `	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN)/tool${i} ./cmd/tool${i}`,
      `	@mkdir -p $(BIN)/out${i} && cp -r assets/${i} $(BIN)/out${i}/`,
      `	if [ -f $(BIN)/tool${i} ]; then echo ok; fi`,
      "",
    );
  }
  out.push(
    "build: step12",
    "	$(GO) build $(PKG)",
    "test:",
    "	$(GO) test -race $(PKG)",
    "lint:",
    "	golangci-lint run",
    "clean:",
    "	rm -rf $(BIN) dist",
  );
  while (out.length < lines) out.push(`# ${out.length}`);
  return `${out.join("\n")}\n`;
}

/** A shell script of `lines` lines as projects write them: functions, conditionals, loops, builds and tests. */
export function benchScript(lines: number): string {
  const out = [
    "#!/usr/bin/env bash",
    "set -euo pipefail",
    'ROOT="$(cd "$(dirname "$0")/.." && pwd)"',
    'cd "$ROOT"',
    "",
  ];
  for (let i = 0; out.length + 11 <= lines - 2; i++) {
    out.push(
      `step_${i}() {`,
      `  echo "== step ${i}"`,
      `  if [ -d "build/${i}" ]; then`,
      `    rm -rf "build/${i}"`,
      "  fi",
      `  mkdir -p "build/${i}"`,
      `  for f in src/part${i}/*.ts; do npx tsc --outDir "build/${i}" "$f"; done`,
      `  npx eslint "src/part${i}" --max-warnings=0`,
      "}",
      `step_${i}`,
      "",
    );
  }
  while (out.length < lines - 2) out.push(`echo "padding ${out.length}"`);
  out.push("npx vitest run --reporter=dot", 'echo "done"');
  return `${out.join("\n")}\n`;
}

/**
 * The audit log of a project lanes has guarded for a while: `bytes` of entries from earlier
 * sessions, as the hooks write them (decisions on Bash, Write and Read calls of several agents,
 * file touches), dated before now. The default limit rotates the log at 5 MB.
 */
export function benchAuditLog(bytes: number, now = Date.now()): string {
  const tools = ["Bash", "Write", "Read", "Edit"];
  const agents = ["backend", "frontend", "qa", undefined];
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const agent = agents[i % agents.length];
    const tool = tools[i % tools.length]!;
    const ts = new Date(now - 86_400_000 + i * 1_000).toISOString();
    const entry =
      i % 5 === 4
        ? { ts, session: `past-${i >> 12}`, event: "file-touched", files: [`/work/app/src/module${i % 97}/index.ts`] }
        : {
            ts,
            session: `past-${i >> 12}`,
            tool,
            subject: tool === "Bash" ? `npm test -- src/module${i % 97}` : `/work/app/src/module${i % 97}/index.ts`,
            event: "decision",
            decision: "none",
            risk: "SAFE",
            rules: [],
            ...(agent !== undefined && { agent, agent_id: `a${(i % 13).toString(16).padStart(16, "0")}` }),
          };
    const line = `${JSON.stringify(entry)}\n`;
    lines.push(line);
    size += line.length;
  }
  return lines.join("");
}
