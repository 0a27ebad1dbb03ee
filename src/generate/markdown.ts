/**
 * Small markdown helpers shared by the renderers. Pure.
 */

/** Escapes a table cell: pipes and line breaks. */
export function cell(text: string): string {
  return text
    .replace(/\|/g, "\\|")
    .replace(/\s*\n\s*/g, " ")
    .trim();
}

/** A markdown table with a header row. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(" | ")} |`;
  return [line(header), `|${header.map(() => "---").join("|")}|`, ...rows.map(line)].join("\n");
}

/** `- item` lines. */
export function bullets(items: readonly string[]): string {
  return items.map((item) => `- ${item.trim()}`).join("\n");
}

/** `1. item` lines. */
export function numbered(items: readonly string[]): string {
  return items.map((item, i) => `${i + 1}. ${item.trim()}`).join("\n");
}

/** Ensures a sentence ends with punctuation. */
export function sentence(text: string): string {
  const t = text.trim();
  return /[.!?:]["')`]*$/.test(t) ? t : `${t}.`;
}

/** Joins sections with one blank line and ends with exactly one newline. */
export function joinSections(sections: readonly (string | undefined)[]): string {
  return `${sections
    .filter((s): s is string => s !== undefined && s.trim() !== "")
    .map((s) => s.trim())
    .join("\n\n")}\n`;
}
