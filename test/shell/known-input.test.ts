/**
 * Values known before the line runs, reaching executors: decoders (`tr` sets, printf octal),
 * scripts appended then run, files a client reads, awk and sed running their known input,
 * `while read` over a known text, defaults of environment variables, listings fed to xargs.
 */
import { describe, expect, it } from "vitest";
import { analyze, find, lines } from "./helpers.ts";

/** The literal code each interpreter ran, in order. */
const literal = (source: string): string[] =>
  analyze(source)
    .code.filter((c) => c.source === "literal")
    .map((c) => `${c.interpreter}: ${(c.code ?? "").trimEnd()}`);

describe("decoders", () => {
  const cases: [string, string][] = [
    ["echo 'tvg fgnghf' | tr 'a-z' 'n-za-m' | sh", "git status"],
    ["echo 'TVG FGNGHF' | tr 'A-Za-z' 'n-za-mN-ZA-M' | sh", "git status"],
    ["echo 'GIT STATUS' | tr '[:upper:]' '[:lower:]' | sh", "git status"],
    ["echo 'gxit sxtatus' | tr -d x | sh", "git status"],
    ["echo 'git_status' | tr '_' ' ' | sh", "git status"],
    ["printf '\\147it status' | sh", "git status"],
    ["printf '\\x67it \\163tatus\\n' | bash", "git status"],
  ];
  it.each(cases)("%s runs `%s`", (source, command) => {
    expect(literal(source)).toEqual([`${source.split("|").at(-1)?.trim()}: ${command}`]);
  });

  it("leaves sets it does not emulate unknown", () => {
    const a = analyze("echo x | tr '[a*3]' b | sh");
    expect(a.code.map((c) => c.source)).toEqual(["stdin"]);
    expect(a.unrepresentable.map((u) => u.code)).toEqual(["dynamic-code"]);
  });
});

describe("text filters over a known input", () => {
  const cases: [string, string][] = [
    ["echo 'git statxs' | sed 's/x/u/' | sh", "git status"],
    ["echo 'git HOME' | sed -e 's|HOME|status|g' | sh", "git status"],
    ["printf 'git status\\nls\\n' | head -1 | sh", "git status"],
    ["printf 'ls\\ngit status\\n' | tail -n 1 | sh", "git status"],
    ["echo 'git status extra' | cut -d' ' -f1-2 | sh", "git status"],
    ["printf '%s\\n' git status | paste -sd' ' | sh", "git status"],
    ["echo 'git status' | tee /dev/null | sh", "git status"],
  ];
  it.each(cases)("%s runs `%s`", (source, command) => {
    expect(literal(source)).toEqual([`sh: ${command}`]);
  });

  it("leaves what it does not emulate unknown", () => {
    for (const source of ["echo x | sed 's/\\(x\\)/y/' | sh", "echo x | sed -n p | sh", "echo x | head -c 1 | sh"])
      expect(analyze(source).code.map((c) => c.source)).toEqual(["stdin"]);
  });
});

describe("parameter expansions", () => {
  const cases: [string, string][] = [
    ['rm -r "${HOME:0}"', "rm -r /home/u"],
    ['rm -r "${HOME:0:5}"', "rm -r /home"],
    ['rm -r "${HOME: -1}"', "rm -r u"],
    ['rm -r "${HOME/u/v}"', "rm -r /home/v"],
    ["c=GIT; ${c,,} status", "git status"],
    ["c=git; ${c^} status", "Git status"],
    ['IFS=_; c="git_status_-s"; $c', "git status -s"],
    ["IFS=,; set -- git,status; $1", "git status"],
  ];
  it.each(cases)("%s", (source, command) => {
    expect(lines(analyze(source)).at(-1)).toEqual(command);
  });
});

describe("scripts and files written on the line", () => {
  it("runs what was appended to a script the line did not write", () => {
    expect(literal("echo 'git status' >> s.sh && sh s.sh")).toEqual(["sh: git status"]);
    expect(literal("echo 'git status' | tee -a s.sh && ./s.sh")).toEqual(["./s.sh: git status"]);
    // its whole text is not known: `cat` prints more than the appended part
    expect(analyze("echo 'git status' >> s.sh && cat s.sh | sh").code.map((c) => c.source)).toEqual(["stdin"]);
  });

  it("records the known text of files the operands name", () => {
    expect(find(analyze("echo 'SELECT 1' > q.sql && psql -f q.sql"), "psql").inputs).toEqual(["SELECT 1\n"]);
    expect(find(analyze("echo 'SELECT 1' > q.sql && psql --file=q.sql"), "psql").inputs).toEqual(["SELECT 1\n"]);
    expect(find(analyze("psql -f <(echo 'SELECT 1')"), "psql").inputs).toEqual(["SELECT 1\n"]);
    expect(find(analyze("psql -f q.sql"), "psql").inputs).toBeUndefined();
  });
});

describe("awk and sed on a known input", () => {
  const cases: [string, string[]][] = [
    ["awk 'BEGIN{c=\"git status\"; system(c)}'", ["awk: git status"]],
    ["awk -v c='git status' 'BEGIN{system(c)}'", ["awk: git status"]],
    ["echo 'git status' | awk '{system($0)}'", ["awk: git status"]],
    ["awk 'BEGIN{c=\"git status\"; c | getline}'", ["awk: git status"]],
    ['awk \'BEGIN{print "git status" | "sh"}\'', ["awk: printf '%s\\n' 'git status' | sh", "sh: git status"]],
    ["echo 'git status' | sed e", ["sed: git status"]],
  ];
  it.each(cases)("%s", (source, code) => {
    expect(literal(source)).toEqual(code);
  });

  it("a command from an input file stays unknown", () => {
    expect(analyze("awk '{system($0)}' cmds.txt").unrepresentable.map((u) => u.code)).toEqual(["dynamic-code"]);
    expect(analyze("sed e cmds.txt").unrepresentable.map((u) => u.code)).toEqual(["dynamic-code"]);
  });
});

describe("values known before the line runs", () => {
  it("walks `while read` once per line of a known input", () => {
    expect(lines(analyze("printf '%s\\n' a 'b c' | while read -r x y; do rm -r \"$x\" \"$y\"; done"))).toEqual([
      "printf %s\\n a b c",
      "read -r x y",
      "rm -r a ",
      "rm -r b c",
    ]);
    expect(lines(analyze("while IFS= read -r d; do rm -r \"$d\"; done <<< ' a b'"))).toEqual([
      "read -r d",
      "rm -r  a b",
    ]);
    expect(find(analyze('while read d; do rm -r "$d"; done < list.txt'), "rm").args[1]?.value).toBeUndefined();
  });

  it("also runs a default when the environment does not set the variable", () => {
    expect(lines(analyze('rm -r "${TARGET:-$HOME}"'))).toEqual(["rm -r /home/u", 'rm -r <"${TARGET:-$HOME}">']);
    expect(lines(analyze('T=x; rm -r "${T:-/}"'))).toEqual(["rm -r x"]);
    expect(lines(analyze('rm -r "${T:+/}"'))).toEqual(['rm -r <"${T:+/}">']);
  });

  it("binds a loop variable over a glob to the glob: each match", () => {
    const rm = find(analyze('for f in ~/*; do rm -r "$f"; done'), "rm");
    expect(rm.args.map((w) => [w.value, w.glob])).toEqual([
      ["-r", false],
      ["/home/u/*", true],
    ]);
    expect(find(analyze('for f in a b; do rm -r "$f"; done'), "rm").args[1]?.glob).toBe(false);
  });

  it("resolves `${!name}` through the variable it names", () => {
    expect(lines(analyze('n=HOME; rm -r "${!n}"'))).toEqual(["rm -r /home/u"]);
    expect(lines(analyze('rm -r "${!n}"'))).toEqual(['rm -r <"${!n}">']);
  });

  it("reads a process substitution with static output as a file", () => {
    expect(literal("cat <(echo 'git status') | sh")).toEqual(["sh: git status"]);
  });

  it("quotes parallel inputs in the command line it runs", () => {
    expect(lines(analyze("parallel sh -c ::: 'git status'"))).toEqual([
      "parallel sh -c ::: git status",
      "sh -c git status",
      "git status",
    ]);
    expect(lines(analyze("parallel git {} ::: 'status -s'")).at(-1)).toEqual("git status -s");
  });

  it("replaces xargs -I in a command fed by a listing with each printed name", () => {
    expect(find(analyze("ls ~ | xargs -I{} rm -r ~/{}"), "rm").args.map((w) => [w.value, w.glob])).toEqual([
      ["-r", false],
      ["/home/u/*", true],
    ]);
  });

  it("runs docker-compose exec commands in the container", () => {
    expect(lines(analyze("docker-compose -f x.yml exec -T db psql -c 'SELECT 1'")).at(-1)).toEqual("psql -c SELECT 1");
  });

  it("trusts completion scripts printed by a program", () => {
    expect(analyze("source <(kind completion zsh)").unrepresentable).toEqual([]);
    expect(analyze('eval "$(micromamba shell hook --shell bash)"').unrepresentable).toEqual([]);
    expect(analyze('eval "$(python3 gen.py)"').unrepresentable.map((u) => u.code)).toEqual(["dynamic-code"]);
    expect(analyze("source <(kind export zsh)").unrepresentable.map((u) => u.code)).toEqual(["dynamic-code"]);
  });

  it("binds `read` variables from a known input and `printf -v` to what printf prints", () => {
    expect(lines(analyze("read -r c <<< 'git status'; $c")).at(-1)).toEqual("git status");
    expect(lines(analyze("read -r a b <<< 'status  -s  --long'; git $a $b")).at(-1)).toEqual("git status -s --long");
    expect(lines(analyze("IFS=, read -ra x <<< 'git,status,-s'; \"${x[@]}\"")).at(-1)).toEqual("git status -s");
    expect(lines(analyze("printf -v c 'git %s' status; $c")).at(-1)).toEqual("git status");
    expect(analyze("read -r c < f.txt; $c").unrepresentable.map((u) => u.code)).toEqual(["dynamic-command-name"]);
    expect(analyze("read -t 5 c <<< 'git status'; $c").unrepresentable.map((u) => u.code)).toEqual([
      "dynamic-command-name",
    ]);
  });

  it("runs commands given in the environment of the program that runs them", () => {
    expect(literal("GIT_SSH_COMMAND='ssh -i k' git fetch")).toEqual(["git: ssh -i k"]);
    expect(literal("GIT_PAGER=cat git log")).toEqual(["git: cat"]);
    expect(literal("PAGER=cat ls")).toEqual([]);
  });

  it("runs what tmux and screen start", () => {
    expect(lines(analyze("tmux new -d -s x 'git status'")).at(-1)).toEqual("git status");
    expect(lines(analyze("tmux send-keys -t x 'git status' Enter")).at(-1)).toEqual("git status Enter");
    expect(lines(analyze("screen -dmS job git status")).at(-1)).toEqual("git status");
    expect(lines(analyze("tmux attach -t x"))).toEqual(["tmux attach -t x"]);
    expect(lines(analyze("screen -r job"))).toEqual(["screen -r job"]);
  });

  it("follows literal code given to exec and eval inside interpreter code", () => {
    expect(literal('python3 -c "exec(\'import os; os.system(\\"git status\\")\')"')).toEqual([
      "python3: exec('import os; os.system(\"git status\")')",
      'builtins.exec: import os; os.system("git status")',
      "os.system: git status",
    ]);
    expect(analyze("python3 -c 'exec(input())'").unrepresentable).toEqual([]);
  });

  it("knows what `ls -d` prints and what `$SHELL` is", () => {
    expect(lines(analyze("rm -r $(ls -d ~)")).at(-1)).toEqual("rm -r /home/u");
    expect(lines(analyze("$SHELL -c 'git status'")).at(-1)).toEqual("git status");
  });

  it("tracks the previous directory and the repository root however asked", () => {
    expect(lines(analyze('cd /tmp && rm -r "$OLDPWD"')).at(-1)).toEqual("rm -r /work/proj");
    expect(lines(analyze("cd /tmp && rm -r ~-/x")).at(-1)).toEqual("rm -r /work/proj/x");
    expect(find(analyze("cd /tmp; cd -; ls"), "ls").cwd).toEqual("/work/proj");
    expect(lines(analyze('rm -r "$(git -C . rev-parse --show-toplevel)"')).at(-1)).toEqual("rm -r /work/proj");
    expect(find(analyze('cd src && cd "$(git rev-parse --show-cdup)" && ls'), "ls").cwd).toEqual("/work/proj");
    expect(lines(analyze('rm -r "$OLDPWD"')).at(-1)).toEqual('rm -r <"$OLDPWD">');
  });

  it("reads env assignments whose value is only known at run time", () => {
    const npm = find(analyze('env -i PATH="$PATH" npm test'), "npm");
    expect(npm.assignments.map((a) => a.name)).toEqual(["PATH"]);
    expect(analyze('env -i PATH="$PATH" npm test').unrepresentable).toEqual([]);
  });

  it("feeds printed globs and listings to xargs as globs", () => {
    expect(find(analyze("echo *.bak | xargs rm -f"), "rm").args.map((w) => [w.value, w.glob])).toEqual([
      ["-f", false],
      ["*.bak", true],
    ]);
    expect(find(analyze("ls -d */ | xargs rm -r"), "rm").args.map((w) => w.value)).toEqual(["-r", "*/"]);
  });
});
