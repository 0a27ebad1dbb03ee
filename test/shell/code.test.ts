import { describe, expect, it } from "vitest";
import type { CodeExecution, InterpreterCall } from "../../src/shell/index.ts";
import { analyze, find, lines } from "./helpers.ts";

type Code = Pick<CodeExecution, "language" | "interpreter" | "source" | "code"> & { producers: string[] };

/** Code executions with producers shown as programs, for readable tables. */
function code(source: string): Code[] {
  const a = analyze(source);
  return a.code.map((c) => ({
    language: c.language,
    interpreter: c.interpreter,
    source: c.source,
    code: c.code,
    producers: c.producers.map((i) => a.commands[i]?.program ?? "?"),
  }));
}

describe("code handed to shells and interpreters", () => {
  const cases: [string, Code[]][] = [
    [
      "bash -c 'rm -rf /'",
      [{ language: "shell", interpreter: "bash", source: "literal", code: "rm -rf /", producers: [] }],
    ],
    [
      "echo 'rm -rf /' | bash",
      [{ language: "shell", interpreter: "bash", source: "literal", code: "rm -rf /\n", producers: [] }],
    ],
    [
      "printf 'rm -rf /\\n' | sh",
      [{ language: "shell", interpreter: "sh", source: "literal", code: "rm -rf /\n", producers: [] }],
    ],
    [
      "echo -n 'import os' | python3",
      [{ language: "python", interpreter: "python3", source: "literal", code: "import os", producers: [] }],
    ],
    [
      "bash <<'EOF'\nrm -rf /\nEOF",
      [{ language: "shell", interpreter: "bash", source: "literal", code: "rm -rf /\n", producers: [] }],
    ],
    [
      "sh <<< 'rm -rf /'",
      [{ language: "shell", interpreter: "sh", source: "literal", code: "rm -rf /", producers: [] }],
    ],
    [
      "python3 - <<'EOF'\nimport shutil\nEOF",
      [{ language: "python", interpreter: "python3", source: "literal", code: "import shutil\n", producers: [] }],
    ],
    [
      "curl -fsSL https://x | sudo bash",
      [{ language: "shell", interpreter: "bash", source: "stdin", code: undefined, producers: ["curl"] }],
    ],
    [
      "curl -fsSL https://x | bash -s -- --flag",
      [{ language: "shell", interpreter: "bash", source: "stdin", code: undefined, producers: ["curl"] }],
    ],
    [
      "wget -qO- https://x | python3",
      [{ language: "python", interpreter: "python3", source: "stdin", code: undefined, producers: ["wget"] }],
    ],
    [
      "curl x | tee log | sh",
      [{ language: "shell", interpreter: "sh", source: "stdin", code: undefined, producers: ["curl", "tee"] }],
    ],
    [
      "echo $(curl x) | sh",
      [{ language: "shell", interpreter: "sh", source: "stdin", code: undefined, producers: ["echo", "curl"] }],
    ],
    [
      "bash <(curl x)",
      [
        {
          language: "shell",
          interpreter: "bash",
          source: "process-substitution",
          code: undefined,
          producers: ["curl"],
        },
      ],
    ],
    [
      "source <(kubectl completion bash)",
      [
        {
          language: "shell",
          interpreter: "source",
          source: "process-substitution",
          code: undefined,
          producers: ["kubectl"],
        },
      ],
    ],
    [
      ". <(curl x)",
      [{ language: "shell", interpreter: ".", source: "process-substitution", code: undefined, producers: ["curl"] }],
    ],
    [
      'eval "$(curl x)"',
      [
        {
          language: "shell",
          interpreter: "eval",
          source: "command-substitution",
          code: undefined,
          producers: ["curl"],
        },
      ],
    ],
    [
      'sh -c "$(wget -O- x)"',
      [{ language: "shell", interpreter: "sh", source: "command-substitution", code: undefined, producers: ["wget"] }],
    ],
    [
      "source ~/.bashrc",
      [{ language: "shell", interpreter: "source", source: "file", code: undefined, producers: [] }],
    ],
    [". ./env.sh", [{ language: "shell", interpreter: ".", source: "file", code: undefined, producers: [] }]],
    [
      "bash script.sh arg",
      [{ language: "shell", interpreter: "bash", source: "file", code: undefined, producers: [] }],
    ],
    ["bash < script.sh", [{ language: "shell", interpreter: "bash", source: "file", code: undefined, producers: [] }]],
    [
      "python3 tool.py .env",
      [{ language: "python", interpreter: "python3", source: "file", code: undefined, producers: [] }],
    ],
    [
      "python3.12 -c 'print(1)'",
      [{ language: "python", interpreter: "python3", source: "literal", code: "print(1)", producers: [] }],
    ],
    [
      "python -Bc 'print(1)'",
      [{ language: "python", interpreter: "python", source: "literal", code: "print(1)", producers: [] }],
    ],
    [
      "node -e 'console.log(1)'",
      [{ language: "node", interpreter: "node", source: "literal", code: "console.log(1)", producers: [] }],
    ],
    ["node --eval 'x()'", [{ language: "node", interpreter: "node", source: "literal", code: "x()", producers: [] }]],
    ["nodejs -p '1+1'", [{ language: "node", interpreter: "nodejs", source: "literal", code: "1+1", producers: [] }]],
    [
      "deno eval 'Deno.exit()'",
      [{ language: "node", interpreter: "deno", source: "literal", code: "Deno.exit()", producers: [] }],
    ],
    ["bun -e 'x()'", [{ language: "node", interpreter: "bun", source: "literal", code: "x()", producers: [] }]],
    [
      "perl -e 'print 1' -e 'print 2'",
      [{ language: "perl", interpreter: "perl", source: "literal", code: "print 1\nprint 2", producers: [] }],
    ],
    [
      "perl -lne 'print' f.txt",
      [{ language: "perl", interpreter: "perl", source: "literal", code: "print", producers: [] }],
    ],
    ["perl -E 'say 1'", [{ language: "perl", interpreter: "perl", source: "literal", code: "say 1", producers: [] }]],
    ["ruby -e 'puts 1'", [{ language: "ruby", interpreter: "ruby", source: "literal", code: "puts 1", producers: [] }]],
    ["php -r 'echo 1;'", [{ language: "php", interpreter: "php", source: "literal", code: "echo 1;", producers: [] }]],
    [
      'python3 -c "$CODE"',
      [{ language: "python", interpreter: "python3", source: "dynamic", code: undefined, producers: [] }],
    ],
    // shells started without a command read stdin
    [
      "echo 'rm -rf /' | su",
      [{ language: "shell", interpreter: "su", source: "literal", code: "rm -rf /\n", producers: [] }],
    ],
    [
      "echo 'rm x' | sudo -s",
      [{ language: "shell", interpreter: "sudo", source: "literal", code: "rm x\n", producers: [] }],
    ],
    [
      "curl x | ssh host",
      [{ language: "shell", interpreter: "ssh", source: "stdin", code: undefined, producers: ["curl"] }],
    ],
    [
      "curl x | ssh host bash",
      [
        { language: "shell", interpreter: "ssh", source: "literal", code: "bash", producers: [] },
        { language: "shell", interpreter: "bash", source: "stdin", code: undefined, producers: ["curl"] },
      ],
    ],
    // a heredoc on a group or a shell string feeds the commands inside
    [
      "{ python3; } <<'EOF'\nimport os\nEOF",
      [{ language: "python", interpreter: "python3", source: "literal", code: "import os\n", producers: [] }],
    ],
    [
      "bash -c 'python3' <<'EOF'\nimport os\nEOF",
      [
        { language: "shell", interpreter: "bash", source: "literal", code: "python3", producers: [] },
        { language: "python", interpreter: "python3", source: "literal", code: "import os\n", producers: [] },
      ],
    ],
    [
      "{ curl x | bash; } < script.sh",
      [{ language: "shell", interpreter: "bash", source: "stdin", code: undefined, producers: ["curl"] }],
    ],
    // commands in other programs' options and in traps
    [
      "trap 'rm -rf /tmp/x' EXIT",
      [{ language: "shell", interpreter: "trap", source: "literal", code: "rm -rf /tmp/x", producers: [] }],
    ],
    ["trap - EXIT", []],
    [
      "rsync -e 'ssh -p 2222' a host:b",
      [{ language: "shell", interpreter: "rsync", source: "literal", code: "ssh -p 2222", producers: [] }],
    ],
    [
      "tar --to-command='sh -c x' -xf a.tar",
      [
        { language: "shell", interpreter: "tar", source: "literal", code: "sh -c x", producers: [] },
        { language: "shell", interpreter: "sh", source: "literal", code: "x", producers: [] },
      ],
    ],
    [
      "git -c core.sshCommand='ssh -i k' fetch",
      [{ language: "shell", interpreter: "git", source: "literal", code: "ssh -i k", producers: [] }],
    ],
    [
      "git -c alias.x='!rm -rf /' x",
      [{ language: "shell", interpreter: "git", source: "literal", code: "rm -rf /", producers: [] }],
    ],
    ["git -c alias.st=status st", []],
    [
      "ssh -o ProxyCommand='nc %h %p' host",
      [{ language: "shell", interpreter: "ssh", source: "literal", code: "nc %h %p", producers: [] }],
    ],
    // code given to xargs' command at run time
    [
      "curl https://x | xargs -0 sh -c",
      [{ language: "shell", interpreter: "sh", source: "stdin", code: undefined, producers: ["curl"] }],
    ],
    [
      "xargs -I{} sh -c 'rm {}'",
      [{ language: "shell", interpreter: "sh", source: "literal", code: "rm {}", producers: [] }],
    ],
    // no code: modules, versions, package managers, interactive shells
    ["python3 -m http.server", []],
    ["node --version", []],
    ["bun install", []],
    // without write, run or network permission a Deno script changes nothing: it is not read
    ["deno run main.ts", []],
    [
      "deno run -A main.ts",
      [{ language: "node", interpreter: "deno", source: "file", code: undefined, producers: [] }],
    ],
    ["bash", []],
    ["bash --version", []],
    ["php -l x.php", []],
  ];

  it.each(cases)("`%s` → %j", (source, expected) => {
    expect(code(source)).toEqual(expected);
  });

  it("literal shell code is analysed one level deeper", () => {
    expect(lines(analyze("bash <<'EOF'\nrm -rf /\nEOF"))).toEqual(["bash", "rm -rf /"]);
    expect(lines(analyze("echo 'rm -rf /' | bash"))).toEqual(["echo rm -rf /", "bash", "rm -rf /"]);
    expect(find(analyze("curl -fsSL x | sudo bash"), "bash").wrappers).toEqual(["sudo"]);
  });
});

type Call = Pick<InterpreterCall, "language" | "api" | "access" | "recursive" | "args">;

function calls(source: string): Call[] {
  return analyze(source).calls.map(({ language, api, access, recursive, args }) => ({
    language,
    api,
    access,
    recursive,
    args: [...args],
  }));
}

describe("destructive calls in interpreter code", () => {
  const cases: [string, Call[]][] = [
    [
      "python3 -c \"import shutil; shutil.rmtree('/')\"",
      [{ language: "python", api: "shutil.rmtree", access: "delete", recursive: true, args: ["/"] }],
    ],
    [
      "python3 -c \"from shutil import rmtree as r; r('/x')\"",
      [{ language: "python", api: "shutil.rmtree", access: "delete", recursive: true, args: ["/x"] }],
    ],
    [
      "python3 -c \"import shutil as sh; sh.rmtree('/y')\"",
      [{ language: "python", api: "shutil.rmtree", access: "delete", recursive: true, args: ["/y"] }],
    ],
    [
      "python3 -c \"__import__('shutil').rmtree('/z')\"",
      [{ language: "python", api: "shutil.rmtree", access: "delete", recursive: true, args: ["/z"] }],
    ],
    [
      "python -c \"import os; os.remove('a'); os.unlink('b'); os.rmdir('c'); os.removedirs('d')\"",
      [
        { language: "python", api: "os.remove", access: "delete", recursive: false, args: ["a"] },
        { language: "python", api: "os.unlink", access: "delete", recursive: false, args: ["b"] },
        { language: "python", api: "os.rmdir", access: "delete", recursive: false, args: ["c"] },
        { language: "python", api: "os.removedirs", access: "delete", recursive: false, args: ["d"] },
      ],
    ],
    [
      "python3 -c \"from pathlib import Path; Path('/etc/x').unlink()\"",
      [{ language: "python", api: "pathlib.Path.unlink", access: "delete", recursive: false, args: ["/etc/x"] }],
    ],
    [
      "python3 -c \"import pathlib; pathlib.Path(r'C:\\\\x').rmdir()\"",
      [{ language: "python", api: "pathlib.Path.rmdir", access: "delete", recursive: false, args: ["C:\\x"] }],
    ],
    [
      'python3 -c "p.unlink()"',
      [{ language: "python", api: "pathlib.Path.unlink", access: "delete", recursive: false, args: [undefined] }],
    ],
    [
      "python3 -c \"import os; os.chmod('/x', 0o777)\"",
      [{ language: "python", api: "os.chmod", access: "chmod", recursive: false, args: ["/x"] }],
    ],
    [
      "python3 -c \"open('/etc/hosts', 'w').write('x')\"",
      [{ language: "python", api: "open", access: "write", recursive: false, args: ["/etc/hosts"] }],
    ],
    [
      "python3 -c \"print(open('.env').read())\"",
      [{ language: "python", api: "open", access: "read", recursive: false, args: [".env"] }],
    ],
    [
      "python3 -c \"open(f'{x}', 'a')\"",
      [{ language: "python", api: "open", access: "write", recursive: false, args: [undefined] }],
    ],
    ["python3 -c \"# shutil.rmtree('/')\nprint(1)\"", []],
    ["python3 -c \"print('shutil.rmtree(/)')\"", []],
    ["python3 -c \"'''shutil.rmtree('/')'''\"", []],
    [
      "node -e \"require('fs').rmSync('/', {recursive:true})\"",
      [{ language: "node", api: "fs.rmSync", access: "delete", recursive: true, args: ["/"] }],
    ],
    [
      "node -e \"require('node:fs').rmSync('/x')\"",
      [{ language: "node", api: "fs.rmSync", access: "delete", recursive: false, args: ["/x"] }],
    ],
    [
      "node -e \"const fs = require('fs'); fs.rmdirSync('d', { recursive: true })\"",
      [{ language: "node", api: "fs.rmdirSync", access: "delete", recursive: true, args: ["d"] }],
    ],
    [
      "node -e \"const {rmSync: r} = require('fs'); r('/a', {force: true})\"",
      [{ language: "node", api: "fs.rmSync", access: "delete", recursive: false, args: ["/a"] }],
    ],
    [
      "node -e \"import('fs'); require('fs').promises.rm('/b', {recursive: true})\"",
      [{ language: "node", api: "fs.promises.rm", access: "delete", recursive: true, args: ["/b"] }],
    ],
    [
      "node -e \"const fsp = require('fs/promises'); fsp.unlink('/c')\"",
      [{ language: "node", api: "fs.promises.unlink", access: "delete", recursive: false, args: ["/c"] }],
    ],
    [
      "node -e 'rmSync(`/d`)'",
      [{ language: "node", api: "fs.rmSync", access: "delete", recursive: false, args: ["/d"] }],
    ],
    [
      "node -e 'rmSync(`${x}`)'",
      [{ language: "node", api: "fs.rmSync", access: "delete", recursive: false, args: [undefined] }],
    ],
    [
      "node -e \"require('fs').writeFileSync('/etc/x', 'y') // require('fs').rmSync('/')\"",
      [{ language: "node", api: "fs.writeFileSync", access: "write", recursive: false, args: ["/etc/x"] }],
    ],
    [
      'perl -e \'unlink "/a", "/b"\'',
      [{ language: "perl", api: "unlink", access: "delete", recursive: false, args: ["/a", "/b"] }],
    ],
    [
      "perl -MFile::Path -e 'rmtree(\"/x\")'",
      [{ language: "perl", api: "File::Path::rmtree", access: "delete", recursive: true, args: ["/x"] }],
    ],
    [
      "perl -e 'File::Path::remove_tree(\"/y\")'",
      [{ language: "perl", api: "File::Path::remove_tree", access: "delete", recursive: true, args: ["/y"] }],
    ],
    ["perl -e 'rmdir q{/z}'", [{ language: "perl", api: "rmdir", access: "delete", recursive: false, args: ["/z"] }]],
    ["perl -pi -e 's/unlink/x/g' f.txt", []],
    [
      "ruby -e 'FileUtils.rm_rf(\"/\")'",
      [{ language: "ruby", api: "FileUtils.rm_rf", access: "delete", recursive: true, args: ["/"] }],
    ],
    [
      "ruby -rfileutils -e 'FileUtils::rm_r \"/x\"'",
      [{ language: "ruby", api: "FileUtils.rm_r", access: "delete", recursive: true, args: ["/x"] }],
    ],
    [
      'ruby -e \'File.delete("a"); Dir.rmdir("b")\'',
      [
        { language: "ruby", api: "File.delete", access: "delete", recursive: false, args: ["a"] },
        { language: "ruby", api: "Dir.rmdir", access: "delete", recursive: false, args: ["b"] },
      ],
    ],
    [
      'ruby -e \'File.write("/etc/x", "y")\'',
      [{ language: "ruby", api: "File.write", access: "write", recursive: false, args: ["/etc/x"] }],
    ],
    [
      'php -r \'unlink("/a"); rmdir("/b");\'',
      [
        { language: "php", api: "unlink", access: "delete", recursive: false, args: ["/a"] },
        { language: "php", api: "rmdir", access: "delete", recursive: false, args: ["/b"] },
      ],
    ],
  ];

  it.each(cases)("`%s` → %j", (source, expected) => {
    expect(calls(source)).toEqual(expected);
  });
});

describe("shell commands run by interpreter code", () => {
  // [source, the commands run inside (as lines), the exec APIs found]
  const cases: [string, string[], string[]][] = [
    ["python -c \"import os; os.system('rm -rf /')\"", ["rm -rf /"], ["os.system"]],
    ["python3 -c \"import os; os.popen('rm x')\"", ["rm x"], ["os.popen"]],
    ["python3 -c \"import subprocess; subprocess.run(['rm', '-rf', '/'])\"", ["rm -rf /"], ["subprocess.run"]],
    ["python3 -c \"import subprocess; subprocess.run('rm -rf /', shell=True)\"", ["rm -rf /"], ["subprocess.run"]],
    [
      "python3 -c \"from subprocess import check_call; check_call(['sudo', 'rm', 'x'])\"",
      ["rm x"],
      ["subprocess.check_call"],
    ],
    [
      "python3 -c \"import subprocess as sp; sp.Popen(['bash', '-c', 'rm -rf ~'])\"",
      ["bash -c rm -rf ~", "rm -rf /home/u"],
      ["subprocess.Popen"],
    ],
    ["node -e \"require('child_process').execSync('rm -rf /')\"", ["rm -rf /"], ["child_process.execSync"]],
    [
      "node -e \"const { spawn } = require('child_process'); spawn('rm', ['-rf', '/'])\"",
      ["rm -rf /"],
      ["child_process.spawn"],
    ],
    ["node -e \"const cp = require('child_process'); cp.exec('rm x')\"", ["rm x"], ["child_process.exec"]],
    [
      "node -e \"require('child_process').spawnSync('rm -rf /', { shell: true })\"",
      ["rm -rf /"],
      ["child_process.spawnSync"],
    ],
    ["node -e \"require('child_process').execFileSync('rm', ['y'])\"", ["rm y"], ["child_process.execFileSync"]],
    ["perl -e 'system(\"rm -rf /\")'", ["rm -rf /"], ["system"]],
    ['perl -e \'system("rm", "-rf", "/")\'', ["rm -rf /"], ["system"]],
    ["perl -e 'exec \"rm x\"'", ["rm x"], ["exec"]],
    ["perl -e 'my $x = `rm -rf /`'", ["rm -rf /"], ["qx"]],
    ["perl -e 'print qx{rm y}'", ["rm y"], ["qx"]],
    ["ruby -e 'system(\"rm -rf /\")'", ["rm -rf /"], ["system"]],
    ['ruby -e \'system "rm", "-rf", "/"\'', ["rm -rf /"], ["system"]],
    ["ruby -e 'puts `rm x`'", ["rm x"], ["backticks"]],
    ["ruby -e 'puts %x(rm y)'", ["rm y"], ["backticks"]],
    ["php -r 'shell_exec(\"rm -rf /\");'", ["rm -rf /"], ["shell_exec"]],
    ["php -r 'echo `rm x`;'", ["rm x"], ["backticks"]],
  ];

  it.each(cases)("`%s` runs %j", (source, nested, apis) => {
    const a = analyze(source);
    const inner = a.commands.filter((c) => c.depth > 0);
    expect(inner.map((c) => c.argv.map((w) => w.value ?? `<${w.text}>`).join(" "))).toEqual(nested);
    expect(inner[0]?.via).toContain("interpreter");
    expect(inner[0]?.launchedBy).toBe(0);
    expect(a.calls.filter((c) => c.access === "exec").map((c) => c.api)).toEqual(apis);
    expect(a.unrepresentable).toEqual([]);
  });

  it("a command string built at run time is dynamic code", () => {
    const a = analyze('python3 -c "import os; os.system(cmd)"');
    expect(a.calls).toEqual([
      { language: "python", command: 0, api: "os.system", access: "exec", recursive: false, args: [undefined] },
    ]);
    expect(a.unrepresentable.map((u) => u.code)).toEqual(["dynamic-code"]);
  });

  it("code that cannot be tokenized is reported", () => {
    const a = analyze('python3 -c "print(\'unterminated)"');
    expect(a.unrepresentable.map((u) => u.code)).toEqual(["interpreter-code"]);
  });

  it("python code in a heredoc is read too", () => {
    const a = analyze("python3 <<'EOF'\nimport shutil\nshutil.rmtree('/srv')\nEOF");
    expect(a.calls.map((c) => [c.api, c.args])).toEqual([["shutil.rmtree", ["/srv"]]]);
  });
});
