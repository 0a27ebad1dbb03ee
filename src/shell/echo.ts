/**
 * What `echo` and `printf` print for static arguments, so `echo 'rm -rf /' | bash` and
 * `printf 'rm -rf /\n' | sh` are seen as literal code. Anything beyond the common forms
 * (`printf` conversions other than `%s`, `%b`, `%d`, `%%`) returns `undefined`.
 */

const ESCAPES: Readonly<Record<string, string>> = {
  n: "\n",
  t: "\t",
  r: "\r",
  "\\": "\\",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  e: "\x1b",
  '"': '"',
  "'": "'",
};

/** Decodes backslash escapes as `echo -e` and printf formats do; `\c` ends the output. */
function decode(text: string): { out: string; stop: boolean } {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c !== "\\" || i + 1 >= text.length) {
      out += c;
      continue;
    }
    const n = text[i + 1] as string;
    if (n === "c") return { out, stop: true };
    if (n in ESCAPES) {
      out += ESCAPES[n] as string;
      i++;
    } else if (n === "0" || n === "x") {
      let j = i + 2;
      const digits = n === "0" ? "01234567" : "0123456789abcdefABCDEF";
      while (j < text.length && j < i + 5 && digits.includes(text[j] as string)) j++;
      const code = text.slice(i + 2, j);
      out += code.length === 0 ? "\0" : String.fromCharCode(parseInt(code, n === "0" ? 8 : 16));
      i = j - 1;
    } else out += c;
  }
  return { out, stop: false };
}

/** `echo` output for static arguments (bash builtin semantics: leading `-n`, `-e`, `-E` flags). */
export function echoOutput(args: readonly string[]): string {
  let newline = true;
  let escapes = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] as string;
    if (a.length < 2 || !a.startsWith("-") || ![...a.slice(1)].every((c) => c === "n" || c === "e" || c === "E")) break;
    for (const c of a.slice(1)) {
      if (c === "n") newline = false;
      else escapes = c === "e";
    }
  }
  const text = args.slice(i).join(" ");
  if (!escapes) return newline ? `${text}\n` : text;
  const { out, stop } = decode(text);
  return newline && !stop ? `${out}\n` : out;
}

/** `printf FORMAT ARGS...` output, or `undefined` for conversions lanes does not emulate. */
export function printfOutput(args: readonly string[]): string | undefined {
  const [format, ...rest] = args;
  if (format === undefined) return undefined;
  let out = "";
  let next = 0;
  // bash reuses the format while arguments remain
  for (let round = 0; round < 64; round++) {
    let consumed = false;
    for (let i = 0; i < format.length; i++) {
      const c = format[i] as string;
      if (c === "\\") {
        const n = format[i + 1];
        if (n !== undefined && n >= "1" && n <= "7") {
          // the format's own `\NNN`: one to three octal digits (`printf '\162\155'`)
          let end = i + 1;
          while (end < format.length && end < i + 4 && (format[end] as string) >= "0" && (format[end] as string) <= "7")
            end++;
          out += String.fromCharCode(parseInt(format.slice(i + 1, end), 8));
          i = end - 1;
          continue;
        }
        let end = i + 2;
        if (n === "0" || n === "x") {
          const digits = n === "0" ? "01234567" : "0123456789abcdefABCDEF";
          while (end < format.length && end < i + (n === "0" ? 5 : 4) && digits.includes(format[end] as string)) end++;
        }
        const { out: piece, stop } = decode(format.slice(i, end));
        out += piece;
        if (stop) return out;
        i = end - 1;
        continue;
      }
      if (c !== "%") {
        out += c;
        continue;
      }
      const conv = format[i + 1];
      i++;
      if (conv === "%") out += "%";
      else if (conv === "s" || conv === "d") {
        out += rest[next++] ?? (conv === "d" ? "0" : "");
        consumed = true;
      } else if (conv === "b") {
        const { out: piece, stop } = decode(rest[next++] ?? "");
        out += piece;
        consumed = true;
        if (stop) return out;
      } else return undefined;
    }
    if (!consumed || next >= rest.length) return out;
  }
  return out;
}
