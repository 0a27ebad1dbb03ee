/**
 * Installing lanes into a scenario's repository the way a user does: the built CLI's `init`.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { REPO_ROOT, type TempRepo } from "./harness/index.ts";

/** Runs the built `lanes` CLI (`dist/cli.mjs`) with the scenario's HOME; throws on failure. */
export function lanes(repo: TempRepo, args: readonly string[]): string {
  const result = spawnSync(process.execPath, [join(REPO_ROOT, "dist", "cli.mjs"), ...args], {
    cwd: repo.dir,
    env: { PATH: process.env["PATH"] ?? "", HOME: repo.home },
    encoding: "utf8",
  });
  if (result.status !== 0)
    throw new Error(`lanes ${args.join(" ")} exited ${String(result.status)}:\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** `lanes init <repo>`. */
export function installLanes(repo: TempRepo, extra: readonly string[] = []): string {
  return lanes(repo, ["init", repo.dir, ...extra]);
}
