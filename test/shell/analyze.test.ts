import { describe, expect, it } from "vitest";
import { analyze, brief, CWD, find, HOME, lines, shown } from "./helpers.ts";

describe("every simple command that would run is found", () => {
  // [source, command lines in order]
  const cases: [string, string[]][] = [
    ["rm -rf /", ["rm -rf /"]],
    ["a | b | c", ["a", "b", "c"]],
    ["a && b || c; d & e", ["a", "b", "c", "d", "e"]],
    ["(a; b) && { c; d; }", ["a", "b", "c", "d"]],
    ["if a; then b; elif c; then d; else e; fi", ["a", "b", "c", "d", "e"]],
    ["while a; do b; done; until c; do d; done", ["a", "b", "c", "d"]],
    ["for f in x y; do rm $f; done", ["rm x", "rm y"]],
    ["for f in $(ls); do rm $f; done", ["ls", "rm <$f>"]],
    ["for ((i=0; i<3; i++)); do a; done", ["a"]],
    ["select x in a b; do c; done", ["c"]],
    ["case $x in a) b ;; *) c ;; esac", ["b", "c"]],
    // a function never called runs nothing, unless something the walk cannot see may call it
    ["f() { rm -rf /; }", []],
    ["f() { rm -rf /; }; source lib.sh", ["source lib.sh", "rm -rf /"]],
    ["f() { rm -rf /; }; export -f f", ["export -f f", "rm -rf /"]],
    ["echo $(rm -rf /)", ["rm -rf /", "echo <$(rm -rf /)>"]],
    ["echo `rm x`", ["rm x", "echo <`rm x`>"]],
    ['echo "$(a `b`)"', ["b", "a <`b`>", 'echo <"$(a `b`)">']],
    ["diff <(sort a) >(tee b)", ["sort a", "tee b", "diff <<(sort a)> <>(tee b)>"]],
    ["echo $(( $(rm x) + 1 ))", ["rm x", "echo <$(( $(rm x) + 1 ))>"]],
    ["(( $(rm y) ))", ["rm y"]],
    ["x=$(rm z)", ["rm z"]],
    ["echo ${X:-$(rm w)}", ["rm w", "echo <${X:-$(rm w)}>"]],
    ["[[ -f $(rm v) ]]", ["rm v", "[[ -f <$(rm v)> ]]"]],
    ["coproc rm u", ["rm u"]],
    ["! rm t", ["rm t"]],
    ["time rm s | cat", ["rm s", "cat"]],
    ["cat <<EOF\n$(rm -rf /)\nEOF", ["rm -rf /", "cat"]],
    ["{ rm a; } > out.txt", ["rm a"]],
  ];

  it.each(cases)("`%s` → %j", (source, expected) => {
    const a = analyze(source);
    expect(lines(a)).toEqual(expected);
    expect(a.unrepresentable).toEqual([]);
  });
});

describe("the path to each command is recorded in via", () => {
  const cases: [string, string, string[]][] = [
    ["rm x", "rm", []],
    ["a && rm x", "rm", ["list"]],
    ["a; rm x", "rm", ["list"]],
    ["a | rm x", "rm", ["pipeline"]],
    ["(rm x)", "rm", ["subshell"]],
    ["{ rm x; }", "rm", ["group"]],
    ["if true; then rm x; fi", "rm", ["control-flow"]],
    ["f() { rm x; }; $X", "rm", ["list", "function-body", "group"]],
    ["echo $(rm x)", "rm", ["command-substitution"]],
    ["cat <(rm x)", "rm", ["process-substitution"]],
    ["bash -c 'rm x'", "rm", ["shell-string"]],
    ["sudo rm x", "rm", ["wrapper"]],
    ["xargs rm", "rm", ["xargs"]],
    ["find . -exec rm {} \\;", "rm", ["find-exec"]],
    ["python3 -c 'import os; os.system(\"rm x\")'", "rm", ["interpreter"]],
    ["echo x | bash -c 'rm x'", "rm", ["pipeline", "shell-string"]],
  ];

  it.each(cases)("`%s`: %s via %j", (source, program, via) => {
    expect(find(analyze(source), program).via).toEqual(via);
  });
});

describe("shell strings are parsed recursively", () => {
  it.each([
    ["bash -c \"sh -c 'rm -rf ~'\"", ["bash -c sh -c 'rm -rf ~'", "sh -c rm -rf ~", `rm -rf ${HOME}`], [0, 1, 2]],
    ['eval "rm -rf /"', ["eval rm -rf /", "rm -rf /"], [0, 1]],
    ["eval rm -rf /", ["eval rm -rf /", "rm -rf /"], [0, 1]],
    ["bash -lc 'rm x'", ["bash -lc rm x", "rm x"], [0, 1]],
    ["sh -xec 'rm x'", ["sh -xec rm x", "rm x"], [0, 1]],
    ["bash --login -c 'rm x'", ["bash --login -c rm x", "rm x"], [0, 1]],
    ["zsh -o pipefail -c 'rm x'", ["zsh -o pipefail -c rm x", "rm x"], [0, 1]],
    ["busybox sh -c 'rm x'", ["sh -c rm x", "rm x"], [0, 1]],
    ["dash -c 'rm \"$1\"' sh /tmp/x", ['dash -c rm "$1" sh /tmp/x', "rm /tmp/x"], [0, 1]],
    ["bash -c 'rm \"$0\"' /tmp/y", ['bash -c rm "$0" /tmp/y', "rm /tmp/y"], [0, 1]],
  ])("`%s` → %j at depths %j", (source, expected, depths) => {
    const a = analyze(source);
    expect(lines(a)).toEqual(expected);
    expect(a.commands.map((c) => c.depth)).toEqual(depths);
    expect(a.unrepresentable).toEqual([]);
  });

  it("nested commands point at the command that launched them", () => {
    const a = analyze("bash -c \"sh -c 'rm x'\"");
    expect(a.commands.map((c) => c.launchedBy)).toEqual([undefined, 0, 1]);
  });

  it("commands past the depth limit are not analysed and the analysis says so", () => {
    const a = analyze("eval eval eval rm x", { maxDepth: 2 });
    expect(lines(a)).toEqual(["eval eval eval rm x", "eval eval rm x", "eval rm x"]);
    expect(a.budgetExceeded).toBe(true);
    expect(a.unrepresentable.map((u) => u.code)).toEqual(["depth-limit"]);
  });

  it("a shell string built at run time is dynamic code", () => {
    const a = analyze('bash -c "$CMD"');
    expect(a.code).toEqual([
      { language: "shell", interpreter: "bash", command: 0, source: "dynamic", code: undefined, producers: [] },
    ]);
    expect(a.unrepresentable.map((u) => u.code)).toEqual(["dynamic-code"]);
  });
});

describe("the working directory is tracked through cd", () => {
  // [source, program (last occurrence), expected cwd]
  const cases: [string, string, string | undefined][] = [
    ["rm -rf *", "rm", CWD],
    ["cd / && rm -rf *", "rm", "/"],
    ["cd /tmp; rm x", "rm", "/tmp"],
    ["cd sub && rm x", "rm", `${CWD}/sub`],
    ["cd ../other && rm x", "rm", "/work/other"],
    ["cd && rm x", "rm", HOME],
    ["cd ~/src && rm x", "rm", `${HOME}/src`],
    ["cd - && rm x", "rm", undefined],
    ["cd $X && rm x", "rm", undefined],
    ["cd /a/* && rm x", "rm", undefined],
    ["pushd /opt && rm x", "rm", "/opt"],
    ["pushd /opt; popd; rm x", "rm", undefined],
    ["(cd /tmp && touch x); rm y", "rm", CWD],
    ["(cd /tmp && rm x)", "rm", "/tmp"],
    ["echo $(cd /; pwd); rm x", "rm", CWD],
    ["cd / | rm x", "rm", CWD],
    ["cd /tmp & rm x", "rm", CWD],
    ["bash -c 'cd /'; rm x", "rm", CWD],
    ["eval 'cd /'; rm x", "rm", "/"],
    ["builtin cd /srv; rm x", "rm", "/srv"],
    ["sudo cd /srv; rm x", "rm", CWD],
    ["cd /tmp || exit 1; rm x", "rm", "/tmp"],
    ["cd /tmp || rm x", "rm", CWD],
    ["cd /a && cd /b || rm x", "rm", undefined],
    ["if cd /tmp; then rm a; fi; rm b", "rm", undefined],
    ["if cd /tmp; then rm a; else rm b; fi", "rm", CWD],
    ["if true; then cd /x; else cd /x; fi; rm c", "rm", "/x"],
    ["for d in a b; do cd $d; rm x; done", "rm", undefined],
    ["for d in a b; do rm x; done", "rm", CWD],
    ["f() { cd /; }; f; rm x", "rm", "/"],
    ["f() { rm x; }; cd /tmp; f", "rm", "/tmp"],
    ['f() { cd "$1"; }; f /srv; rm x', "rm", "/srv"],
    ["f() { rm x; }; f", "rm", CWD],
  ];

  it.each(cases)("`%s`: %s runs in %s", (source, program, cwd) => {
    expect(find(analyze(source), program).cwd).toBe(cwd);
  });

  it("`(cd /tmp && x); rm y` restores the directory after the subshell", () => {
    const a = analyze("(cd /tmp && x); rm y");
    expect(a.commands.map((c) => [c.program, c.cwd])).toEqual([
      ["cd", CWD],
      ["x", "/tmp"],
      ["rm", CWD],
    ]);
  });
});

describe("words are resolved statically", () => {
  // [source, the resolved arguments of the first command]
  const cases: [string, (string | undefined)[]][] = [
    ["rm ~", [HOME]],
    ["rm ~/x", [`${HOME}/x`]],
    ["rm $HOME", [HOME]],
    ["rm ${HOME}/x", [`${HOME}/x`]],
    ['rm "$HOME/x"', [`${HOME}/x`]],
    ["rm $PWD/x", [`${CWD}/x`]],
    ["rm ${PWD}", [CWD]],
    ["rm ~+/x", [`${CWD}/x`]],
    ["rm ~root", ["/root"]],
    ["rm ~bob/x", ["/home/bob/x"]],
    ["rm ~u", ["/home/u"]],
    ["rm ~-", [undefined]],
    ['rm "~"', ["~"]],
    ["rm \\~", ["~"]],
    ['rm ~"/x"', ["~/x"]],
    ["rm $X", [undefined]],
    ["rm ${X:-/}", [undefined]],
    ["rm $(pwd)", ["/work/proj"]],
    ["rm `pwd`/x", ["/work/proj/x"]],
    ["rm $(cat x)", [undefined]],
    ["rm $((1+2))", [undefined]],
    ["rm 'a b' \"c d\" e\\ f", ["a b", "c d", "e f"]],
    ["rm $'a\\tb'", ["a\tb"]],
    ["rm $'\\x2f'", ["/"]],
    ["rm a{b,c}d", ["abd", "acd"]],
    ["rm {a,b}{1..2}", ["a1", "a2", "b1", "b2"]],
    ["rm x{a\\,b,c}", ["xa,b", "xc"]],
    ["rm {'a b',c}", ["a b", "c"]],
    ["rm {1..3}", ["1", "2", "3"]],
    ["rm {01..03}", ["01", "02", "03"]],
    ["rm {a..e..2}", ["a", "c", "e"]],
    ["rm {3..1}", ["3", "2", "1"]],
    ["rm {a}", ["{a}"]],
    ["rm a{,.bak}", ["a", "a.bak"]],
    ["rm ~/{a,b}", [`${HOME}/a`, `${HOME}/b`]],
    ["rm {$X,b}", [undefined, "b"]],
  ];

  it.each(cases)("`%s` → %j", (source, args) => {
    expect(find(analyze(source), "rm").args.map((w) => w.value)).toEqual(args);
  });

  it.each([
    ["rm *.ts", true],
    ["rm ?.ts", true],
    ["rm [ab].ts", true],
    ["rm @(a|b)", true],
    ["rm '*.ts'", false],
    ["rm \\*.ts", false],
    ["rm {*.ts,x}", true],
    ["rm a.ts", false],
  ])("`%s` globs: %s", (source, glob) => {
    expect(analyze(source).commands[0]?.args[0]?.glob).toBe(glob);
  });

  it("keeps the source text of a word", () => {
    expect(analyze('rm "$HOME"/x').commands[0]?.args[0]).toEqual({
      text: '"$HOME"/x',
      value: `${HOME}/x`,
      glob: false,
    });
  });

  it("too many brace words cannot be represented", () => {
    const a = analyze("rm {1..1000}");
    expect(a.commands[0]?.args.map(shown)).toEqual(["<{1..1000}>"]);
    expect(a.unrepresentable.map((u) => u.code)).toEqual(["brace-expansion-limit"]);
  });

  it("brace expansion applies to the command name too", () => {
    expect(brief(analyze("{rm,-rf,/tmp/x}").commands[0]!)).toMatchObject({
      program: "rm",
      argv: ["rm", "-rf", "/tmp/x"],
    });
  });

  it("a reassigned HOME changes what ~ means", () => {
    expect(find(analyze("HOME=/; rm -rf ~"), "rm").args.map(shown)).toEqual(["-rf", "/"]);
    expect(find(analyze("export HOME=/srv; rm ~"), "rm").args.map(shown)).toEqual(["/srv"]);
    expect(find(analyze("read HOME; rm ~"), "rm").args.map(shown)).toEqual(["<~>"]);
    expect(find(analyze("HOME=/ bash -c 'rm -rf ~'"), "rm").args.map(shown)).toEqual(["-rf", "/"]);
    // the assignment prefix does not apply to the command's own words
    expect(find(analyze("HOME=/ rm ~"), "rm").args.map(shown)).toEqual([HOME]);
  });

  it("assignments before a command are recorded", () => {
    expect(analyze("FOO=1 BAR=$X rm x").commands[0]?.assignments).toEqual([
      { name: "FOO", value: { text: "1", value: "1", glob: false } },
      { name: "BAR", value: { text: "$X", value: undefined, glob: false, env: ["X"] } },
    ]);
  });
});

describe("redirections are classified", () => {
  it.each([
    ["echo x > f", [">", "write", undefined, "f"]],
    ["echo x >> f", [">>", "append", undefined, "f"]],
    ["echo x >| f", [">|", "write", undefined, "f"]],
    ["echo x &> f", ["&>", "write", undefined, "f"]],
    ["echo x &>> f", ["&>>", "append", undefined, "f"]],
    ["cat < f", ["<", "read", undefined, "f"]],
    ["cat 3<> f", ["<>", "readwrite", 3, "f"]],
    ["echo x 2>&1", [">&", "dup", 2, "1"]],
    ["echo x >&2", [">&", "dup", undefined, "2"]],
    ["echo x >& f", [">&", "write", undefined, "f"]],
    ["cat <<< hello", ["<<<", "herestring", undefined, "hello"]],
    ["cat <<'EOF'\nbody $X\nEOF", ["<<", "heredoc", undefined, "body $X\n"]],
    ["cat <<-EOF\n\tbody\n\tEOF", ["<<-", "heredoc", undefined, "body\n"]],
  ])("`%s` → %j", (source, [op, kind, fd, target]) => {
    const r = analyze(source).commands[0]?.redirects[0];
    expect(r).toMatchObject({ op, kind, fd });
    expect(r?.target?.value).toBe(target);
  });

  it("a compound command's redirections apply to the commands inside", () => {
    const a = analyze("{ a; b; } > out");
    expect(a.commands.map((c) => c.redirects.map((r) => r.target?.value))).toEqual([["out"], ["out"]]);
  });

  it("a redirection without a command is still a command (it truncates the file)", () => {
    const a = analyze("> out.txt");
    expect(a.commands).toHaveLength(1);
    expect(a.commands[0]?.program).toBeUndefined();
    expect(a.unrepresentable).toEqual([]);
  });
});

describe("pipes connect the commands of one pipeline", () => {
  it("links neighbours only", () => {
    expect(analyze("a | b | c").pipes).toEqual([
      { from: 0, to: 1 },
      { from: 1, to: 2 },
    ]);
  });

  it("links every command of a group element", () => {
    expect(analyze("{ a; b; } | c").pipes).toEqual([
      { from: 0, to: 2 },
      { from: 1, to: 2 },
    ]);
  });

  it("a nested pipeline's last command feeds the outer pipe", () => {
    expect(analyze("{ a | b; } | c").pipes).toEqual([
      { from: 0, to: 1 },
      { from: 1, to: 2 },
    ]);
  });
});

describe("functions", () => {
  it.each([
    [":(){ :|:& };:", { name: ":", recursive: true, forks: true, called: true }],
    ["bomb(){ bomb|bomb& };bomb", { name: "bomb", recursive: true, forks: true, called: true }],
    ["f(){ f & f; }; f", { name: "f", recursive: true, forks: true, called: true }],
    ["f(){ f; }; f", { name: "f", recursive: true, forks: false, called: true }],
    ["f(){ g | h; }; f", { name: "f", recursive: false, forks: false, called: true }],
    [":(){ :|:& }", { name: ":", recursive: false, forks: false, called: false }],
    [":(){ :|:& }; $X", { name: ":", recursive: true, forks: true, called: false }],
    ["function x { x | x & }; x", { name: "x", recursive: true, forks: true, called: true }],
  ])("`%s` → %j", (source, fn) => {
    expect(analyze(source).functions).toEqual([fn]);
  });
});

describe("data is data", () => {
  // none of these runs `rm`, drops a table, or runs a heredoc body
  it.each([
    ['echo "rm -rf /"', ["echo"]],
    ["echo 'rm -rf /' > notes.txt", ["echo"]],
    ['grep -r "rm -rf" .', ["grep"]],
    ['git commit -m "drop table users; rm -rf /"', ["git"]],
    ["ls # rm -rf /", ["ls"]],
    ["# rm -rf /", []],
    ["cat <<EOF > notes.md\nrm -rf /\nEOF", ["cat"]],
    ["cat <<'EOF' | tee x.sh\nrm -rf /\nEOF", ["cat", "tee"]],
    ["printf '%s\\n' 'rm -rf /'", ["printf"]],
    ["sed -i 's/rm -rf/echo/' f.sh", ["sed"]],
    ["echo $'rm -rf /'", ["echo"]],
    ["jq '.x | \"rm -rf /\"' f.json", ["jq"]],
  ])("`%s` only runs %j", (source, programs) => {
    const a = analyze(source);
    expect(a.commands.map((c) => c.program)).toEqual(programs);
    expect(a.code).toEqual([]);
    expect(a.unrepresentable).toEqual([]);
  });
});
