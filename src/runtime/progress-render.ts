/**
 * Human views of a progress file: the orchestrator's progress report for
 * `lanes progress show`, and the incoming expert's handoff for `lanes progress resume`.
 * Pure: no I/O, no clock.
 */
import type { CompletedStep, NextStep, ProgressFile } from "./progress-schema.ts";

const RULE = "═".repeat(39);

/** `850ms`, `1.2s`, `2m 5s`, `1h 3m`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const s = ms / 1000;
  if (s < 59.95) return `${s.toFixed(1).replace(/\.0$/, "")}s`;
  const total = Math.round(s);
  const m = Math.floor(total / 60);
  if (m < 60) return `${m}m ${total % 60}s`;
  return `${Math.floor(m / 60)}h ${m % 60}m`;
}

const clip = (text: string, max = 100): string => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 3)}...` : flat;
};

/** The one-line gist of a step result: its `summary`, the text itself, or compact JSON. */
function resultLine(result: CompletedStep["result"]): string | undefined {
  if (typeof result === "string") return result === "" ? undefined : clip(result);
  if (typeof result.summary === "string") return clip(result.summary);
  const keys = Object.keys(result);
  return keys.length === 0 ? undefined : clip(JSON.stringify(result));
}

function errorLine(e: ProgressFile["errors"][number]): string {
  if (typeof e === "string") return e;
  const where = [e.step === undefined ? undefined : `step ${e.step}`, e.skill, e.expert]
    .filter((x) => x !== undefined)
    .join(", ");
  const kind = [e.severity, e.error_type].filter((x) => x !== undefined).join(" ");
  return `${where === "" ? "" : `${where}: `}${kind === "" ? "" : `[${kind}] `}${e.message}${e.suggestion === undefined ? "" : ` (suggestion: ${e.suggestion})`}`;
}

/**
 * The lines under an error: what it was working on (`context`, the `SkillError.context` of a
 * skill's error) and its recovery options, most preferred first, with how each runs.
 */
function errorDetails(e: ProgressFile["errors"][number]): string[] {
  if (typeof e === "string") return [];
  const out: string[] = [];
  if (e.context !== undefined && Object.keys(e.context).length > 0)
    out.push(
      `context: ${clip(
        Object.entries(e.context)
          .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
          .join(", "),
        200,
      )}`,
    );
  (e.recovery_options ?? []).forEach((r, i) =>
    out.push(
      `recovery ${i + 1}: ${r.action}: ${r.description} (${r.auto_execute ? "runs without asking" : r.requires_user_input ? "needs the human" : "ask before running"})`,
    ),
  );
  return out;
}

function constraintLines(next: NextStep): string[] {
  const c = next.constraints;
  if (c === undefined) return [];
  const parts: string[] = [];
  if (c.read_only === true) parts.push("read-only");
  if (c.write_paths !== undefined) parts.push(`writes only ${c.write_paths.map((p) => `\`${p}\``).join(", ")}`);
  if (c.tools !== undefined) parts.push(`tools only ${c.tools.map((t) => `\`${t}\``).join(", ")}`);
  return parts.length === 0 ? [] : [`constraints: ${parts.join("; ")}`];
}

/** The orchestrator's progress report (step by step, then the outcome), from the file as it stands. */
export function renderProgressReport(doc: ProgressFile): string {
  const n = Math.max(doc.total_steps, doc.completed_steps.length);
  const out: string[] = [];
  out.push(`🎯 Task: ${clip(doc.task.summary === "" ? doc.task.original_request : doc.task.summary, 200)}`, "");
  out.push("📋 Classification:");
  out.push(`   • Primary Expert: ${doc.classification.primary_expert}`);
  if (doc.classification.supporting_experts.length > 0)
    out.push(`   • Supporting Experts: ${doc.classification.supporting_experts.join(", ")}`);
  out.push(`   • Strategy: ${doc.classification.strategy}`, `   • Steps: ${n}`, "");
  for (const s of doc.completed_steps) {
    out.push(`🤖 Step ${s.step}/${n}: ${s.expert}`, `   ├─ ▶️  Action: ${s.action}`);
    const gist = resultLine(s.result);
    if (gist !== undefined) out.push(`   ├─ 📝 ${gist}`);
    out.push(`   └─ ✅ Completed (${formatDuration(s.duration_ms)})`, "");
  }
  if (doc.next_step !== null && doc.status !== "completed") {
    const next = doc.next_step;
    out.push(`⏭️  Step ${next.step}/${Math.max(n, next.step)}: ${next.expert} (next)`);
    const details = [`▶️  Action: ${next.action}`, ...constraintLines(next)];
    details.forEach((d, i) => out.push(`   ${i === details.length - 1 ? "└─" : "├─"} ${d}`));
    out.push("");
  }
  const errors = doc.errors.map(errorLine);
  const detailed = doc.errors.flatMap((e, i) => [`   • ${errors[i]}`, ...errorDetails(e).map((d) => `     ${d}`)]);
  if (errors.length > 0 && doc.status !== "failed") {
    out.push("⚠️  Errors:", ...detailed, "");
  }
  const files = [
    ...doc.artifacts.files_created.map((f) => `${f} (created)`),
    ...doc.artifacts.files_modified.map((f) => `${f} (modified)`),
  ];
  const total = Date.parse(doc.updated_at) - Date.parse(doc.created_at);
  if (doc.status === "completed" || doc.status === "failed") {
    out.push(RULE);
    if (doc.status === "completed") out.push(`✨ Task Completed in ${formatDuration(Math.max(0, total))}`, "");
    else out.push(`❌ Task Failed after ${formatDuration(Math.max(0, total))}`, "", "❗ Errors:", ...detailed, "");
    const summary = doc.completion?.summary ?? doc.task.summary;
    if (summary !== "") out.push("📋 Summary:", `   ${summary}`, "");
    if (files.length > 0) out.push("📁 Artifacts:", ...files.map((f) => `   • ${f}`), "");
    const suggestions = doc.completion?.suggestions ?? [];
    if (suggestions.length > 0) out.push("💡 Next Steps:", ...suggestions.map((s, i) => `   ${i + 1}. ${s}`), "");
    if (out.at(-1) === "") out.pop();
    out.push(RULE);
  } else {
    if (files.length > 0) out.push("📁 Artifacts so far:", ...files.map((f) => `   • ${f}`), "");
    out.push(
      `⏳ ${doc.status === "initialized" ? "Initialized" : "In progress"}: workflow ${doc.workflow_id}, step ${doc.current_step} of ${Math.max(n, doc.current_step)}`,
    );
  }
  return `${out.join("\n")}\n`;
}

/** What an incoming expert reads before continuing: history, next step, artifacts. */
export function renderResume(doc: ProgressFile): string {
  const n = Math.max(doc.total_steps, doc.completed_steps.length);
  const out: string[] = [];
  out.push(`workflow ${doc.workflow_id} (${doc.status}), step ${doc.current_step} of ${Math.max(n, doc.current_step)}`);
  out.push(`task: ${doc.task.original_request}`);
  const pc = doc.task.project_context;
  out.push(`project: ${pc.name} (${pc.root})${pc.languages === undefined ? "" : `, ${pc.languages.join(", ")}`}`, "");
  out.push(doc.completed_steps.length === 0 ? "history: no step recorded yet" : "history:");
  for (const s of doc.completed_steps) {
    const gist = resultLine(s.result);
    const files = s.artifacts.length === 0 ? "" : ` [${s.artifacts.join(", ")}]`;
    out.push(`  ${s.step}. ${s.expert} ${s.action}${gist === undefined ? "" : `: ${gist}`}${files}`);
  }
  out.push("");
  const next = doc.next_step;
  if (next === null) out.push("next step: none planned");
  else {
    out.push(`next step ${next.step}: ${next.expert} does ${next.action}`);
    for (const [key, value] of Object.entries(next.context))
      out.push(`  ${key}: ${typeof value === "string" ? value : JSON.stringify(value)}`);
    for (const line of constraintLines(next)) out.push(`  ${line}`);
  }
  out.push("");
  const a = doc.artifacts;
  out.push("artifacts:");
  out.push(`  created: ${a.files_created.length === 0 ? "none" : a.files_created.join(", ")}`);
  out.push(`  modified: ${a.files_modified.length === 0 ? "none" : a.files_modified.join(", ")}`);
  if (a.documentation_consulted.length > 0) out.push(`  documentation: ${a.documentation_consulted.join(", ")}`);
  const recent = doc.errors.slice(-5);
  if (recent.length > 0)
    out.push(
      "",
      "recent errors:",
      ...recent.flatMap((e) => [`  - ${errorLine(e)}`, ...errorDetails(e).map((d) => `    ${d}`)]),
    );
  out.push(
    "",
    doc.status === "completed" || doc.status === "failed"
      ? `this workflow is ${doc.status}: nothing to continue`
      : "continue from the next step without redoing the history; when done run `lanes progress step --expert <you> --action <action> --summary <text>`",
  );
  return `${out.join("\n")}\n`;
}
