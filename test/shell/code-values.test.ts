/**
 * Values known before interpreter code runs (`src/shell/code/values.ts`): the home and working directory
 * however each language spells them, path joins and string variables become literal arguments.
 */
import { describe, expect, it } from "vitest";
import { findCalls } from "../../src/shell/code/index.ts";
import type { CodeTokenLanguage } from "../../src/shell/code/index.ts";
import { analyze } from "./helpers.ts";

const env = { home: "/home/u", cwd: "/work/proj" };

/** `api(args)` of every call found. */
const calls = (language: CodeTokenLanguage, code: string, e: typeof env | undefined = env): string[] =>
  (findCalls(code, language, () => undefined, e) ?? []).map(
    (c) => `${c.api}(${c.args.map((a) => a ?? "?").join(", ")})`,
  );

describe("known values in interpreter code", () => {
  const cases: [CodeTokenLanguage, string, string][] = [
    ["python", "import os, shutil; shutil.rmtree(os.path.expanduser('~'))", "shutil.rmtree(/home/u)"],
    ["python", "import os, shutil; shutil.rmtree(os.path.expanduser('~/.cache'))", "shutil.rmtree(/home/u/.cache)"],
    ["python", "import os, shutil; shutil.rmtree(os.environ['HOME'])", "shutil.rmtree(/home/u)"],
    ["python", "import os, shutil; shutil.rmtree(os.environ.get('HOME'))", "shutil.rmtree(/home/u)"],
    ["python", "import os, shutil; shutil.rmtree(os.getenv('HOME', '/'))", "shutil.rmtree(/home/u)"],
    ["python", "import shutil; from pathlib import Path; shutil.rmtree(Path.home())", "shutil.rmtree(/home/u)"],
    ["python", "import shutil; from pathlib import Path; shutil.rmtree(str(Path.home()))", "shutil.rmtree(/home/u)"],
    ["python", "import os, shutil; shutil.rmtree(os.getcwd())", "shutil.rmtree(/work/proj)"],
    ["python", "import os, shutil; shutil.rmtree(os.path.abspath('.'))", "shutil.rmtree(/work/proj)"],
    [
      "python",
      "from os import path; import shutil; shutil.rmtree(path.join(path.expanduser('~'), 'x'))",
      "shutil.rmtree(/home/u/x)",
    ],
    ["python", "import shutil; p = '/srv'; shutil.rmtree(p)", "shutil.rmtree(/srv)"],
    ["python", "import shutil\np = '/srv'\nshutil.rmtree(p)", "shutil.rmtree(/srv)"],
    [
      "python",
      "import os, shutil; h = os.path.expanduser('~'); shutil.rmtree(os.path.join(h, 'y'))",
      "shutil.rmtree(/home/u/y)",
    ],
    ["node", "require('fs').rmSync(require('os').homedir(), {recursive: true})", "fs.rmSync(/home/u)"],
    ["node", "const os = require('node:os'); require('fs').rmSync(os.homedir())", "fs.rmSync(/home/u)"],
    ["node", "require('fs').rmSync(process.env.HOME)", "fs.rmSync(/home/u)"],
    ["node", "require('fs').rmSync(process.env['HOME'])", "fs.rmSync(/home/u)"],
    ["node", "require('fs').rmSync(require('path').resolve('dist'))", "fs.rmSync(/work/proj/dist)"],
    ["node", "const p = '/srv'; require('fs').rmSync(p)", "fs.rmSync(/srv)"],
    ["node", "Deno.removeSync(Deno.env.get('HOME'))", "Deno.removeSync(/home/u)"],
    ["ruby", "require 'fileutils'; FileUtils.rm_rf(Dir.home)", "FileUtils.rm_rf(/home/u)"],
    ["ruby", "require 'fileutils'; FileUtils.rm_rf(ENV['HOME'])", "FileUtils.rm_rf(/home/u)"],
    ["ruby", "require 'fileutils'; FileUtils.rm_rf(File.expand_path('~/x'))", "FileUtils.rm_rf(/home/u/x)"],
    ["perl", "use File::Path; rmtree($ENV{HOME})", "File::Path::rmtree(/home/u)"],
    ["perl", "use File::Path; my $d = '/srv'; rmtree($d)", "File::Path::rmtree(/srv)"],
    ["python", "import base64, os; os.system(base64.b64decode('Z2l0IHN0YXR1cw==').decode())", "os.system(git status)"],
    ["python", "import os, shutil; shutil.rmtree(tempfile.gettempdir())", "shutil.rmtree(/tmp)"],
    ["python", "import shutil, tempfile; shutil.rmtree(tempfile.mkdtemp())", "shutil.rmtree(/tmp/tmpXXXXXXXX)"],
    [
      "node",
      "const fs = require('fs'); fs.rmSync(fs.mkdtempSync(require('path').join(require('os').tmpdir(), 'x-')))",
      "fs.rmSync(/tmp/x-XXXXXX)",
    ],
    ["node", "require('child_process').execSync(atob('Z2l0IHN0YXR1cw=='))", "child_process.execSync(git status)"],
    [
      "node",
      "require('child_process').execSync(Buffer.from('Z2l0IHN0YXR1cw==', 'base64').toString('utf8'))",
      "child_process.execSync(git status)",
    ],
    ["ruby", "system(Base64.decode64('Z2l0IHN0YXR1cw=='))", "system(git status)"],
    ["php", "system(base64_decode('Z2l0IHN0YXR1cw=='));", "system(git status)"],
  ];
  it.each(cases)("%s: %s", (language, code, call) => {
    expect(calls(language, code)).toEqual([call]);
  });

  const unknown: [CodeTokenLanguage, string][] = [
    // other variables of the environment, values assigned twice, expressions, no environment given
    ["python", "import os, shutil; shutil.rmtree(os.environ['TARGET'])"],
    ["node", "require('fs').rmSync(process.env.TARGET)"],
  ];
  it.each(unknown)("%s: %s stays unknown", (language, code) => {
    expect(calls(language, code)).toEqual([expect.stringMatching(/\(\?\)$/)]);
  });

  it("follows assignments flow by flow: the last one holds, a branch leaves each value, a part stays a pattern", () => {
    expect(calls("python", "import shutil; p = '/a'; p = '/b'; shutil.rmtree(p)")).toEqual(["shutil.rmtree(/b)"]);
    expect(calls("python", "import shutil; p = '/a' if x else '/b'; shutil.rmtree(p)")).toEqual([
      "shutil.rmtree(/a, /b)",
    ]);
    expect(calls("python", "import shutil; p = '/a' + x; shutil.rmtree(p)")).toEqual(["shutil.rmtree(/a*)"]);
  });

  it("without the environment, leaves the home as `~` for the policy", () => {
    const found = findCalls("import os, shutil; shutil.rmtree(os.path.expanduser('~'))", "python", () => undefined);
    expect(found?.map((c) => c.args)).toEqual([["~"]]);
  });

  it("fills interpolated strings whose holes are known", () => {
    expect(calls("node", "require('child_process').execSync(`ls ${require('os').homedir()}/x`)")).toEqual([
      "child_process.execSync(ls /home/u/x)",
    ]);
    expect(calls("node", "const d = 'src'; require('child_process').execSync(`ls ${d}`)")).toEqual([
      "child_process.execSync(ls src)",
    ]);
    expect(calls("python", "import os; h = os.path.expanduser('~'); os.system(f'ls {h}')")).toEqual([
      "os.system(ls /home/u)",
    ]);
    // conversions, format specs and unknown holes stay unknown: a variable the shell does not know
    expect(calls("python", "import os; os.system(f'ls {h!r}')")).toEqual(["os.system(ls ${LANES_CODE_VALUE})"]);
    expect(calls("node", "require('child_process').execSync(`ls ${x}`)")).toEqual([
      "child_process.execSync(ls ${LANES_CODE_VALUE})",
    ]);
    // inside single quotes no variable expands: the command is not known
    expect(calls("python", 'import os, sys; os.system("echo \'" + sys.argv[1] + "\'")')).toEqual(["os.system(?)"]);
  });

  it("reads Deno.Command and Deno.run argv", () => {
    expect(calls("node", "new Deno.Command('git', { args: ['status', '-s'] }).outputSync()")).toEqual([
      "Deno.Command(git, status, -s)",
    ]);
    expect(calls("node", "Deno.run({ cmd: ['git', 'status'] })")).toEqual(["Deno.run(git, status)"]);
  });

  it("uses the walk's home and working directory", () => {
    const a = analyze("cd /srv && python3 -c 'import os, shutil; shutil.rmtree(os.getcwd())'");
    expect(a.calls.map((c) => c.args)).toEqual([["/srv"]]);
  });
});
