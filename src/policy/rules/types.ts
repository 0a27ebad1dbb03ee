/**
 * How built-in rules are written: plain data, compiled by the same compiler as `lanes.yaml`
 * (src/config/compile.ts). Ids are stable: tests, audit logs and users' `disable:` lists refer
 * to them, so an id never changes once shipped.
 */
import type { CommandMatch, PathMatch } from "../../schema/atoms.ts";
import type { PathClass } from "../../schema/vocabulary.ts";
import type { CodeExecution } from "../../shell/types.ts";
import type { AgentRunKind, GuardFormat, SendMatch, SqlMatch } from "../compiled.ts";
import type { Effect } from "../types.ts";

/**
 * Built-in path modes: `no-write` (writing or deleting counts, a mode change does not), `no-read`
 * (reading or running counts, nothing else), `no-list` (listing a directory's names counts) and
 * `no-share` (handing the content to a program that may show or send it counts).
 */
export type NoWritePathMatch = Omit<PathMatch, "access"> & {
  readonly access: "no-write" | "no-read" | "no-list" | "no-share";
};

interface RuleBase {
  readonly id: string;
  readonly effect: Effect;
  /** The effect for a subagent's call, when it differs (a subagent has no person to ask). */
  readonly subagentEffect?: Effect;
  /** The rule judges only subagents' calls (what a subagent may not do, the main session may). */
  readonly only?: "subagents";
  /** What the matched action would do, one lowercase clause. */
  readonly why: string;
  /** The safer alternative, one lowercase clause. */
  readonly instead: string;
}

export type RuleSpec = RuleBase &
  (
    | { readonly command: CommandMatch }
    | { readonly paths: PathMatch | NoWritePathMatch }
    | { readonly tools: readonly string[] }
    | { readonly delete: { readonly targets: readonly PathClass[]; readonly dynamic?: boolean; readonly filtered?: boolean } }
    | {
        readonly fileEffect: {
          readonly access: readonly ("write" | "delete" | "chmod" | "chown" | "link" | "hardlink")[];
          readonly targets: readonly PathClass[];
          /** `true`: only recursive effects count; `false`: only non-recursive ones. */
          readonly recursive?: boolean;
          readonly overwrite?: boolean;
          /** Only effects of shell commands count, not those of the file tools. */
          readonly shell?: boolean;
        };
      }
    | { readonly remoteCode: { readonly fetchers: readonly string[] } }
    | { readonly forkBomb: true }
    | {
        readonly pipe: {
          readonly from: readonly string[];
          readonly fromArgs?: readonly string[];
          readonly fromCodeExcept?: readonly CodeExecution["source"][];
          readonly to: readonly string[];
        };
      }
    | { readonly sql: SqlMatch }
    | { readonly send: SendMatch }
    | { readonly unrepresentable: true }
    | { readonly agentRun: { readonly runs: AgentRunKind } }
    | { readonly guardWrite: { readonly format: GuardFormat } }
    | { readonly deferred: { readonly kinds: readonly ("git-config" | "git-option")[] } }
  );
