/**
 * Path rules across every file tool and Bash: write-only and zero-access (secrets), read-only and no-delete
 * (team rules from lanes.yaml), writes outside the project, normalisation and case.
 */
import { describe, it } from "vitest";
import type { PolicyLayerInput } from "../../src/config/compile.ts";
import { expectAsk, expectDenied, expectNoOpinion, judge, PROJECT, testPolicy } from "../helpers/guard.ts";

const team: PolicyLayerInput = {
  layer: "project",
  path: "/work/app/.claude/lanes.yaml",
  file: {
    version: 1,
    rules: [
      {
        id: "team.fixtures-read-only",
        effect: "deny",
        why: "fixtures are recorded from production",
        instead: "add a new fixture next to it",
        paths: { access: "read-only", patterns: ["test/fixtures/**"] },
      },
      {
        id: "team.keep-migrations",
        effect: "deny",
        why: "applied migrations must stay",
        instead: "write a new migration that reverts it",
        paths: { access: "no-delete", patterns: ["migrations/"] },
      },
    ],
  },
};
const policy = testPolicy([team]);
const abs = (rel: string) => `${PROJECT}/${rel}`;

type Call = [string, Record<string, unknown>];
const read = (rel: string): Call[] => [
  ["Read", { file_path: abs(rel) }],
  ["Grep", { pattern: "KEY", path: abs(rel) }],
  ["Glob", { pattern: rel.split("/").pop() ?? rel, path: PROJECT }],
  ["Bash", { command: `cat ${rel}` }],
];
const write = (rel: string): Call[] => [
  ["Write", { file_path: abs(rel), content: "x" }],
  ["Edit", { file_path: abs(rel), old_string: "a", new_string: "b" }],
  ["MultiEdit", { file_path: abs(rel), edits: [] }],
  ["NotebookEdit", { notebook_path: abs(rel), new_source: "x" }],
  ["Bash", { command: `echo x > ${rel}` }],
];
/** Writes that show nothing of the file: creating, overwriting, appending. */
const create = (rel: string): Call[] => [
  ["Write", { file_path: abs(rel), content: "x" }],
  ["Bash", { command: `echo x > ${rel}` }],
  ["Bash", { command: `echo K=1 >> ${rel}` }],
  ["Bash", { command: `cp .env.example ${rel}` }],
  ["Bash", { command: `touch ${rel}` }],
];
/** Edits in place: their result shows the lines around the change. */
const edit = (rel: string): Call[] => [
  ["Edit", { file_path: abs(rel), old_string: "a", new_string: "b" }],
  ["MultiEdit", { file_path: abs(rel), edits: [] }],
  ["NotebookEdit", { notebook_path: abs(rel), new_source: "x" }],
];
const remove = (rel: string): Call[] => [
  ["Bash", { command: `rm ${rel}` }],
  ["Bash", { command: `mv ${rel} /tmp/x` }],
];

describe("write-only: secrets cannot be read or deleted through any tool", () => {
  it.each([...read(".env"), ...edit(".env"), ...remove(".env")])("%s %j", (tool, input) => {
    expectDenied(judge(policy, undefined, { tool, input }), "secrets.env-files");
  });
  it.each([...create(".env"), ...create("certs/server.key")])(
    "creating or writing one discloses nothing: %s %j",
    (tool, input) => {
      expectNoOpinion(judge(policy, undefined, { tool, input }));
    },
  );
  it.each([...read(".env.example"), ...write(".env.example")])("except .env.example: %s %j", (tool, input) => {
    expectNoOpinion(judge(policy, undefined, { tool, input }));
  });
  it.each<[string, Record<string, unknown>, string[]]>([
    ["Read", { file_path: "/home/dev/.ssh/id_ed25519" }, ["secrets.credential-files", "secrets.private-keys"]],
    ["Read", { file_path: "/home/dev/.aws/credentials" }, ["secrets.credential-files"]],
    ["Grep", { pattern: "token", path: "/home/dev/.config/gcloud" }, ["secrets.credential-files"]],
    ["Glob", { pattern: "**/.env*", path: PROJECT }, ["secrets.env-files"]],
    ["Grep", { pattern: "KEY", path: PROJECT, glob: ".env*" }, ["secrets.env-files"]],
    ["Glob", { pattern: "**/*.pem", path: PROJECT }, ["secrets.private-keys"]],
  ])("credentials and globs that reach secrets: %s %j", (tool, input, rules) => {
    expectDenied(judge(policy, undefined, { tool, input }), ...rules);
  });
  it.each<Call>([
    ["Glob", { pattern: "**/*.ts", path: PROJECT }],
    ["Grep", { pattern: "KEY", path: PROJECT, glob: "*.md" }],
    ["Bash", { command: "cat *" }],
    ["Bash", { command: "wc -l src/*" }],
  ])("globs that cannot reach secrets: %s %j", (tool, input) => {
    expectNoOpinion(judge(policy, undefined, { tool, input }));
  });
  it("a shell glob that names dotfiles reaches them", () => {
    expectDenied(judge(policy, "cat .env*"), "secrets.env-files");
  });
});

describe("read-only: readable, not writable or deletable", () => {
  it.each(read("test/fixtures/users.json"))("%s %j is allowed", (tool, input) => {
    expectNoOpinion(judge(policy, undefined, { tool, input }));
  });
  it.each([...write("test/fixtures/users.json"), ...remove("test/fixtures/users.json")])(
    "%s %j is denied",
    (tool, input) => {
      expectDenied(judge(policy, undefined, { tool, input }), "team.fixtures-read-only");
    },
  );
});

describe("no-delete: editable, not deletable", () => {
  it.each([...write("migrations/001_init.sql"), ...read("migrations/001_init.sql")])(
    "%s %j is allowed",
    (tool, input) => {
      expectNoOpinion(judge(policy, undefined, { tool, input }));
    },
  );
  it.each<Call>([
    ...remove("migrations/001_init.sql"),
    ["Bash", { command: "rm -rf migrations" }],
    ["Bash", { command: "find migrations -name '*.sql' -delete" }],
  ])("%s %j is denied", (tool, input) => {
    expectDenied(judge(policy, undefined, { tool, input }), "team.keep-migrations");
  });
});

describe("normalisation", () => {
  it.each([
    "./.env",
    "src/../.env",
    "/work/app//.env",
    "/proc/self/cwd/.env",
    "~/../../work/app/.env",
    "$HOME/../../work/app/.env",
  ])("%s resolves to the secret", (path) => {
    expectDenied(judge(policy, `cat ${path}`), "secrets.env-files");
  });
  it("resolves Read paths relative to the cwd", () => {
    expectDenied(
      judge(policy, undefined, { tool: "Read", input: { file_path: "../.env" }, cwd: abs("src") }),
      "secrets.env-files",
    );
  });
  it("is case-sensitive unless the team says otherwise", () => {
    expectNoOpinion(judge(policy, "cat .ENV"));
    const ci = testPolicy([
      { layer: "project", path: "/p", file: { version: 1, options: { case_insensitive_paths: true } } },
    ]);
    expectDenied(judge(ci, "cat .ENV"), "secrets.env-files");
    expectDenied(
      judge(ci, undefined, { tool: "Read", input: { file_path: "/home/dev/.SSH/ID_RSA" } }),
      "secrets.credential-files",
      "secrets.private-keys",
    );
  });
});

describe("writes outside the project", () => {
  it.each<Call>([
    ["Write", { file_path: "/home/dev/notes.txt", content: "x" }],
    ["Edit", { file_path: "/work/other/app.ts", old_string: "a", new_string: "b" }],
    ["Bash", { command: "echo x > ../other/file" }],
    ["Bash", { command: "cp a.txt ~/a.txt" }],
  ])("ask: %s %j", (tool, input) => {
    expectAsk(judge(policy, undefined, { tool, input }), "fs.write-outside-project");
  });
  it.each<Call>([
    ["Write", { file_path: "/tmp/scratch.txt", content: "x" }],
    ["Bash", { command: "echo x > /tmp/out.log" }],
    ["Bash", { command: "echo x > /dev/null" }],
    ["Read", { file_path: "/etc/hosts" }],
  ])("no objection: %s %j", (tool, input) => {
    expectNoOpinion(judge(policy, undefined, { tool, input }));
  });
  it("can be made a deny or switched off", () => {
    const deny = testPolicy([
      { layer: "project", path: "/p", file: { version: 1, options: { outside_project_writes: "deny" } } },
    ]);
    expectDenied(
      judge(deny, undefined, { tool: "Write", input: { file_path: "/home/dev/x", content: "" } }),
      "fs.write-outside-project",
    );
    const off = testPolicy([
      { layer: "project", path: "/p", file: { version: 1, options: { outside_project_writes: "off" } } },
    ]);
    expectNoOpinion(judge(off, undefined, { tool: "Write", input: { file_path: "/home/dev/x", content: "" } }));
  });
});

describe("an allow exception of a higher layer", () => {
  const layers: PolicyLayerInput[] = [
    {
      layer: "project",
      path: "/work/app/.claude/lanes.yaml",
      file: {
        version: 1,
        rules: [
          {
            id: "team.test-env",
            effect: "allow",
            why: "the test env holds no secrets",
            instead: "-",
            paths: { access: "zero-access", patterns: [".env.test"] },
          },
        ],
      },
    },
  ];
  const withException = testPolicy(layers);
  it("cancels the built-in deny for that path only", () => {
    expectNoOpinion(judge(withException, "cat .env.test"));
    expectDenied(judge(withException, "cat .env.test .env"), "secrets.env-files");
  });
  it("cannot cancel a lower layer's rule from an even lower layer", () => {
    const local = testPolicy([
      {
        layer: "project",
        path: "/p",
        file: {
          version: 1,
          rules: [{ id: "team.no-curl", effect: "deny", why: "w", instead: "i", command: { program: "curl" } }],
        },
      },
      {
        layer: "local",
        path: "/l",
        file: {
          version: 1,
          rules: [{ id: "me.curl", effect: "allow", why: "w", instead: "i", command: { program: "curl" } }],
        },
      },
    ]);
    expectDenied(judge(local, "curl https://example.com"), "team.no-curl");
  });
});

describe("globs expanded against the file system, as the shell would", () => {
  const files = { "/work/app": ["README.md", "server.pem", ".env", "src"], "/work/app/src": ["a.ts", "b.ts"] };
  it("`cat *` reads the key that is really there, but not the dotfile", () => {
    expectDenied(judge(policy, "cat *", { files }), "secrets.private-keys");
  });
  it("`wc -l src/*` reads only source files", () => {
    expectNoOpinion(judge(policy, "wc -l src/*", { files }));
  });
  it("a tool's glob reaches dotfiles", () => {
    expectDenied(
      judge(policy, undefined, { tool: "Grep", input: { pattern: "x", path: PROJECT, glob: "*" }, files }),
      "secrets.env-files",
      "secrets.private-keys",
    );
  });
});
