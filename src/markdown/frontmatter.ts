/**
 * The only importer of gray-matter. Its defaults are unsafe for markdown lanes did not write
 * (memory files, user definitions): `---js` frontmatter is `eval`ed, calls without options share a
 * content-keyed cache whose `data` objects are mutable, and YAML goes through js-yaml 3 instead of
 * the `yaml` package the rest of lanes uses. Passing explicit engines fixes all three.
 */
import matter from "gray-matter";
import YAML from "yaml";

const refuse = (language: string) => () => {
  throw new Error(`\`${language}\` frontmatter is not accepted: use YAML between \`---\` lines`);
};

const OPTIONS = {
  language: "yaml",
  engines: {
    yaml: {
      parse: (text: string): object => {
        const value: unknown = YAML.parse(text, { prettyErrors: true, strict: true, uniqueKeys: true });
        return value === null || value === undefined ? {} : (value as object);
      },
      stringify: (data: object): string => YAML.stringify(data),
    },
    javascript: refuse("javascript"),
    js: refuse("js"),
    coffee: refuse("coffee"),
    cson: refuse("cson"),
    json: refuse("json"),
  },
};

/** Parsed frontmatter: `data` is unvalidated; pass it through a zod schema. */
export interface Frontmatter {
  readonly data: unknown;
  /** The markdown after the closing `---`. */
  readonly body: string;
  /** True when the text started with a frontmatter block. */
  readonly present: boolean;
}

export type FrontmatterResult = { ok: true; value: Frontmatter } | { ok: false; message: string };

/** Parses YAML frontmatter with locked-down options. Never evaluates code; never throws. */
export function parseFrontmatter(text: string): FrontmatterResult {
  try {
    const file = matter(text, OPTIONS as unknown as Parameters<typeof matter>[1]);
    const present = text.startsWith("---");
    const data: unknown = file.data;
    if (present && (typeof data !== "object" || data === null || Array.isArray(data))) {
      return { ok: false, message: "frontmatter must be a YAML mapping of keys to values" };
    }
    return { ok: true, value: { data, body: file.content, present } };
  } catch (error) {
    const message = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    return { ok: false, message: message.charAt(0).toLowerCase() + message.slice(1) };
  }
}

/**
 * Renders `---\n<yaml>---\n<body>` deterministically (keys in the order given, `\n` line ends,
 * trailing newline). Used for files lanes writes; it does not go through gray-matter.
 */
export function renderFrontmatter(data: Record<string, unknown>, body: string): string {
  const yaml = YAML.stringify(data, { lineWidth: 0 });
  const text = `---\n${yaml}---\n${body.startsWith("\n") ? body : `\n${body}`}`;
  return text.endsWith("\n") ? text : `${text}\n`;
}
