/**
 * The readers of the files runners take their code from (src/shell/formats/): what `make`, `just`
 * and `task` would run for a goal, package.json scripts with their lines, git config values.
 */
import { describe, expect, it } from "vitest";
import {
  parseYaml,
  planJust,
  planMake,
  planTask,
  readGitConfig,
  readMiseTasks,
  readPackageJson,
  readRakefile,
  type MakeInput,
} from "../../src/shell/formats/index.ts";

const T = "\t";

function make(text: string, more: Partial<MakeInput> = {}) {
  return planMake({
    makefiles: [{ text, file: "Makefile" }],
    dir: "/work/app",
    goals: [],
    overrides: new Map(),
    env: new Map([["HOME", "/home/dev"]]),
    envOverrides: false,
    evals: [],
    make: "make",
    include: () => "missing",
    tick: () => {},
    ...more,
  });
}

/** What each target's recipe runs: `target: line; line`. */
const runs = (plan: ReturnType<typeof make>) =>
  plan.runs.map((r) => `${r.target}: ${r.lines.map((l) => l.code).join("; ")}`);

describe("the Makefile reader", () => {
  it.each([
    // [makefile, goals, what runs]
    [`all: a b\na:\n${T}echo a\nb:\n${T}echo b\n`, [], ["a: echo a", "b: echo b"]],
    [`.PHONY: x\nx:\n${T}@-echo x\n`, [], ["x: echo x"]],
    [`.DEFAULT_GOAL := y\nx:\n${T}echo x\ny:\n${T}echo y\n`, [], ["y: echo y"]],
    [`A = 1\nB := $(A)\nA = 2\nx:\n${T}echo $(A) $(B)\n`, [], ["x: echo 2 1"]],
    [`D ?= build\nx:\n${T}rm -rf $(D)/*\n`, [], ["x: rm -rf build/*"]],
    [`F += a\nF += b\nx:\n${T}echo $(F)\n`, [], ["x: echo a b"]],
    [`x:\n${T}rm -rf $(UNSET)/*\n`, [], ["x: rm -rf ${UNSET}/*"]],
    [`O := $(shell pwd)\nx:\n${T}echo $(O)\n`, [], ["x: echo $(pwd)"]],
    [
      `S = a.c b.c\nx: $(S:.c=.o)\n%.o: %.c\n${T}cc -c $< -o $@\n`,
      ["x"],
      ["a.o: cc -c a.c -o a.o", "b.o: cc -c b.c -o b.o"],
    ],
    [
      `x:\n${T}echo $(patsubst %.c,%.o,a.c b.c) $(words a b c) $(notdir src/a.c) $(addprefix -I,x y)\n`,
      [],
      ["x: echo a.o b.o 3 a.c -Ix -Iy"],
    ],
    [`define say\necho $(1)\nendef\nx:\n${T}$(call say,hi)\n`, [], ["x: echo hi"]],
    [`ifeq ($(MODE),prod)\nC = deploy\nelse\nC = test\nendif\nx:\n${T}$(C)\n`, [], ["x: test"]],
    [`MODE = prod\nifeq ($(MODE),prod)\nC = deploy\nelse\nC = test\nendif\nx:\n${T}$(C)\n`, [], ["x: deploy"]],
    [`x:\n${T}echo one \\\n${T}two\n`, [], ["x: echo one \\\ntwo"]],
    [`x: V = 9\nx:\n${T}echo $(V)\n`, [], ["x: echo 9"]],
    [`$(foreach t,a b,$(eval $(t): ; echo $(t)))\n`, ["b"], ["b: echo b"]],
    [`x: ; echo inline\n`, [], ["x: echo inline"]],
    [`x:\n${T}$(MAKE) -C sub y\n`, [], ["x: make -C sub y"]],
  ] as const)("%j for %j runs %j", (text, goals, expected) => {
    expect(runs(make(text, { goals: [...goals] }))).toEqual(expected);
  });

  it("takes both branches of a condition on a run-time value", () => {
    const plan = make(`ifdef CI\nX = a\nelse\nY = b\nendif\nt:\n${T}echo $(X) $(Y)\n`);
    expect(runs(plan)).toEqual(["t: echo a b"]);
  });

  it("lets the command line override the makefile, and the environment only ?= (or all with -e)", () => {
    const text = `A = file\nB ?= file\nt:\n${T}echo $(A) $(B)\n`;
    expect(runs(make(text, { overrides: new Map([["A", "cli"]]) }))).toEqual(["t: echo cli file"]);
    expect(
      runs(
        make(text, {
          env: new Map([
            ["A", "env"],
            ["B", "env"],
          ]),
        }),
      ),
    ).toEqual(["t: echo file env"]);
    expect(runs(make(text, { env: new Map([["A", "env"]]), envOverrides: true }))).toEqual(["t: echo env file"]);
  });

  it("reads included files where they are included, and reports those it cannot read", () => {
    const plan = make(`include a.mk b.mk\n-include c.mk\nt: sub\n`, {
      include: (path) => (path === "a.mk" ? { text: `sub:\n${T}echo $(V)\nV = 1\n`, file: "a.mk" } : "missing"),
    });
    expect(runs(plan)).toEqual(["sub: echo 1"]);
    expect(plan.included).toEqual(["a.mk"]);
    expect(plan.unread).toEqual([{ file: "b.mk", why: "does not exist (make stops)" }]);
  });

  it("records the shell commands make runs while reading, marks the lines a dry run still runs, and the shell", () => {
    const plan = make(`V != git rev-parse HEAD\nSHELL = /usr/bin/python3\nt:\n${T}+echo a\n${T}echo b\n`);
    expect(plan.parseShells.map((s) => [s.code, s.line])).toEqual([["git rev-parse HEAD", 1]]);
    expect(plan.runs[0]?.lines.map((l) => [l.code, l.always, l.line])).toEqual([
      ["echo a", true, 4],
      ["echo b", false, 5],
    ]);
    expect(plan.shell).toBe("python3");
  });

  it("plans every target of stored code, and is bounded by counts", () => {
    expect(runs(make(`a:\n${T}echo a\nb:\n${T}echo b\n.PHONY: a b\n`, { all: true }))).toEqual([
      "a: echo a",
      "b: echo b",
    ]);
    const deep = Array.from({ length: 300 }, (_, i) => `t${i}: t${i + 1}\n${T}echo ${i}`).join("\n");
    expect(make(deep).limited).toBe(true);
  });
});

describe("the justfile reader", () => {
  const just = (text: string, args: (string | undefined)[] = [], all = false) =>
    planJust({
      text,
      file: "justfile",
      args,
      overrides: new Map(),
      env: new Map([["HOME", "/home/dev"]]),
      dir: "/work/app",
      home: "/home/dev",
      include: () => "missing",
      tick: () => {},
      all,
    });
  const ran = (plan: ReturnType<typeof just>) =>
    plan.runs.map((r) => `${r.recipe}: ${r.lines.map((l) => l.code).join("; ")}`);

  it.each([
    ["a:\n    echo a\n\nb:\n    echo b\n", [], ["a: echo a"]],
    ["a:\n    echo a\n\n[default]\nb:\n    echo b\n", [], ["b: echo b"]],
    ["x := 'v'\ny := x + '/' + home_directory()\nr:\n    @echo {{y}}\n", ["r"], ["r: echo v//home/dev"]],
    ["r target='dist':\n    rm -rf {{target}}\n", ["r", "out"], ["r: rm -rf out"]],
    ["r target='dist':\n    rm -rf {{target}}\n", ["r"], ["r: rm -rf dist"]],
    [
      "b:\n    cargo build\nr: b && c\n    echo r\nc:\n    echo c\n",
      ["r"],
      ["b: cargo build", "r: echo r", "c: echo c"],
    ],
    ["r:\n    echo {{{{x}}\n", ["r"], ["r: echo {{x}}"]],
    ["v := `git rev-parse HEAD`\nr:\n    echo {{v}}\n", ["r"], ["r: echo $(git rev-parse HEAD)"]],
    ["v := env('TARGET', 'x')\nr:\n    rm -rf {{v}}\n", ["r"], ["r: rm -rf ${TARGET:-x}"]],
    ["alias t := test\ntest:\n    cargo test\n", ["t"], ["test: cargo test"]],
  ] as const)("%j with %j runs %j", (text, args, expected) => {
    expect(ran(just(text, [...args]))).toEqual(expected);
  });

  it("reads a #! recipe as one script, records backticks, names missing recipes", () => {
    const plan = just("v := `date`\npy:\n    #!/usr/bin/env python3\n    print(1)\n", ["py", "nope"]);
    expect(plan.runs.map((r) => [r.recipe, r.script])).toEqual([["py", "#!/usr/bin/env python3"]]);
    expect(plan.parseShells.map((s) => s.code)).toEqual(["date"]);
    expect(plan.missing).toEqual(["nope"]);
  });

  it("plans every recipe of stored code, its parameters unknown", () => {
    expect(ran(just("a d:\n    rm -rf {{d}}\nb:\n    echo b\n", [], true))).toEqual(["a: rm -rf ${d}", "b: echo b"]);
  });
});

describe("the Taskfile reader", () => {
  const task = (text: string, tasks: string[] = [], vars = new Map<string, string | undefined>()) =>
    planTask({
      document: parseYaml(text),
      file: "Taskfile.yml",
      dir: "/work/app",
      tasks,
      vars,
      cliArgs: "",
      include: () => "missing",
      tick: () => {},
    });
  const lines = (plan: ReturnType<typeof task>) => plan.lines.map((l) => `${l.task}: ${l.code}`);

  it("runs deps first, then cmds, calls of other tasks with vars, and the default task", () => {
    const text = `version: '3'
vars:
  OUT: dist
tasks:
  default:
    deps: [gen]
    cmds:
      - rm -rf {{.OUT}}
      - task: push
        vars: { REMOTE: origin }
  gen: go generate ./...
  push:
    cmds:
      - git push {{.REMOTE}} main
`;
    expect(lines(task(text))).toEqual(["gen: go generate ./...", "default: rm -rf dist", "push: git push origin main"]);
    expect(lines(task(text, ["push"]))).toEqual(["push: git push ${REMOTE} main"]);
    expect(lines(task(text, ["push"], new Map([["REMOTE", "up"]])))).toEqual(["push: git push up main"]);
  });

  it("refuses what is not a Taskfile, names missing tasks", () => {
    expect(task("- a\n- b\n").invalid).toBe(true);
    expect(task("version: '3'\ntasks: {}\n", ["x"]).missing).toEqual(["x"]);
  });
});

describe("package.json, deno.json and git config", () => {
  it("reads scripts with the line each is on", () => {
    const text = `{\n  "name": "a",\n  "scripts": {\n    "build": "tsc",\n    "test": "vitest"\n  }\n}\n`;
    expect([...(readPackageJson(text).scripts?.values() ?? [])]).toEqual([
      { name: "build", code: "tsc", line: 4 },
      { name: "test", code: "vitest", line: 5 },
    ]);
    expect(readPackageJson("not json").scripts).toBeUndefined();
  });

  it("reads deno.jsonc tasks, comments and all", () => {
    const text = `{ // tasks\n  "tasks": { "dev": { "command": "deno run -A main.ts" }, /* x */ "fmt": "deno fmt" } }`;
    expect([...(readPackageJson(text, "tasks").scripts?.keys() ?? [])]).toEqual(["dev", "fmt"]);
  });

  it("reads git config values by lower-case key", () => {
    const config = readGitConfig(`[core]\n\tHooksPath = "tools/hooks" ; local\n[remote "origin"]\n\turl = x\n`);
    expect(config.get("core.hookspath")).toBe("tools/hooks");
    expect(config.get("remote.origin.url")).toBe("x");
  });
});

describe("Rakefiles and mise tasks", () => {
  it("reads tasks with namespaces, prerequisites, bodies and the file's own code", () => {
    const rake = readRakefile(`require "fileutils"
namespace :db do
  task reset: [:drop, :seed] do
    puts "reset"
  end
  task :drop do
    sh "dropdb app"
  end
end
task default: :test
task(:test) { sh "rspec" }
`);
    expect([...rake.tasks.values()].map((t) => [t.name, t.deps, t.body.trim(), t.line])).toEqual([
      ["db:reset", ["drop", "seed"], 'puts "reset"', 4],
      ["db:drop", [], 'sh "dropdb app"', 7],
      ["default", ["test"], "", 11],
      ["test", [], 'sh "rspec"', 12],
    ]);
    expect(rake.top.trim()).toBe('require "fileutils"');
  });

  it("reads mise.toml tasks: tables, the shorthand table, strings and lists", () => {
    const tasks = readMiseTasks(`[tools]
node = "20"

[tasks.build]
run = ["npm ci", 'npm run build']
depends = ["gen"]
dir = "web"

[tasks]
gen = "go generate ./..."
lint = { run = "eslint .", depends = ["gen"] }
`);
    expect([...tasks.values()].map((t) => [t.name, t.run, t.depends, t.dir])).toEqual([
      ["build", ["npm ci", "npm run build"], ["gen"], "web"],
      ["gen", ["go generate ./..."], [], undefined],
      ["lint", ["eslint ."], ["gen"], undefined],
    ]);
  });
});
