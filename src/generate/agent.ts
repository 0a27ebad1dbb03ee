/**
 * Renders an agent definition into `agents/<name>.md`: Claude Code frontmatter (name, description
 * with `<example>` blocks, tools, model, color), then "You are …", Core responsibilities, Process,
 * the lane (owns, not owned → owner, MUST NOT, handoffs) and the core protocols every agent follows
 * (progress file, documentation and confidence, response format, errors, handoff through
 * `next_step`), worded for the agent's role. Pure and deterministic.
 */
import { renderTaskProtocol } from "./task-protocol.ts";
import { writesOwnMemory } from "../policy/memory-lane.ts";
import type { AgentDefinition } from "../definitions/agent.ts";
import { renderFrontmatter } from "../markdown/frontmatter.ts";
import { DEFAULT_OPTIONS } from "../policy/compiled.ts";
import { agentRef, cliCommand, expandPlaceholders, generatedMarker, skillRef, type RenderContext } from "./context.ts";
import { bullets, joinSections, numbered } from "./markdown.ts";
import { CONSTRAINT_BLOCK_EXAMPLE } from "../policy/task-block.ts";

/** Consecutive denials after which an agent stops: the guard's `escalate_after` default. */
const ESCALATE_AFTER = DEFAULT_OPTIONS.escalateAfter;

/** The frontmatter keys of an agent, in the order they are written. Claude Code keys only. */
export function agentFrontmatter(def: AgentDefinition): Record<string, unknown> {
  const examples = def.examples.map((e) =>
    [
      "<example>",
      `Context: ${e.context.trim()}`,
      `user: "${e.user.trim()}"`,
      `assistant: "${e.assistant.trim()}"`,
      ...(e.commentary === undefined ? [] : ["<commentary>", e.commentary.trim(), "</commentary>"]),
      "</example>",
    ].join("\n"),
  );
  const data: Record<string, unknown> = {
    name: def.name,
    description: [def.description.trim(), ...examples].join("\n\n"),
  };
  if (def.tools.allowed !== undefined) data["tools"] = def.tools.allowed.join(", ");
  // Claude Code ignores disallowedTools when tools is set (reference C.2)
  else if (def.tools.forbidden !== undefined && def.tools.forbidden.length > 0)
    data["disallowedTools"] = def.tools.forbidden.join(", ");
  data["model"] = def.model;
  if (def.color !== undefined) data["color"] = def.color;
  return data;
}

/** Renders `agents/<name>.md`. */
export function renderAgent(def: AgentDefinition, ctx: RenderContext): string {
  const x = (text: string) => expandPlaceholders(text, ctx, "agent");
  const body = joinSections([
    generatedMarker(ctx, "agent", def.name),
    x(def.identity),
    `## Core responsibilities\n\n${bullets(def.responsibilities.map(x))}`,
    def.process === undefined ? undefined : `## Process\n\n${numbered(def.process.map(x))}`,
    renderLane(def, ctx),
    renderProtocols(def, ctx),
  ]);
  return renderFrontmatter(agentFrontmatter(def), body);
}

const code = (text: string) => `\`${text}\``;

/** An agent that owns nothing and has no shell cannot run the lanes CLI: it reports instead. */
/** What an agent without a tool to write files does at the end of a composite skill's phase. */
const NO_MEMORY_TOOL =
  "Inside a composite skill's phase you cannot write your memory file (you have no tool that writes files): end with your report, complete and self-contained; the one who started you writes the memory file from it and records itself as the writer (`--written-by`).";

const isReadOnly = (def: AgentDefinition): boolean =>
  def.owns.length === 0 && def.tools.allowed !== undefined && !def.tools.allowed.includes("Bash");

function renderLane(def: AgentDefinition, ctx: RenderContext): string {
  const x = (text: string) => expandPlaceholders(text, ctx, "agent");
  const parts = ["## Your lane"];
  if (def.owns.length === 0)
    parts.push(
      "You own no paths: you read, analyse and report. Never create, change or delete files, not even through the shell.",
    );
  else parts.push(`**Yours** to create, change and delete:\n\n${bullets(def.owns.map(code))}`);
  if (def.does_not_own.length > 0)
    parts.push(
      `**Not yours**, even where it looks like it, with the agent that owns it:\n\n${bullets(def.does_not_own.map((n) => `${code(n.path)} → ${code(agentRef(ctx, n.owner))}`))}`,
    );
  if (def.owns.length > 0)
    parts.push(
      "Anything outside these paths belongs to another agent or to the human: describe the change you need in your report instead of making it.",
    );
  if (def.must_not.length > 0)
    parts.push(
      `**You MUST NOT:**\n\n${bullets(def.must_not.map((r) => `${x(r.text.trim())}${r.id === undefined ? "" : ` (enforced: ${code(`agent.${def.name}.${r.id}`)})`}`))}`,
    );
  const tools: string[] = [];
  if (def.tools.forbidden !== undefined && def.tools.forbidden.length > 0)
    tools.push(`Never use ${def.tools.forbidden.map(code).join(", ")}.`);
  if (tools.length > 0) parts.push(tools.join(" "));
  const readOnly = isReadOnly(def);
  if (def.handoffs.length > 0) {
    const how =
      def.role === "orchestrator"
        ? "by starting the agent"
        : readOnly
          ? "by naming the owner in your report"
          : "through `next_step`, never directly";
    parts.push(
      `**Hand off** ${how}:\n\n${bullets(def.handoffs.map((h) => `to ${code(agentRef(ctx, h.to))} when ${x(h.when.trim()).replace(/\.$/, "")}`))}`,
    );
  }
  if (def.role === "orchestrator") {
    const spawn =
      def.may_spawn === undefined
        ? "any agent of the team"
        : def.may_spawn.map((n) => code(agentRef(ctx, n))).join(", ");
    const skills =
      def.may_invoke_skills === undefined || def.may_invoke_skills === true
        ? "any skill"
        : def.may_invoke_skills === false
          ? "no skill"
          : def.may_invoke_skills.map((s) => code(skillRef(ctx, s))).join(", ");
    parts.push(`You may start ${spawn} with the Agent tool, and use ${skills} through the Skill tool.`);
  }
  parts.push(
    `The lanes guard enforces this lane on every tool call. When a call is denied, read the reason and do not reach the same result another way (another tool, path or shell trick). ${
      def.role === "orchestrator"
        ? "Ask the human, or give the work to the agent that owns it."
        : readOnly
          ? "Put what you needed in your report for its owner."
          : "Record what you needed in `next_step` for its owner and let the orchestrator route it."
    } After ${ESCALATE_AFTER} denials in a row, stop and report what blocked you.`,
  );
  return parts.join("\n\n");
}

function renderProtocols(def: AgentDefinition, ctx: RenderContext): string {
  const cli = cliCommand(ctx, "agent");
  const readOnly = isReadOnly(def);
  const ownMemory = writesOwnMemory(def.tools);
  const me = def.name;
  const step = `\`${cli} progress step --expert ${me} --action "<what you did>" --summary "<result>" --created <file> --modified <file> --next-expert <agent> --next-action "<what is next>" --next-notes "<decisions, context>" --next-file <file>\``;
  const progress =
    def.role === "orchestrator"
      ? numbered([
          `Start every request with \`${cli} progress show\`. If a workflow is unfinished, \`${cli} progress resume\` prints its history, the next step and the context left for it: continue it instead of starting over.`,
          `Start a new workflow with \`${cli} progress init "<request>" --primary <agent> --steps <n>\` (add \`--supporting <agent>\` per other agent).`,
          `Specialists record their own steps. Record yours and those of agents without a shell (the reviewer) with ${step.replace(`--expert ${me}`, "--expert <agent>")}; repeat \`--created\`, \`--modified\` and \`--next-file\` per file. Check with \`progress show\` that a step is recorded before the next one starts.`,
          `When the work is done, \`${cli} progress complete --summary "<what was accomplished>"\`; log failures with \`${cli} progress error "<message>"\`. \`${cli} help progress\` lists every option.`,
          "Never edit `.claude/state/progress.json` by hand: the CLI validates it and writes it atomically under a lock.",
        ])
      : readOnly
        ? numbered([
            "Read `.claude/state/progress.json` if it exists: `task` says what the work is, `completed_steps` what is done, `next_step.context` what was left for you.",
            "You cannot write it: put your result in your report; the orchestrator records it.",
            ...(ownMemory ? [] : [NO_MEMORY_TOOL]),
          ])
        : numbered([
            `Before you start, run \`${cli} progress resume\`: it prints the history, the next step and the context left for you. Continue from there and do not redo completed steps. When it says there is no workflow, just do the task you were given.`,
            `When your step is done, record it: ${step}. Repeat \`--created\`, \`--modified\` and \`--next-file\` per file; leave out the \`--next-\` options when nothing follows. \`${cli} help progress\` lists every option.`,
            ownMemory
              ? "Inside a composite skill's phase, also write the memory file its directive names (`memory write --task <id> --agent " +
                me +
                " …`) before you finish."
              : NO_MEMORY_TOOL,
            "Never edit `.claude/state/progress.json` by hand: the CLI validates it and writes it atomically under a lock.",
          ]);

  const confidence = [
    "Rate your confidence before you rely on something:",
    bullets([
      "**HIGH**: core knowledge you use daily. Answer directly.",
      "**MEDIUM**: you know the concept but not the details. Verify in the official documentation first (WebFetch) and cite it.",
      "**LOW**: unfamiliar, version-specific or an edge case. Research the documentation and community sources (WebSearch), cite them, and state the caveats.",
    ]),
    "Always verify exact API parameters, version-specific behaviour, configuration options, error messages and anything that may have changed recently. Check the versions the project uses (package manifests, lockfiles) and its conventions (CLAUDE.md) first.",
  ].join("\n\n");

  const report =
    def.role === "orchestrator"
      ? [
          "Report progress to the user in this shape:",
          "```\nTask: <description>\nPlan: <strategy: single, sequential or parallel>, <n> steps\n\nStep 1/<n>: <agent>: <action>\n  <what happened> (done | failed | waiting for you)\n...\n\nDone: <what was accomplished>\nArtifacts: <files>\nNext steps: <suggestions, if any>\n```",
        ].join("\n\n")
      : def.role === "reviewer"
        ? [
            "End with this report; the orchestrator reads it:",
            "```\n## Review: <what you reviewed>\n### Verdict: APPROVE | CHANGES REQUESTED | BLOCKED\n### Findings\n- [critical|major|minor] <file:line>: <problem>. Suggested change: <change>. Owner: <agent>\n### Documentation consulted\n- <url>: <what it confirmed>\n### Confidence: HIGH | MEDIUM | LOW\n<caveats>\n```",
          ].join("\n\n")
        : [
            "End with this report; the orchestrator reads it:",
            "```\n## Action: <what you did>\n### Analysis\n<what you found>\n### Solution\n<what you changed and why>\n### Artifacts\n- Created: <files>\n- Modified: <files>\n### Documentation consulted\n- <url>: <what it confirmed>\n### Confidence: HIGH | MEDIUM | LOW\n<caveats>\n### Next step\n<agent>: <action>, or none\n```",
          ].join("\n\n");

  const errors =
    def.role === "orchestrator"
      ? numbered([
          "First failure of an agent: retry once with more context (what failed, the files involved, what to try).",
          "Second failure: bring it to the human with both attempts.",
          'Third failure: stop the workflow, record it with `progress fail "<reason>"`, and report.',
        ])
      : [
          `${readOnly ? "Report the error" : `Log it with \`${cli} progress error "<message>" --expert ${me} --action "<action>" --attempted "<what you tried>" --suggestion "<how to proceed>"\``}, try one recovery that stays in your lane, and if it persists, report:`,
          "```\n## Error in <action>\n**Problem:** <what went wrong>\n**Attempted:** <what you tried>\n**Suggestion:** <how to proceed, and who should>\n**Documentation:** <relevant links, if any>\n```",
        ].join("\n\n");

  const handoff =
    def.role === "orchestrator"
      ? numbered([
          "Agents never talk to each other: every handoff goes through you and the progress file.",
          `When an agent finishes, validate its output before the next step: \`${skillRef(ctx, "validate-agent-boundaries")}\` on the files it changed, \`${skillRef(ctx, "risk-classifier")}\` on anything destructive or irreversible. A VIOLATION rejects the output and the task goes to the owner; REVIEW_REQUIRED waits for the human; DANGEROUS is blocked until the human overrides it.`,
          "Start the next agent with the context from `next_step`: the task, relevant files, decisions, and what done looks like. Start independent agents in one message so they run in parallel.",
          `End every task you give an agent with a constraint block that narrows it to this step, with this step's own paths and commands; the guard reads it for that agent instance alone and denies what it forbids. Only the lines between \`<constraints>\` and \`</constraints>\` count, one per line, paths in the lane glob convention; for example:\n\n${CONSTRAINT_BLOCK_EXAMPLE.split(
            "\n",
          )
            .map((l) => `   ${l}`)
            .join(
              "\n",
            )}\n\n   Also understood: \`read-only\`, \`do not touch|edit|change <paths>\`, \`do not execute <command>\`. Constraints only narrow the agent's lane; they never widen it. Check a block with \`${cli} check --agent <agent> --task "<the task>" …\`.`,
          "When two agents' outputs conflict, show both to the human, let them decide, and keep the other output on record instead of deleting it.",
        ])
      : [
          "You do not message or start other agents. When work remains for another lane: finish your part, put what the next agent needs into `next_step` (agent, action, relevant files, decisions, notes), list your artifacts, and name it under *Next step*. The orchestrator validates your output and starts the next agent.",
          "When you continue someone else's work, read `completed_steps` and `next_step` first and build on their artifacts instead of redoing them.",
        ].join("\n\n");

  return [
    "## Protocols",
    `### Progress file\n\n${progress}`,
    `### Documentation and confidence\n\n${confidence}`,
    `### Response format\n\n${report}`,
    `### Errors\n\n${errors}`,
    `### Handoff\n\n${handoff}`,
    renderTaskProtocol(def, cli),
  ].join("\n\n");
}
