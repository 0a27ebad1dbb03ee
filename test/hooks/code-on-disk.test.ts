/**
 * The built PreToolUse hook reads the code a command runs from the real disk at hook time: a
 * script, a Makefile's recipe, a package.json script, a Taskfile (through the lazily loaded YAML
 * bundle), a git hook, and the code a Write or an Edit stores. The reason names the file and line.
 */
import { chmodSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hookInput, installedProject, runHook, type Project } from "../helpers/hooks.ts";

let p: Project;
beforeAll(() => {
  p = installedProject({
    "scripts/wipe.sh": '#!/bin/sh\necho bye\nrm -rf "$HOME"\n',
    "scripts/build.sh": "#!/bin/sh\nnpx tsc -p .\n",
    Makefile: "BUILD = build\nclean:\n\trm -rf $(BUILD)\nnuke:\n\trm -rf $(HOME)\n",
    "package.json":
      '{\n  "name": "demo",\n  "scripts": {\n    "test": "vitest run",\n    "posttest": "git reset --hard"\n  }\n}\n',
    "Taskfile.yml":
      "version: '3'\ntasks:\n  drop:\n    cmds:\n      - psql -c 'DROP TABLE users'\n  lint:\n    cmds:\n      - golangci-lint run\n",
    ".git/hooks/pre-push": "#!/bin/sh\ngit clean -fdx\n",
  });
  chmodSync(p.path(".git/hooks/pre-push"), 0o755);
});
afterAll(() => p.cleanup());

const pre = (tool: string, input: Record<string, unknown>) =>
  runHook(p, "pre-tool-use.cjs", hookInput(p, "PreToolUse", { tool_name: tool, tool_input: input }));

describe("the hook judges the code a command runs from disk", () => {
  it.each([
    ["bash scripts/wipe.sh", "fs.delete-home", "scripts/wipe.sh:3"],
    ["make nuke", "fs.delete-home", "Makefile:5"],
    ["npm test", "git.reset-hard", "package.json:5"],
    ["task drop", "db.drop", "Taskfile.yml:5"],
    ["git push origin main", "git.clean-force", ".git/hooks/pre-push:2"],
  ])("`%s` is denied by %s, naming %s", (command, rule, where) => {
    const run = pre("Bash", { command });
    expect(run.status).toBe(0);
    const out = run.json?.["hookSpecificOutput"] as Record<string, string>;
    expect(out["permissionDecision"]).toBe("deny");
    expect(out["permissionDecisionReason"]).toContain(`[${rule}]`);
    expect(out["permissionDecisionReason"]).toContain(`(${where})`);
  });

  it.each(["bash scripts/build.sh", "make clean", "task lint", "git commit -m x"])(
    "`%s` gets no objection",
    (command) => {
      expect(pre("Bash", { command })).toMatchObject({ status: 0, stdout: "" });
    },
  );

  it("judges what a Write or an Edit stores in a file a tool runs later", () => {
    const write = pre("Write", {
      file_path: p.path("justfile"),
      content: "reset:\n    git push --force origin main\n",
    });
    expect((write.json?.["hookSpecificOutput"] as Record<string, string>)["permissionDecisionReason"]).toContain(
      "[git.push-force]",
    );
    const edit = pre("Edit", { file_path: p.path("Makefile"), old_string: "BUILD = build", new_string: "BUILD = /" });
    expect((edit.json?.["hookSpecificOutput"] as Record<string, string>)["permissionDecision"]).toBe("deny");
    expect(
      pre("Edit", { file_path: p.path("Makefile"), old_string: "BUILD = build", new_string: "BUILD = out" }),
    ).toMatchObject({
      status: 0,
      stdout: "",
    });
  });
});
