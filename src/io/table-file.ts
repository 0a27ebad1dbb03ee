/**
 * How a bundle reads an entry of its data file (`shell.tables`, written by scripts/build/tables.ts
 * `TableStore`): `<offset>,<length>` read from the file beside the bundle, through one descriptor
 * opened on the first lookup, after checking that the file's header names the content the bundle
 * was built with. A file that is missing, another build's or cut short is an install error
 * (`LanesInstallError`), never a misread. Nothing in src/ imports this module; the build's
 * generated reader module does, with the header of the file it wrote.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { join } from "node:path";

/** The entry reader of the data file `shell.tables` in `dir`, whose first line must be `header`. */
export function tableFileReader(header: string, dir: string): (where: string) => string {
  const file = join(dir, "shell.tables");
  let fd: number | undefined;
  const broken = (what: string): Error => {
    const error = new Error(`lanes: \`${file}\` ${what}; reinstall lanes (\`lanes init\`)`);
    error.name = "LanesInstallError";
    return error;
  };
  const open = (): number => {
    let opened: number;
    try {
      opened = openSync(file, "r");
    } catch (error) {
      throw broken(`cannot be read (${(error as NodeJS.ErrnoException | undefined)?.code})`);
    }
    const head = Buffer.alloc(header.length);
    if (readSync(opened, head, 0, head.length, 0) !== head.length || head.toString("latin1") !== header) {
      closeSync(opened);
      throw broken("is not the data of the shell analysis beside it");
    }
    return opened;
  };
  return (where) => {
    fd ??= open();
    const comma = where.indexOf(",");
    const at = header.length + Number(where.slice(0, comma));
    const length = Number(where.slice(comma + 1));
    const bytes = Buffer.allocUnsafe(length);
    let n = 0;
    for (let r; n < length && (r = readSync(fd, bytes, n, length - n, at + n)) > 0;) n += r;
    if (n !== length) throw broken("is shorter than the shell analysis expects");
    return bytes.toString("latin1", 0, n);
  };
}
