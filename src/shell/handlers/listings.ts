/**
 * Listings of every container or Kubernetes object fed to a delete, the way `processes.ts` reads
 * process listings fed to `kill`: `docker rm -f $(docker ps -aq)`, `docker ps -aq | xargs docker rm`
 * remove every container, which the words say as `*`; `kubectl get ns -o name | xargs kubectl
 * delete` deletes every namespace, which `kubectl` itself spells `delete ns --all`; `git tag -l |
 * xargs git tag -d` deletes every tag. The listing passes on unnarrowed through `grep -v`, a column
 * of `awk`, `sort`, `cut`...; a loop over it (`for c in $(docker ps -aq)`, `docker ps -aq | while
 * read c`) hands each item to the body, the same as a substitution. A listing narrowed on the way
 * (`--filter`, a label selector, names, a tag pattern, `grep PATTERN`) is a run-time argument as before.
 */
import { detailedView } from "../detailed-view.ts";
import { PROCESS_PASS_THROUGH } from "../tables/programs.ts";
import type { ShellCommand } from "../types.ts";
import { synthetic, type ArgWord, type Invocation } from "../walk/context.ts";
import type { Walk } from "./contract.ts";

const CONTAINER_CLIS: readonly string[] = ["docker", "podman", "nerdctl", "finch"];
const KUBECTLS: readonly string[] = ["kubectl", "oc", "k", "kubecolor"];

/** What a listing prints every one of: containers, objects of a Kubernetes kind, git tags. */
type Listing =
  | { readonly kind: "containers" }
  | { readonly kind: "objects"; readonly resource: string }
  | { readonly kind: "tags" }
  | { readonly kind: "s3"; readonly bucket: string };

const AWS_CLIS: readonly string[] = ["aws", "awslocal", "aws.exe", "aws2"];

/** `aws s3 ls s3://BUCKET[/PREFIX]`: the objects of a bucket; its bucket (`undefined`: not such a listing). */
function s3Listing(c: ShellCommand): string | undefined {
  if (c.program === undefined || !AWS_CLIS.includes(c.program)) return undefined;
  const operands = detailedView("aws", c.args).operands.map((o) => o.word.value);
  if (operands[0] !== "s3" || operands[1] !== "ls" || operands.length !== 3) return undefined;
  return s3Bucket(operands[2]);
}

/** `s3://b/x` → `b`. */
function s3Bucket(url: string | undefined): string | undefined {
  if (url === undefined || !url.startsWith("s3://")) return undefined;
  const bucket = url.slice(5).split("/")[0];
  return bucket === undefined || bucket.length === 0 ? undefined : bucket;
}

/**
 * A command that passes a listing on without choosing items: `sort`, `cut`, `tr`... (the process
 * table's), `grep -v` (drops a few lines), `awk '{print $1}'` (a column, no pattern).
 */
export function passesOn(c: ShellCommand): boolean {
  switch (c.program) {
    case "grep":
    case "egrep":
    case "fgrep":
      return detailedView(c.program, c.args).flags.has("-v");
    case "awk":
    case "gawk":
    case "mawk": {
      const program = detailedView(c.program, c.args).operands[0]?.word.value?.replaceAll(" ", "");
      return program !== undefined && /^(NR>1)?\{print\$\d+\}$/.test(program);
    }
    default:
      return c.program !== undefined && PROCESS_PASS_THROUGH.includes(c.program);
  }
}

/** Options of `git tag` that change how tags are shown, not which. */
const TAG_LISTING: readonly string[] = [
  "-l",
  "--list",
  "-n",
  "--sort",
  "--format",
  "--column",
  "--no-column",
  "-i",
  "--ignore-case",
];
/** git's own options before the subcommand. */
const GIT_GLOBAL: readonly string[] = [
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--no-pager",
  "-P",
  "--paginate",
  "--bare",
];

/** `git tag`, `git for-each-ref refs/tags`, `git tag -l`/`--list` with no pattern and no selection (`--merged`, `--contains`, `--points-at`). */
function tagListing(c: ShellCommand): boolean {
  if (c.program !== "git") return false;
  const view = detailedView("git", c.args);
  const operands = view.operands.map((o) => o.word.value);
  const tags =
    (operands[0] === "tag" && operands.length === 1) ||
    (operands[0] === "for-each-ref" &&
      operands.length === 2 &&
      (operands[1] === "refs/tags" || operands[1] === "refs/tags/"));
  if (!tags) return false;
  const shown = [...TAG_LISTING, ...GIT_GLOBAL];
  return [...view.flags, ...view.values.keys()].every((f) => shown.includes(f));
}

const values = (c: ShellCommand): (string | undefined)[] => c.args.map((a) => a.value);

/** `docker ps [-a] [-q]`, `docker container ls|list|ps ...` with no `--filter`. */
function containerListing(c: ShellCommand): boolean {
  if (c.program === undefined || !CONTAINER_CLIS.includes(c.program)) return false;
  const argv = values(c);
  const sub = argv[0] === "container" ? argv[1] : argv[0];
  if (sub !== "ps" && !(argv[0] === "container" && (sub === "ls" || sub === "list"))) return false;
  return !argv.some((v) => v === undefined || v === "-f" || v.startsWith("--filter") || v.startsWith("-f="));
}

/** `kubectl get KIND -o name` with no names, selectors or field selectors: every object of the kind. */
function objectListing(c: ShellCommand): string | undefined {
  if (c.program === undefined || !KUBECTLS.includes(c.program)) return undefined;
  // `oc`, `k`, `kubecolor` take kubectl's options
  const view = detailedView("kubectl", c.args);
  const operands = view.operands.map((o) => o.word.value);
  if (operands[0] !== "get" || operands.length !== 2 || operands[1] === undefined) return undefined;
  const narrowed = ["-l", "--selector", "--field-selector"].some((o) => view.values.has(o) || view.flags.has(o));
  const argv = values(c);
  if (narrowed || argv.some((v) => v === undefined || v.startsWith("--selector=") || v.startsWith("-l=")))
    return undefined;
  return operands[1].includes(",") ? undefined : operands[1];
}

/** `docker stop`/`kill`/`start` print each container they act on (`docker ps -aq | xargs docker stop | xargs docker rm`). */
function echoesContainers(c: ShellCommand): boolean {
  if (c.program === undefined || !CONTAINER_CLIS.includes(c.program)) return false;
  const argv = values(c);
  const sub = argv[0] === "container" ? argv[1] : argv[0];
  return sub === "stop" || sub === "kill" || sub === "start" || sub === "restart";
}

/** What the commands producing a text list every one of, unnarrowed. */
function listingOf(w: Walk, producers: readonly number[]): Listing | undefined {
  let listing: Listing | undefined;
  for (const i of producers) {
    const c = w.command(i);
    if (c === undefined) return undefined;
    if (containerListing(c)) listing = { kind: "containers" };
    else if (tagListing(c)) listing = { kind: "tags" };
    else {
      const bucket = s3Listing(c);
      const resource = bucket === undefined ? objectListing(c) : undefined;
      if (bucket !== undefined) listing = { kind: "s3", bucket };
      else if (resource !== undefined) listing = { kind: "objects", resource };
      else if (!passesOn(c) && !echoesContainers(c)) return undefined;
    }
  }
  return listing;
}

/**
 * `inv` with every whole command substitution whose producers `every` recognises replaced by the
 * words it returns, and those words added when `xargs` feeds the command such a listing: the one
 * mechanism behind `kill $(ps -e -o pid=)` (processes.ts) and `docker rm -f $(docker ps -aq)`.
 */
export function replaceListings(
  w: Walk,
  inv: Invocation,
  every: (producers: readonly number[]) => readonly ArgWord[] | undefined,
): Invocation {
  let changed = false;
  const words = inv.words.flatMap((x): ArgWord[] => {
    const replaced = x.substitution === "command" ? every(x.producers) : undefined;
    if (replaced === undefined) return [x];
    changed = true;
    return [...replaced];
  });
  const { ctx } = inv;
  if (ctx.runtimeArgs && ctx.via.includes("xargs")) {
    const fed = every(ctx.stdin?.upstream ?? []);
    if (fed !== undefined) {
      changed = true;
      words.push(...fed);
    }
  }
  return changed ? { ...inv, words } : inv;
}

/** `git tag -d|--delete`, after global options (`git -C dir tag -d`). */
function deletesTags(inv: Invocation): boolean {
  if (inv.program !== "git" || !inv.words.some((x) => x.word.value === "tag")) return false;
  const view = detailedView(
    "git",
    inv.words.slice(1).map((x) => x.word),
  );
  return view.operands[0]?.word.value === "tag" && (view.flags.has("-d") || view.flags.has("--delete"));
}

/**
 * `aws s3 rm s3://B/{}` (xargs) or `aws s3 rm "s3://B/$k"` (a loop) fed the objects `aws s3 ls
 * s3://B/` lists: every object of the bucket, which `aws` spells `rm s3://B/ --recursive`.
 */
function removeEveryObject(w: Walk, inv: Invocation): Invocation {
  if (!inv.words.some((x) => x.word.value === "rm")) return inv;
  const view = detailedView(
    "aws",
    inv.words.slice(1).map((x) => x.word),
  );
  const operands = view.operands.map((o) => o.word);
  if (operands[0]?.value !== "s3" || operands[1]?.value !== "rm" || view.flags.has("--recursive")) return inv;
  const target = operands[2];
  const bucket = s3Bucket(target?.value ?? target?.known?.head);
  const at = inv.words.findIndex((x) => x.word === target);
  if (bucket === undefined || at < 0) return inv;
  const fed = inv.ctx.runtimeArgs && inv.ctx.via.includes("xargs") ? (inv.ctx.stdin?.upstream ?? []) : [];
  const from = [fed, (inv.words[at] as ArgWord).producers].find((p) => {
    const listing = p.length > 0 ? listingOf(w, p) : undefined;
    return listing?.kind === "s3" && listing.bucket === bucket;
  });
  if (from === undefined) return inv;
  const words = [...inv.words];
  words.splice(at, 1, synthetic(`s3://${bucket}/`), synthetic("--recursive"));
  return { ...inv, words };
}

/** `docker rm` / `docker container rm` / `kubectl delete` / `git tag -d` with the words that mean "every one". */
export function deleteEveryListed(w: Walk, inv: Invocation): Invocation {
  if (AWS_CLIS.includes(inv.program)) return removeEveryObject(w, inv);
  const argv = inv.words.map((x) => x.word.value);
  const docker =
    CONTAINER_CLIS.includes(inv.program) && (argv[1] === "rm" || (argv[1] === "container" && argv[2] === "rm"));
  const kube = KUBECTLS.includes(inv.program) && argv.includes("delete");
  const tags = deletesTags(inv);
  if (!docker && !kube && !tags) return inv;
  return replaceListings(w, inv, (producers) => {
    const listing = listingOf(w, producers);
    if (listing === undefined) return undefined;
    if (docker && listing.kind === "containers") return [synthetic("*")];
    if (kube && listing.kind === "objects") return [synthetic(listing.resource), synthetic("--all")];
    if (tags && listing.kind === "tags") return [synthetic("*")];
    return undefined;
  });
}
