import { describe, expect, it } from "vitest";
import { analyze, brief, find, lines } from "./helpers.ts";

describe("wrappers are removed with their real option syntax", () => {
  // [source, the wrapped command: argv, wrappers, via]
  const cases: [string, string[], string[], string[]][] = [
    ["sudo -u root /bin/rm -rf /", ["/bin/rm", "-rf", "/"], ["sudo"], ["wrapper"]],
    ["sudo -Eu root rm -rf /", ["rm", "-rf", "/"], ["sudo"], ["wrapper"]],
    ["sudo -g wheel -h host -p pw -C 3 -r role -t type -T 5 -U bob rm x", ["rm", "x"], ["sudo"], ["wrapper"]],
    ["sudo -E -H -n -k -S -b -P -- rm x", ["rm", "x"], ["sudo"], ["wrapper"]],
    ["sudo --user=root --preserve-env=PATH rm x", ["rm", "x"], ["sudo"], ["wrapper"]],
    ["doas -u root rm -rf /", ["rm", "-rf", "/"], ["doas"], ["wrapper"]],
    ["pkexec --user root rm x", ["rm", "x"], ["pkexec"], ["wrapper"]],
    ["env -i -u BAR FOO=1 rm x", ["rm", "x"], ["env"], ["wrapper"]],
    ["env -S 'rm -rf /'", ["rm", "-rf", "/"], ["env"], ["wrapper"]],
    ["env -S 'sudo rm -rf /' extra", ["rm", "-rf", "/", "extra"], ["env", "sudo"], ["wrapper", "wrapper"]],
    ["env --split-string='rm -rf /'", ["rm", "-rf", "/"], ["env"], ["wrapper"]],
    ["command rm -rf /", ["rm", "-rf", "/"], ["command"], ["wrapper"]],
    ["command -p rm x", ["rm", "x"], ["command"], ["wrapper"]],
    ["builtin cd /tmp", ["cd", "/tmp"], ["builtin"], ["wrapper"]],
    ["exec -a name -c -l rm x", ["rm", "x"], ["exec"], ["wrapper"]],
    ["nice -n 10 rm x", ["rm", "x"], ["nice"], ["wrapper"]],
    ["nice -10 rm x", ["rm", "x"], ["nice"], ["wrapper"]],
    ["nohup rm x", ["rm", "x"], ["nohup"], ["wrapper"]],
    ["time rm x", ["rm", "x"], ["time"], ["wrapper"]],
    ["time -p rm x", ["rm", "x"], ["time"], ["wrapper"]],
    ["/usr/bin/time -f %e -o t.txt rm x", ["rm", "x"], ["time"], ["wrapper"]],
    ["command time -p rm x", ["rm", "x"], ["command", "time"], ["wrapper", "wrapper"]],
    ["timeout 10 rm x", ["rm", "x"], ["timeout"], ["wrapper"]],
    ["timeout -s KILL -k 5 10 rm x", ["rm", "x"], ["timeout"], ["wrapper"]],
    [
      "timeout --signal=TERM --kill-after=3 --preserve-status --foreground -v 10s rm x",
      ["rm", "x"],
      ["timeout"],
      ["wrapper"],
    ],
    ["stdbuf -oL -e 0 -i0 rm x", ["rm", "x"], ["stdbuf"], ["wrapper"]],
    ["ionice -c 3 -n 7 rm x", ["rm", "x"], ["ionice"], ["wrapper"]],
    ["chrt -f 10 rm x", ["rm", "x"], ["chrt"], ["wrapper"]],
    ["taskset -c 0-3 rm x", ["rm", "x"], ["taskset"], ["wrapper"]],
    ["setsid -f rm x", ["rm", "x"], ["setsid"], ["wrapper"]],
    ["unbuffer -p rm x", ["rm", "x"], ["unbuffer"], ["wrapper"]],
    ["chroot --userspec=u:g /srv rm x", ["rm", "x"], ["chroot"], ["wrapper"]],
    ["flock -n /tmp/lock rm x", ["rm", "x"], ["flock"], ["wrapper"]],
    ["flock -w 5 --shared /tmp/lock rm x", ["rm", "x"], ["flock"], ["wrapper"]],
    ["watch -x rm x", ["rm", "x"], ["watch"], ["wrapper"]],
    ["xargs -0 rm -rf", ["rm", "-rf"], ["xargs"], ["xargs"]],
    [
      "xargs -a list.txt -d '\\n' -E EOF -I {} -L 1 -n 2 -P 4 -s 100 -r -t -p -x -o cp {} /tmp",
      ["cp", "{}", "/tmp"],
      ["xargs"],
      ["xargs"],
    ],
    ["xargs --null --max-args=1 --replace rm", ["rm"], ["xargs"], ["xargs"]],
    ["xargs", ["echo"], ["xargs"], ["xargs"]],
    ["busybox rm -rf /", ["rm", "-rf", "/"], ["busybox"], ["wrapper"]],
    ["strace -f -o trace.txt rm x", ["rm", "x"], ["strace"], ["wrapper"]],
    [
      "sudo nice -n 5 timeout 3 env A=1 rm x",
      ["rm", "x"],
      ["sudo", "nice", "timeout", "env"],
      ["wrapper", "wrapper", "wrapper", "wrapper"],
    ],
    ["\\rm -rf /", ["rm", "-rf", "/"], [], []],
    ["npx -y rimraf dist", ["rimraf", "dist"], ["npx"], ["wrapper"]],
    [
      "npx --package=prisma -- prisma migrate reset --force",
      ["prisma", "migrate", "reset", "--force"],
      ["npx"],
      ["wrapper"],
    ],
    ["bunx --bun vite build", ["vite", "build"], ["bunx"], ["wrapper"]],
    ["pnpm exec rimraf dist", ["rimraf", "dist"], ["pnpm"], ["wrapper"]],
    ["pnpm dlx create-vite app", ["create-vite", "app"], ["pnpm"], ["wrapper"]],
    ["npm exec -y -- rimraf dist", ["rimraf", "dist"], ["npm"], ["wrapper"]],
    ["yarn dlx rimraf dist", ["rimraf", "dist"], ["yarn"], ["wrapper"]],
    ["uv run --with rich python x.py", ["python", "x.py"], ["uv"], ["wrapper"]],
    ["uvx --from ruff ruff check", ["ruff", "check"], ["uvx"], ["wrapper"]],
    ["bundle exec rake db:drop", ["rake", "db:drop"], ["bundle"], ["wrapper"]],
    ["poetry run pytest -q", ["pytest", "-q"], ["poetry"], ["wrapper"]],
    ["pipx run black .", ["black", "."], ["pipx"], ["wrapper"]],
    ["mise exec -- node x.js", ["node", "x.js"], ["mise"], ["wrapper"]],
    ["direnv exec . make test", ["make", "test"], ["direnv"], ["wrapper"]],
    ["pnpm install", ["pnpm", "install"], [], []],
    ["npm install", ["npm", "install"], [], []],
    ["uv sync", ["uv", "sync"], [], []],
    ["env - rm x", ["rm", "x"], ["env"], ["wrapper"]],
    ["env -P /usr/bin:/bin rm x", ["rm", "x"], ["env"], ["wrapper"]],
    // package runners with their own options before the subcommand
    ["pnpm -r exec rm -rf /", ["rm", "-rf", "/"], ["pnpm"], ["wrapper"]],
    ["pnpm --filter web --parallel exec rm -rf dist", ["rm", "-rf", "dist"], ["pnpm"], ["wrapper"]],
    ["npm -w api exec -- rimraf dist", ["rimraf", "dist"], ["npm"], ["wrapper"]],
    ["npm --workspace=api -ws exec eslint .", ["eslint", "."], ["npm"], ["wrapper"]],
    ["yarn workspace web exec rm -rf x", ["rm", "-rf", "x"], ["yarn"], ["wrapper"]],
    ["yarn --cwd web dlx rimraf dist", ["rimraf", "dist"], ["yarn"], ["wrapper"]],
    ["yarn workspaces foreach -A -p exec rm -rf x", ["rm", "-rf", "x"], ["yarn"], ["wrapper"]],
    ["pnpm -r install", ["pnpm", "-r", "install"], [], []],
    ["npm -w api run build", ["npm", "-w", "api", "run", "build"], [], []],
    ["pnpm --unknown exec rm x", ["pnpm", "--unknown", "exec", "rm", "x"], [], []],
  ];

  it.each(cases)("`%s` runs %j", (source, argv, wrappers, via) => {
    const a = analyze(source);
    const last = a.commands.at(-1);
    expect(last).toBeDefined();
    expect(brief(last!)).toMatchObject({ argv, wrappers, via });
    expect(a.unrepresentable).toEqual([]);
  });

  it.each([
    ["/bin/rm -rf /", "rm"],
    ["./node_modules/.bin/rimraf dist", "rimraf"],
    ["\\rm x", "rm"],
    ["'rm' x", "rm"],
    ["r''m x", "rm"],
  ])("`%s` has program %s", (source, program) => {
    expect(analyze(source).commands[0]?.program).toBe(program);
  });
});

describe("wrappers that do not run their operands keep the wrapper as the command", () => {
  it.each([
    ["command -v rm", "command"],
    ["command -V rm", "command"],
    ["sudo -l rm", "sudo"],
    ["sudo -v", "sudo"],
    ["doas -C /etc/doas.conf rm", "doas"],
    ["ionice -p 123", "ionice"],
    ["chrt -p 10 123", "chrt"],
    ["taskset -p 0x3 123", "taskset"],
    ["env", "env"],
    ["nice", "nice"],
    ["timeout 10", "timeout"],
    ["busybox --list", "busybox"],
    ["ssh host", "ssh"],
    ["su -", "su"],
  ])("`%s` is only %s", (source, program) => {
    const a = analyze(source);
    expect(a.commands.map((c) => c.program)).toEqual([program]);
  });
});

describe("wrappers whose command is a shell string", () => {
  // [source, the host command, the nested command lines]
  const cases: [string, string, string[]][] = [
    ["su -c 'rm -rf /' root", "su", ["rm -rf /"]],
    ["su - root -c 'rm -rf /'", "su", ["rm -rf /"]],
    ["flock -c 'rm x' /tmp/lock", "flock", ["rm x"]],
    ["flock /tmp/lock -c 'rm x'", "flock", ["rm x"]],
    ["watch -n 1 'rm x'", "watch", ["rm x"]],
    ["watch rm -rf x", "watch", ["rm -rf x"]],
    ["ssh -p 22 host rm -rf /tmp/x", "ssh", ["rm -rf /tmp/x"]],
    ["ssh host 'cd /srv && rm -rf build'", "ssh", ["cd /srv", "rm -rf build"]],
    ["nix-shell -p hello --run 'rm x'", "nix-shell", ["rm x"]],
    ["nix-shell --command 'rm x' shell.nix", "nix-shell", ["rm x"]],
    ["script -q -c 'rm x' log.txt", "script", ["rm x"]],
    ["parallel rm ::: a b", "parallel", ["rm a", "rm b"]],
    ["parallel 'rm {}' ::: c", "parallel", ["rm c"]],
    ["parallel ::: 'rm d' ls", "parallel", ["rm d", "ls"]],
    ["parallel -j 4 gzip", "parallel", ["gzip"]],
    ["npx -c 'rm x'", "npx", ["rm x"]],
  ];

  it.each(cases)("`%s`: %s runs %j", (source, host, nested) => {
    const a = analyze(source);
    const hostCommand = find(a, host);
    const inner = a.commands.filter((c) => c.launchedBy === hostCommand.index);
    expect(inner.map((c) => c.argv.map((w) => w.value ?? `<${w.text}>`).join(" "))).toEqual(nested);
    for (const c of inner) {
      expect(c.wrappers).toContain(host);
      expect(c.via).toContain("shell-string");
      expect(c.depth).toBe(1);
    }
    expect(
      a.code
        .filter((x) => x.command === hostCommand.index)
        .every((x) => x.language === "shell" && x.source === "literal"),
    ).toBe(true);
  });

  it("ssh runs on another machine: the working directory is unknown, the home is the remote user's", () => {
    const rm = find(analyze("ssh host rm -rf '~/x'"), "rm");
    expect(rm.cwd).toBeUndefined();
    // ssh logs in with the local login name unless told otherwise
    expect(rm.args.map((w) => w.value)).toEqual(["-rf", "/home/u/x"]);
    expect(find(analyze("ssh deploy@web 'rm -rf ~'"), "rm").args.map((w) => w.value)).toEqual(["-rf", "/home/deploy"]);
    expect(find(analyze("ssh -l root web 'rm -rf $HOME'"), "rm").args.map((w) => w.value)).toEqual(["-rf", "/root"]);
    expect(find(analyze("ssh host 'rm -rf $PWD'"), "rm").args.map((w) => w.value)).toEqual(["-rf", undefined]);
  });

  it("parallel without ::: inputs gets its arguments at run time", () => {
    const a = analyze("ls | parallel rm");
    expect(find(a, "rm").runtimeArgs).toBe(true);
    expect(find(analyze("parallel rm ::: a"), "rm").runtimeArgs).toBe(false);
  });

  it("env -S with more than one command cannot be represented", () => {
    expect(analyze("env -S 'rm a; rm b'").unrepresentable.map((u) => u.code)).toEqual(["env-split-string"]);
  });

  it("wrapper chdir options set the wrapped command's cwd", () => {
    expect(find(analyze("env -C / rm -rf *"), "rm").cwd).toBe("/");
    expect(find(analyze("sudo -D /var rm -rf *"), "rm").cwd).toBe("/var");
    expect(find(analyze("sudo --chdir=sub rm x"), "rm").cwd).toBe("/work/proj/sub");
    expect(find(analyze("chroot /srv rm x"), "rm").cwd).toBeUndefined();
  });

  it("a package runner's directory and workspace options set the command's cwd", () => {
    expect(find(analyze("pnpm -C / exec rm -rf *"), "rm").cwd).toBe("/");
    expect(find(analyze("pnpm --dir=../other exec rm x"), "rm").cwd).toBe("/work/other");
    expect(find(analyze("npm --prefix /etc exec -- rm x"), "rm").cwd).toBe("/etc");
    expect(find(analyze("yarn --cwd packages/web exec rm x"), "rm").cwd).toBe("/work/proj/packages/web");
    // a workspace named is a directory inside the project; a selector of several leaves the directory
    expect(find(analyze("npm -w api exec rm x"), "rm").cwd).toBe("/work/proj/api");
    expect(find(analyze("yarn workspace @acme/core exec rm x"), "rm").cwd).toBe("/work/proj/@acme/core");
    expect(find(analyze("pnpm --filter ./packages/web exec rm x"), "rm").cwd).toBe("/work/proj/packages/web");
    expect(find(analyze("pnpm --filter '@acme/*' exec rm x"), "rm").cwd).toBe("/work/proj");
    expect(find(analyze('npm -w "$WS" exec rm x'), "rm").cwd).toBeUndefined();
  });

  it("env assignments are recorded on the wrapped command", () => {
    const rm = find(analyze("A=1 env B=2 rm x"), "rm");
    expect(rm.assignments.map((a) => [a.name, a.value.value])).toEqual([
      ["A", "1"],
      ["B", "2"],
    ]);
  });

  it("lines helper sanity", () => {
    expect(lines(analyze("sudo rm x; ls"))).toEqual(["rm x", "ls"]);
    expect(brief(analyze("ls")!.commands[0]!)).toEqual({
      program: "ls",
      argv: ["ls"],
      wrappers: [],
      via: [],
      depth: 0,
    });
  });
});
