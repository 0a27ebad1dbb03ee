/**
 * A reader of Rakefiles for what `rake TASK` runs: `task` (and `file`, `multitask`) definitions
 * with their prerequisites (`task build: [:clean]`, `task :build => :clean`) and `do ... end` or
 * `{ ... }` bodies, `namespace` blocks (`db:drop`), the `default` task, and the code outside tasks
 * (run when rake loads the file). Blocks are found by their indentation, as Rakefiles are written.
 */
import { cached } from "./cache.ts";

/** One task: its prerequisites, its body (Ruby) and the line the body starts on. */
export interface RakeTask {
  readonly name: string;
  readonly deps: readonly string[];
  readonly body: string;
  readonly line: number;
}

export interface Rakefile {
  readonly tasks: ReadonlyMap<string, RakeTask>;
  /** The code outside tasks and namespaces, with the line it starts on. */
  readonly top: string;
}

const HEADER =
  /^(\s*)(?:task|file|multitask|rule)\s*\(?\s*(?::([\w?!]+)|["']([^"']+)["']|([\w?!]+):(?!:))\s*(?:(?:=>|,)?\s*(\[[^\]]*\]|:[\w?!]+|["'][^"']*["']))?/;
const NAMESPACE = /^(\s*)namespace\s*\(?\s*(?::([\w?!]+)|["']([^"']+)["'])\s*\)?\s*do\b/;

/** The names in a prerequisite list (`[:a, "b"]`, `:a`). */
function names(text: string | undefined): string[] {
  if (text === undefined) return [];
  return [...text.matchAll(/:([\w?!]+)|["']([^"']+)["']/g)].map((m) => (m[1] ?? m[2]) as string);
}

/** Reads a Rakefile's tasks (cached by content). */
export function readRakefile(text: string): Rakefile {
  return cached("rakefile", text, () => {
    const lines = text.split("\n");
    const tasks = new Map<string, RakeTask>();
    const top: string[] = [];
    const spaces: { indent: number; name: string }[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i] as string;
      const indent = (/^\s*/.exec(line) as RegExpExecArray)[0].length;
      // the `end` of a namespace
      if (/^\s*end\b/.test(line) && spaces.length > 0 && indent <= (spaces.at(-1)?.indent ?? -1)) {
        spaces.pop();
        top.push("");
        continue;
      }
      const ns = NAMESPACE.exec(line);
      if (ns !== null) {
        spaces.push({ indent, name: (ns[2] ?? ns[3]) as string });
        continue;
      }
      const header = HEADER.exec(line);
      if (header === null) {
        if (line.trim() !== "" && !/^\s*(desc|end)\b/.test(line)) top.push(line);
        else top.push("");
        continue;
      }
      const name = [...spaces.map((s) => s.name), (header[2] ?? header[3] ?? header[4]) as string].join(":");
      const rest = line.slice(header[0].length);
      // a hash's value after `name:` (`task build: %i[clean]` aside)
      const deps = names(header[5] ?? /^\s*(\[[^\]]*\]|:[\w?!]+)/.exec(rest)?.[1] ?? undefined);
      const body: string[] = [];
      const start = i + 2;
      if (/\bdo\b(\s*\|[^|]*\|)?\s*(#.*)?$/.test(line)) {
        while (i + 1 < lines.length) {
          const next = lines[i + 1] as string;
          const nextIndent = (/^\s*/.exec(next) as RegExpExecArray)[0].length;
          i++;
          if (nextIndent <= indent && /^\s*end\b/.test(next)) break;
          body.push(next);
        }
      } else if (/\{\s*(\|[^|]*\|)?(.*)\}\s*$/.test(rest))
        body.push((/\{\s*(?:\|[^|]*\|)?(.*)\}\s*$/.exec(rest)?.[1] ?? "") as string);
      const previous = tasks.get(name);
      // a task defined twice runs both bodies, with every prerequisite
      tasks.set(name, {
        name,
        deps: [...(previous?.deps ?? []), ...deps],
        body: previous === undefined ? body.join("\n") : `${previous.body}\n${body.join("\n")}`,
        line: previous?.line ?? start,
      });
      top.push("");
    }
    return { tasks, top: top.join("\n") };
  });
}
