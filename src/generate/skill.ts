/**
 * Renders a skill definition into `SKILL.md`: Claude Code frontmatter, then a body with the
 * identity, the HANDOFF PROTOCOL, the domain, the procedure, patterns and sharp edges, and the
 * "Context from previous skill" section that receives the invocation's arguments (`$ARGUMENTS`:
 * the text after `/<id>`, or the Skill tool's `args`). Pure and deterministic.
 */
import { runsInMain } from "../definitions/phases.ts";
import { offersLearnings, type SkillDefinition, type SkillHandoff } from "../definitions/skill.ts";
import { renderFrontmatter } from "../markdown/frontmatter.ts";
import { agentRef, cliCommand, expandPlaceholders, generatedMarker, skillRef, type RenderContext } from "./context.ts";
import { DEFAULT_CONTEXT_LIMIT } from "./handoff-context.ts";
import { sortedHandoffs, triggerAlternatives } from "./handoff.ts";
import { bullets, joinSections, numbered, sentence, table } from "./markdown.ts";

/** What a skill's render needs to know about another skill. */
export interface SkillSummary {
  /** Display name. */
  readonly name: string;
  /** False for a user-only skill: handoffs to it ask the user to run it. */
  readonly model_invocable: boolean;
}

/** A render context that knows the other skills (display names, who may be model-invoked). */
export interface SkillRenderContext extends RenderContext {
  /** Every skill of the set by id; without it, targets are shown by id and treated as model-invocable. */
  readonly skills?: ReadonlyMap<string, SkillSummary>;
  /** Whether each agent of the set can write its own memory file (`writesOwnMemory`); unknown agents are assumed to. */
  readonly agentsWritingMemory?: ReadonlyMap<string, boolean>;
}

/** The frontmatter keys of a skill, in the order they are written. Claude Code keys only. */
export function skillFrontmatter(def: SkillDefinition): Record<string, unknown> {
  const data: Record<string, unknown> = {
    name: def.id,
    description: def.description.trim(),
    "argument-hint": def.argument_hint ?? "[context from the previous skill]",
  };
  if (def.allowed_tools !== undefined) data["allowed-tools"] = def.allowed_tools.join(", ");
  if (!def.model_invocable) data["disable-model-invocation"] = true;
  if (!def.user_invocable) data["user-invocable"] = false;
  return data;
}

/** The frontmatter block as written, `---` lines included (Claude Code reads at most 1024 characters of it). */
export function renderSkillFrontmatter(def: SkillDefinition): string {
  return renderFrontmatter(skillFrontmatter(def), "").trimEnd();
}

/** Renders `skills/<id>/SKILL.md`. */
export function renderSkill(def: SkillDefinition, ctx: SkillRenderContext): string {
  const x = (text: string) => expandPlaceholders(text, ctx, "skill");
  const body = joinSections([
    generatedMarker(ctx, "skill", def.id),
    `# ${def.name}`,
    x(def.identity),
    renderProtocol(def, ctx),
    renderDomain(def, ctx),
    def.settings.length === 0
      ? undefined
      : `## Settings\n\nUse these values unless the user or the handoff context sets others:\n\n${table(
          ["Setting", "Value", "What it controls"],
          def.settings.map((st) => [
            `\`${st.name}\``,
            `\`${String(st.value)}\`${
              st.choices !== undefined
                ? ` (or ${st.choices
                    .filter((c) => c !== st.value)
                    .map((c) => `\`${c}\``)
                    .join(", ")})`
                : ""
            }`,
            x(st.description),
          ]),
        )}`,
    def.steps === undefined ? undefined : `## Steps\n\n${numbered(def.steps.map(x))}`,
    def.phases === undefined ? undefined : renderPhases(def, ctx),
    def.output === undefined ? undefined : `## Output\n\n${x(def.output)}`,
    def.patterns.length === 0
      ? undefined
      : `## Patterns\n\n${bullets(def.patterns.map((p) => `**${p.name}**: ${sentence(x(p.description))}`))}`,
    def.anti_patterns.length === 0
      ? undefined
      : `## Anti-patterns\n\n${bullets(def.anti_patterns.map((p) => `**${p.name}**: ${sentence(x(p.why))} Instead: ${sentence(x(p.instead))}`))}`,
    def.sharp_edges.length === 0
      ? undefined
      : `## Sharp edges\n\n${bullets(def.sharp_edges.map((e) => `**${e.name}**: ${sentence(x(e.detail))} Fix: ${sentence(x(e.fix))}`))}`,
    def.references.length === 0
      ? undefined
      : `## References\n\nRead these only when you need them:\n\n${bullets(def.references.map((r) => `\`\${CLAUDE_SKILL_DIR}/references/${r.file}\`: ${sentence(x(r.when))}`))}`,
    def.resources.length === 0
      ? undefined
      : `## Resources\n\nIn \`\${CLAUDE_SKILL_DIR}/resources/\`; pass their paths to the phase's agent:\n\n${bullets(def.resources.map((r) => `\`\${CLAUDE_SKILL_DIR}/resources/${r.file}\`: ${sentence(x(r.when))}`))}`,
    renderIncomingContext(def),
  ]);
  return renderFrontmatter(skillFrontmatter(def), body);
}

function targetName(ctx: SkillRenderContext, id: string): string {
  return ctx.skills?.get(id)?.name ?? id;
}

function isUserOnly(ctx: SkillRenderContext, id: string): boolean {
  return ctx.skills?.get(id)?.model_invocable === false;
}

function handoffRow(h: SkillHandoff, ctx: SkillRenderContext): string[] {
  const target = `\`${skillRef(ctx, h.to)}\`${isUserOnly(ctx, h.to) ? " (user-only)" : ""}`;
  const except =
    h.exclude_from.length === 0
      ? ""
      : ` (not when you came from ${h.exclude_from.map((s) => `\`${skillRef(ctx, s)}\``).join(", ")})`;
  return [triggerAlternatives(h.trigger).join(", "), `${target}${except}`, h.why, `"${h.context_template.trim()}"`];
}

function renderProtocol(def: SkillDefinition, ctx: SkillRenderContext): string {
  const self = skillRef(ctx, def.id);
  const cli = cliCommand(ctx, "skill");
  const handoffs = sortedHandoffs(def.handoffs);
  const anyUserOnly = handoffs.some((h) => isUserOnly(ctx, h.to));
  const parts = [
    "## Handoff protocol",
    `You are **${def.name}** (\`${self}\`). Check every user message against your lane before you answer: clearly your domain, answer it; ${
      handoffs.length > 0
        ? "matches a row below, hand off"
        : "another specialist's topic (see *Not yours* below), hand off"
    }; unsure, ask "This touches on <topic>: general guidance from me, or <specialist> for depth?" and follow the answer.`,
  ];
  if (handoffs.length > 0) {
    parts.push(
      table(
        ["Topic (any of)", "Hand off to", "Why", "Context starts with"],
        handoffs.map((h) => handoffRow(h, ctx)),
      ),
      "The first matching row wins (they are in priority order). Match whole words, any case.",
    );
    const typed = handoffs.filter((h) => h.type === "conditional" || h.require_approval === true);
    if (typed.length > 0)
      parts.push(
        `**Typed handoffs** (inter-skill protocol §3): add these options to the \`handoff\` command below and do what the terms it prints say:\n\n${bullets(
          typed.map((h) => {
            const options = [
              ...(h.type === "conditional"
                ? [
                    `--type conditional --proceed-if "${h.proceed_if!}"${h.fallback_to === undefined ? "" : ` --fallback-to ${h.fallback_to}`}`,
                  ]
                : []),
              ...(h.require_approval === true ? ["--require-approval"] : []),
            ].join(" ");
            const what = [
              ...(h.type === "conditional"
                ? [
                    `only if ${h.proceed_if!.replace(/\.$/, "")}; otherwise ${h.fallback_to === undefined ? "stay here and report why" : `hand off to \`${skillRef(ctx, h.fallback_to)}\` instead`}`,
                  ]
                : []),
              ...(h.require_approval === true
                ? [
                    `a checkpoint: first \`${cli} checkpoint save --skill ${def.id}\`, then ask the human to approve and wait for the answer before it starts`,
                  ]
                : []),
            ].join("; ");
            return `to \`${skillRef(ctx, h.to)}\`: \`${options}\`: ${what}.`;
          }),
        )}`,
      );
  }
  parts.push(
    `**To hand off:**\n\n${numbered([
      'Say: "This involves <topic>: bringing in <specialist>."',
      `Summarise what was built, the current state, the user's goal, decisions made and the next step, starting from the row's context. \`${cli} handoff --from ${def.id} --to <skill> --goal "…" --built "…" --state "…" --decision "…" --next "…"\` prints that summary (at most ${DEFAULT_CONTEXT_LIMIT} characters) and records it for the next agent: pass its output on. If it fails, write the same headings yourself.`,
      `Invoke the target with the summary as its argument: the Skill tool with \`skill: "<target>"\` and \`args: "<summary>"\`, or ask the user to run \`/<target> <summary>\`${anyUserOnly ? " (always so for a *user-only* target)" : ""}.`,
      "Stop answering in the other domain.",
    ])}`,
    `**Several domains in one message** (it matches more than one row): name each specialist in row order ("This involves two specialists: 1. <topic> → <skill>, 2. ..."), say you will take them one at a time, and hand off to the first with the others listed in \`--next\` ("then <skill> for <topic>"), so each specialist hands on to the next when its part is done and the context accumulates.`,
    "If the target skill is not available, say so and continue here with general knowledge.",
    '**Stay** without handing off when the topic is yours even if it touches another area lightly, when the user asks about your last answer or for a review of code in your domain, or says "stay with current", "don\'t switch" or "you handle it" (then note your limits). **Never hand back** to the *Previous skill* named in the context below unless the user asks.',
  );
  return parts.join("\n\n");
}

function renderDomain(def: SkillDefinition, ctx: SkillRenderContext): string {
  const x = (text: string) => expandPlaceholders(text, ctx, "skill");
  const parts = ["## Domain", `You are authoritative on:\n\n${bullets(def.owns.map(x))}`];
  if (def.does_not_own.length > 0)
    parts.push(
      `Not yours, hand off instead:\n\n${bullets(def.does_not_own.map((n) => `${x(n.topic)} → \`${skillRef(ctx, n.owner)}\``))}`,
    );
  const extras: string[] = [];
  if (def.pairs_with.length > 0)
    extras.push(
      `Works well with: ${def.pairs_with.map((id) => `\`${skillRef(ctx, id)}\` (${targetName(ctx, id)})`).join(", ")}.`,
    );
  if (def.requires.length > 0) extras.push(`Assumes: ${def.requires.map(x).join(", ")}.`);
  if (extras.length > 0) parts.push(extras.join(" "));
  return parts.join("\n\n");
}

function renderPhases(def: SkillDefinition, ctx: SkillRenderContext): string {
  const phases = def.phases ?? [];
  const cli = cliCommand(ctx, "skill");
  const noTool = (name: string) => ctx.agentsWritingMemory?.get(name) === false;
  const ref = (name: string) =>
    `\`${agentRef(ctx, name)}\`${noTool(name) ? " (report only: you write its memory file)" : ""}`;
  const agent = (p: (typeof phases)[number]) =>
    runsInMain(p)
      ? `main session (as \`${p.agent}\`)`
      : p.agent !== undefined
        ? ref(p.agent)
        : p.branches !== undefined
          ? p.branches.map(ref).join(", ")
          : "(lanes)";
  const reporters = [
    ...new Set(
      phases.flatMap((p) =>
        runsInMain(p) ? [] : [...(p.agent === undefined ? [] : [p.agent]), ...(p.branches ?? [])],
      ),
    ),
  ].filter(noTool);
  const detail = (p: (typeof phases)[number]) => {
    const extra: string[] = [];
    if (p.trigger !== undefined) extra.push(`runs when ${p.trigger}`);
    if (p.remediation_target !== undefined)
      extra.push(
        `on a failed gate back to ${p.remediation_target}${p.max_remediation !== undefined ? `, at most ${p.max_remediation} times` : ""}`,
      );
    if (p.max_iterations !== undefined) extra.push(`at most ${p.max_iterations} rounds`);
    if (p.script !== undefined) extra.push(`runs \`resources/${p.script}\` first`);
    return extra.length === 0 ? p.description : `${p.description} (${extra.join("; ")})`;
  };
  const args =
    def.arguments.length === 0
      ? ""
      : ` ${def.arguments.map((a) => `[--arg ${a.name}=${a.choices !== undefined ? a.choices.join("|") : "<value>"}]`).join(" ")}`;
  const argLines = def.arguments.map(
    (a) => `\`${a.name}\`: ${a.description}${a.default !== undefined ? ` (default \`${a.default}\`)` : ""}`,
  );
  return [
    "## Phases",
    "This is a composite skill: lanes runs it phase by phase and saves the state before every instruction, so an interrupted run resumes where it stopped.",
    table(
      ["Phase", "Title", "Type", "Who", "What it does", "Next"],
      phases.map((p) => [p.id, p.title, p.type, agent(p), detail(p), p.next ?? "done"]),
    ),
    ...(argLines.length === 0 ? [] : [`Arguments of \`phase start\`:\n\n${bullets(argLines)}`]),
    numbered([
      `Start: run \`${cli} phase start ${def.id}${args}\`. It saves the run and prints phase 0's instructions and a DIRECTIVE naming the task id and the run; pass \`--task <id>\` to every later call. Then run \`${cli} progress enter ${def.id}\` so the task context shows the skill (skip it when there is no workflow: it says so). Phase 0 always runs: clarification is never skipped.`,
      `Follow each DIRECTIVE. A phase marked *main session* you do yourself, in the conversation, where the human can answer (a subagent cannot ask them). For the others start the phase's agent with the Agent tool, passing the phase's instructions and the task id. Whoever does the phase finishes by writing the memory file exactly as the directive shows: \`${cli} memory write --task <id> --agent <name> --phase <phase> --run <run> --summary "…" --body-file -\`. ${
        reporters.length === 0
          ? "An agent without a tool to write files ends with its report instead"
          : `${reporters.map((r) => `\`${agentRef(ctx, r)}\``).join(", ")} ${reporters.length === 1 ? "has" : "have"} no tool to write files and end${reporters.length === 1 ? "s" : ""} with a report`
      }: you write that memory file from the report, recording yourself as the writer (\`--written-by main\`). The gate accepts a file written for an agent only when the agent cannot write one, and the guard lets nobody write the memory file of an agent that writes its own.`,
      `Subagents run in the background by default: wait for each one's completion notice before you advance.`,
      `Advance: \`${cli} phase advance ${def.id} --task <id>\` checks the memory files and prints the next phase. It passes only a file written for this phase of this run, by the phase's agent, after the phase started. Add \`--skip\` when an OPTIONAL phase's trigger does not hold, and \`--retry\` when a REMEDIATION or ITERATIVE phase's check fails; when it refuses, do what its message says.`,
      `Pausing or before a long phase: \`${cli} checkpoint save --skill ${def.id}\`. To continue in a new session: \`${cli} checkpoint resume <id>\`, then \`${cli} phase status ${def.id} --task <id>\` for the directive.`,
      `Finish: when every phase is done, run \`${cli} phase complete ${def.id} --task <id>\`, then \`${cli} progress leave ${def.id} --status success\`, and report the summary it printed${
        offersLearnings(def.id, def.on_complete ?? {})
          ? `. Then do what its LEARNINGS line says: ask the human whether to capture what the run taught with \`${skillRef(ctx, "develop-learnings")}\``
          : ""
      }.`,
    ]),
    `In what these commands print, \`lanes\` stands for \`${cli}\`${ctx.target === "plugin" ? " and agent names take the `lanes:` prefix" : ""}. Lost the directive? \`${cli} phase status ${def.id} --task <id>\` prints it again; \`${cli} phase list\` shows the runs; \`${cli} help phase\` lists the options.`,
  ].join("\n\n");
}

function renderIncomingContext(def: SkillDefinition): string {
  return [
    "## Context from previous skill",
    "$ARGUMENTS",
    `If nothing appears above, you were invoked directly: ask for the goal and what exists so far before you change anything${def.phases !== undefined ? ", then start phase 0" : ""}. Otherwise treat it as the handoff: do not redo work it lists as done, do not hand back to its *Previous skill*, and continue from *Continue from here*.`,
  ].join("\n\n");
}
