/**
 * Editing JSON as text, so that lanes' edits to a user's `.claude/settings.json` touch only the
 * bytes they add: `lanes init` inserts its hook groups, `lanes uninstall` cuts exactly those spans,
 * and everything else (key order, indentation, spacing) stays byte-identical.
 *
 * A small parser records where every value starts and ends; edits are splices at those offsets:
 * a new member or item goes after the last one as `,\n<indent><value>`, and removing a member or
 * item cuts from the end of the one before it (or up to the start of the next one when it is
 * first), which undoes such an insert exactly.
 */

export type JsonNode =
  | {
      readonly kind: "object";
      readonly start: number;
      readonly end: number;
      readonly members: readonly { readonly key: string; readonly keyStart: number; readonly value: JsonNode }[];
    }
  | { readonly kind: "array"; readonly start: number; readonly end: number; readonly items: readonly JsonNode[] }
  | { readonly kind: "scalar"; readonly start: number; readonly end: number };

/** Parses `text` (strict JSON) into positioned nodes; throws a SyntaxError when it is not JSON. */
export function parseJsonText(text: string): JsonNode {
  JSON.parse(text);
  let i = 0;
  const ws = () => {
    while (i < text.length && " \t\r\n".includes(text[i]!)) i++;
  };
  const str = (): string => {
    const start = i;
    i++;
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (): JsonNode => {
    ws();
    const start = i;
    const c = text[i];
    if (c === "{") {
      i++;
      const members: { key: string; keyStart: number; value: JsonNode }[] = [];
      ws();
      if (text[i] === "}") return { kind: "object", start, end: ++i, members };
      for (;;) {
        ws();
        const keyStart = i;
        const key = str();
        ws();
        i++; // :
        members.push({ key, keyStart, value: value() });
        ws();
        if (text[i++] === "}") return { kind: "object", start, end: i, members };
      }
    }
    if (c === "[") {
      i++;
      const items: JsonNode[] = [];
      ws();
      if (text[i] === "]") return { kind: "array", start, end: ++i, items };
      for (;;) {
        items.push(value());
        ws();
        if (text[i++] === "]") return { kind: "array", start, end: i, items };
      }
    }
    if (c === '"') {
      str();
      return { kind: "scalar", start, end: i };
    }
    while (i < text.length && !",}] \t\r\n".includes(text[i]!)) i++;
    return { kind: "scalar", start, end: i };
  };
  return value();
}

/** The indentation unit of a file (from its first indented line), default two spaces. */
export function indentUnit(text: string): string {
  const match = /\n([ \t]+)\S/.exec(text);
  return match?.[1] ?? "  ";
}

/** The whitespace at the start of the line holding `offset`. */
function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  let end = lineStart;
  while (end < text.length && (text[end] === " " || text[end] === "\t")) end++;
  return text.slice(lineStart, end);
}

/** `value` as JSON indented with `unit`, continued lines starting at `base`. */
export function renderValue(value: unknown, unit: string, base: string): string {
  return JSON.stringify(value, null, unit).split("\n").join(`\n${base}`);
}

const splice = (text: string, from: number, to: number, insert: string): string =>
  text.slice(0, from) + insert + text.slice(to);

/** Adds `"key": value` as the last member of `obj`. */
export function addMember(
  text: string,
  obj: Extract<JsonNode, { kind: "object" }>,
  key: string,
  value: unknown,
): string {
  const unit = indentUnit(text);
  const outer = lineIndent(text, obj.start);
  const last = obj.members.at(-1);
  const indent = last === undefined ? outer + unit : lineIndent(text, last.keyStart);
  const member = `${JSON.stringify(key)}: ${renderValue(value, unit, indent)}`;
  if (last === undefined) return splice(text, obj.start + 1, obj.end - 1, `\n${indent}${member}\n${outer}`);
  return splice(text, last.value.end, last.value.end, `,\n${indent}${member}`);
}

/** Adds `value` as the last item of `arr`. */
export function addItem(text: string, arr: Extract<JsonNode, { kind: "array" }>, value: unknown): string {
  const unit = indentUnit(text);
  const outer = lineIndent(text, arr.start);
  const last = arr.items.at(-1);
  const indent = last === undefined ? outer + unit : lineIndent(text, last.start);
  const item = renderValue(value, unit, indent);
  if (last === undefined) return splice(text, arr.start + 1, arr.end - 1, `\n${indent}${item}\n${outer}`);
  return splice(text, last.end, last.end, `,\n${indent}${item}`);
}

/** Removes the `index`-th element (member value span or item) of a container, with its separator. */
function removeAt(
  text: string,
  container: { start: number; end: number },
  spans: readonly { start: number; end: number }[],
  index: number,
): string {
  const span = spans[index]!;
  if (index > 0) return splice(text, spans[index - 1]!.end, span.end, "");
  if (spans.length > 1) return splice(text, span.start, spans[1]!.start, "");
  return splice(text, container.start + 1, container.end - 1, "");
}

export function removeMember(text: string, obj: Extract<JsonNode, { kind: "object" }>, key: string): string {
  const index = obj.members.findIndex((m) => m.key === key);
  if (index === -1) return text;
  return removeAt(
    text,
    obj,
    obj.members.map((m) => ({ start: m.keyStart, end: m.value.end })),
    index,
  );
}

export function removeItem(text: string, arr: Extract<JsonNode, { kind: "array" }>, index: number): string {
  return removeAt(text, arr, arr.items, index);
}

/** The member `key` of an object node. */
export const memberOf = (node: JsonNode | undefined, key: string): JsonNode | undefined =>
  node?.kind === "object" ? node.members.find((m) => m.key === key)?.value : undefined;
