import { describe, expect, it } from "vitest";
import { argView } from "../../src/shell/index.ts";
import { analyze } from "./helpers.ts";

interface Shown {
  flags: string[];
  values: Record<string, (string | undefined)[]>;
  positionals: (string | undefined)[];
  afterDoubleDash: boolean;
}

/** The view of the first command, with words shown by value. */
function view(source: string): Shown {
  const cmd = analyze(source).commands[0];
  if (cmd === undefined) throw new Error(`no command in \`${source}\``);
  const v = argView(cmd);
  return {
    flags: [...v.flags].sort(),
    values: Object.fromEntries([...v.values].map(([k, words]) => [k, words.map((w) => w.value)])),
    positionals: v.positionals.map((w) => w.value),
    afterDoubleDash: v.afterDoubleDash,
  };
}

const v = (
  flags: string[],
  values: Shown["values"],
  positionals: Shown["positionals"],
  afterDoubleDash = false,
): Shown => ({ flags: [...flags].sort(), values, positionals, afterDoubleDash });

describe("argView splits options by each program's grammar", () => {
  const cases: [string, Shown][] = [
    // clusters and orders
    ["rm -rf /", v(["-r", "-f"], {}, ["/"])],
    ["rm -fr /", v(["-r", "-f"], {}, ["/"])],
    ["rm -r -f /", v(["-r", "-f"], {}, ["/"])],
    ["rm / -rf", v(["-r", "-f"], {}, ["/"])],
    ["rm --recursive --force /", v(["--recursive", "--force"], {}, ["/"])],
    ["rm --recur --forc /", v(["--recursive", "--force"], {}, ["/"])],
    ["rm -rf -- /", v(["-r", "-f"], {}, ["/"], true)],
    ["rm -- -rf", v([], {}, ["-rf"], true)],
    ["rm -Rfv a b", v(["-R", "-f", "-v"], {}, ["a", "b"])],
    // values
    ["git commit -am msg", v(["-a", "-m"], { "-m": ["msg"] }, ["commit"])],
    ["git commit -m msg -a", v(["-a", "-m"], { "-m": ["msg"] }, ["commit"])],
    ["git commit -mmsg", v(["-m"], { "-m": ["msg"] }, ["commit"])],
    ["git commit --message=msg", v(["--message"], { "--message": ["msg"] }, ["commit"])],
    ["git commit --message msg", v(["--message"], { "--message": ["msg"] }, ["commit"])],
    ["git -C x push -f origin main", v(["-f"], { "-C": ["x"] }, ["push", "origin", "main"])],
    [
      "git -c core.editor=vim --git-dir=.git --work-tree . push --force",
      v(["--force"], { "-c": ["core.editor=vim"], "--git-dir": [".git"], "--work-tree": ["."] }, ["push"]),
    ],
    ["git push --force-with-lease origin main", v(["--force-with-lease"], {}, ["push", "origin", "main"])],
    ["git push -o ci.skip origin", v(["-o"], { "-o": ["ci.skip"] }, ["push", "origin"])],
    ["git push origin +main", v([], {}, ["push", "origin", "+main"])],
    ["git checkout -b feature main", v(["-b"], { "-b": ["feature"] }, ["checkout", "main"])],
    ["git checkout -- file.txt", v([], {}, ["checkout", "file.txt"], true)],
    ["git branch -D old", v(["-D"], {}, ["branch", "old"])],
    ["git reset --hard HEAD~1", v(["--hard"], {}, ["reset", "HEAD~1"])],
    ["git clean -fdx -e keep", v(["-f", "-d", "-x", "-e"], { "-e": ["keep"] }, ["clean"])],
    ["git stash push -m wip", v(["-m"], { "-m": ["wip"] }, ["stash", "push"])],
    ["git tag -a v1 -m release", v(["-a", "-m"], { "-m": ["release"] }, ["tag", "v1"])],
    ["git log -n 5 --oneline", v(["-n", "--oneline"], { "-n": ["5"] }, ["log"])],
    ["git status", v([], {}, ["status"])],
    // find's own grammar
    ["find . -name '*.tmp' -delete", v(["-name", "-delete"], { "-name": ["*.tmp"] }, ["."])],
    [
      "find -L /a /b -type f -exec rm -rf {} +",
      v(["-L", "-type", "-exec"], { "-type": ["f"], "-exec": ["rm", "-rf", "{}"] }, ["/a", "/b"]),
    ],
    ["find . -newermt 2024-01-01 -print", v(["-newermt", "-print"], { "-newermt": ["2024-01-01"] }, ["."])],
    // dd operands
    ["dd if=/dev/zero of=/dev/sda bs=1M", v([], { if: ["/dev/zero"], of: ["/dev/sda"], bs: ["1M"] }, [])],
    // tar, with old-style clusters
    ["tar -xzf a.tgz -C out", v(["-x", "-z", "-f", "-C"], { "-f": ["a.tgz"], "-C": ["out"] }, [])],
    ["tar xzf a.tgz dir", v(["-x", "-z", "-f"], { "-f": ["a.tgz"] }, ["dir"])],
    ["tar --create --file=b.tar src", v(["--create", "--file"], { "--file": ["b.tar"] }, ["src"])],
    // chmod/chown: the mode and owner are operands; `-w` is a mode
    ["chmod -R 755 dir", v(["-R"], {}, ["755", "dir"])],
    ["chmod -w file", v([], {}, ["-w", "file"])],
    ["chown -R root:root /srv", v(["-R"], {}, ["root:root", "/srv"])],
    // database clients
    [
      "psql -h db -U admin -d prod -c 'DROP TABLE x'",
      v(["-h", "-U", "-d", "-c"], { "-h": ["db"], "-U": ["admin"], "-d": ["prod"], "-c": ["DROP TABLE x"] }, []),
    ],
    [
      "mysql -u root -psecret -h db -D prod -e 'DROP TABLE x'",
      v(
        ["-u", "-p", "-h", "-D", "-e"],
        { "-u": ["root"], "-p": ["secret"], "-h": ["db"], "-D": ["prod"], "-e": ["DROP TABLE x"] },
        [],
      ),
    ],
    [
      "redis-cli -h cache -p 6379 -a pw -n 2 FLUSHALL",
      v(["-h", "-p", "-a", "-n"], { "-h": ["cache"], "-p": ["6379"], "-a": ["pw"], "-n": ["2"] }, ["FLUSHALL"]),
    ],
    // cloud and infrastructure
    ["kubectl -n prod delete pod web --force", v(["-n", "--force"], { "-n": ["prod"] }, ["delete", "pod", "web"])],
    [
      "kubectl delete -f app.yaml --context=prod",
      v(["-f", "--context"], { "-f": ["app.yaml"], "--context": ["prod"] }, ["delete"]),
    ],
    [
      "aws --profile prod s3 rm s3://b --recursive --region us-east-1",
      v(["--profile", "--recursive", "--region"], { "--profile": ["prod"], "--region": ["us-east-1"] }, [
        "s3",
        "rm",
        "s3://b",
      ]),
    ],
    [
      "gcloud --project p compute instances delete vm --zone z",
      v(["--project", "--zone"], { "--project": ["p"], "--zone": ["z"] }, ["compute", "instances", "delete", "vm"]),
    ],
    ["gsutil -m rm -r gs://b", v(["-m", "-r"], {}, ["rm", "gs://b"])],
    [
      "terraform destroy -auto-approve -var 'a=b' -target=x",
      v(["-auto-approve", "-var", "-target"], { "-var": ["a=b"], "-target": ["x"] }, ["destroy"]),
    ],
    [
      "docker -H tcp://h run --rm -v /:/host -it alpine rm -rf /host",
      v(["--rm", "-v", "-i", "-t"], { "-H": ["tcp://h"], "-v": ["/:/host"] }, ["run", "alpine", "rm", "-rf", "/host"]),
    ],
    ["docker build -t app -f Dockerfile .", v(["-t", "-f"], { "-t": ["app"], "-f": ["Dockerfile"] }, ["build", "."])],
    [
      "docker system prune -af --filter until=24h",
      v(["-a", "-f", "--filter"], { "--filter": ["until=24h"] }, ["system", "prune"]),
    ],
    ["docker compose rm -f -v", v(["-f", "-v"], {}, ["compose", "rm"])],
    [
      "docker compose -f dev.yml down -v --rmi all",
      v(["-v", "--rmi"], { "-f": ["dev.yml"], "--rmi": ["all"] }, ["compose", "down"]),
    ],
    // network tools
    [
      "curl -o out.txt -H 'A: b' -X POST -d @data.json https://x",
      v(["-o", "-H", "-X", "-d"], { "-o": ["out.txt"], "-H": ["A: b"], "-X": ["POST"], "-d": ["@data.json"] }, [
        "https://x",
      ]),
    ],
    ["curl -fsSLo out https://x", v(["-f", "-s", "-S", "-L", "-o"], { "-o": ["out"] }, ["https://x"])],
    ["wget -qO- https://x", v(["-q", "-O"], { "-O": ["-"] }, ["https://x"])],
    ["wget -P dl -o log https://x", v(["-P", "-o"], { "-P": ["dl"], "-o": ["log"] }, ["https://x"])],
    // text tools
    ["sed -i -e 's/a/b/' f", v(["-i", "-e"], { "-e": ["s/a/b/"] }, ["f"])],
    ["sed -i.bak 's/a/b/' f", v(["-i"], { "-i": [".bak"] }, ["s/a/b/", "f"])],
    ["cp -t dest -S .bak a b", v(["-t", "-S"], { "-t": ["dest"], "-S": [".bak"] }, ["a", "b"])],
    ["mv -f a b", v(["-f"], {}, ["a", "b"])],
    ["ln -sf target link", v(["-s", "-f"], {}, ["target", "link"])],
    ["tee -a log", v(["-a"], {}, ["log"])],
    ["kill -9 -1", v(["-9", "-1"], {}, [])],
    ["kill -s KILL 1", v(["-s"], { "-s": ["KILL"] }, ["1"])],
    ["kill -KILL 123", v(["-KILL"], {}, ["123"])],
    // unknown programs: every option is a flag without a value
    [
      "mytool -abc --out=file --verbose x y",
      v(["-a", "-b", "-c", "--out", "--verbose"], { "--out": ["file"] }, ["x", "y"]),
    ],
    ["mytool -o file", v(["-o"], {}, ["file"])],
  ];

  it.each(cases)("`%s` → %j", (source, expected) => {
    expect(view(source)).toEqual(expected);
  });

  it("works on commands unwrapped from wrappers", () => {
    const a = analyze("sudo -u root rm -rf -- /");
    expect(view("sudo -u root rm -rf -- /")).toEqual(v(["-r", "-f"], {}, ["/"], true));
    expect(a.commands[0]?.program).toBe("rm");
  });

  it("keeps dynamic words as positionals", () => {
    expect(view('rm -rf "$DIR"')).toEqual(v(["-r", "-f"], {}, [undefined]));
  });
});

describe("positionals that may be an option's value", () => {
  const suspects = (source: string): (string | undefined)[] => {
    const v = argView(analyze(source).commands[0]!);
    return v.positionals.filter((_, i) => v.suspect[i]).map((w) => w.value);
  };
  it.each([
    ["gh issue list --search delete", ["delete"]],
    ["cdk --profile prod deploy", ["prod"]],
    // known to take no value, a negation, a signal, a number, `--`, `x=y`
    ["kubectl delete --force pod", []],
    ["tool --no-color deploy", []],
    ["kill -KILL 1", []],
    ["head -5 file", []],
    ["tool -- deploy", []],
    ["tool --x=1 deploy", []],
  ])("`%s` → %j", (source, expected) => {
    expect(suspects(source)).toEqual(expected);
  });
});

describe("what a package runner the walk left whole runs", () => {
  const runs = (source: string): [string, (string | undefined)[]] | undefined => {
    const r = argView(analyze(source).commands[0]!).runs;
    return r === undefined ? undefined : [r.program, r.positionals.map((w) => w.value)];
  };
  it.each([
    // an option the walk does not know leaves the runner whole (known ones are unwrapped: wrappers.test.ts)
    ["npm --foo exec eslint --fix src", ["eslint", ["src"]]],
    ["pnpm --foo -r exec rm -rf dist", ["rm", ["dist"]]],
    ["pnpm --foo dlx @next/codemod@latest x", ["@next/codemod", ["x"]]],
    ["pnpm -r exec rm -rf dist", undefined],
    ["pnpm -r install", undefined],
    ["npm -w api run build", undefined],
    ["git -C x status", undefined],
  ] as const)("`%s` → %j", (source, expected) => {
    expect(runs(source)).toEqual(expected);
  });
});
