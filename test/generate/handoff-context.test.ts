import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_CONTEXT_LIMIT,
  renderHandoffContext,
  summarizeContext,
  TRUNCATION_MARKER,
} from "../../src/generate/handoff-context.ts";

const full = {
  from: "ui-components",
  to: "auth-security",
  built: "A SaaS dashboard on the Next.js App Router with a /dashboard route.",
  state: ["App Router set up", "Last action: added the settings page"],
  files: ["src/app/dashboard/page.tsx", "src/app/settings/page.tsx"],
  goal: "Users sign in with Google before they see the dashboard.",
  decisions: ["Supabase is the backend", "Sessions in HttpOnly cookies"],
  next: "Add Google OAuth login and protect /dashboard.",
};

describe("renderHandoffContext", () => {
  it("renders the context handoff template", () => {
    expect(renderHandoffContext(full)).toBe(`## Handoff context

**Previous skill:** ui-components
**New skill:** auth-security

### What was being built
A SaaS dashboard on the Next.js App Router with a /dashboard route.

### Current state
- App Router set up
- Last action: added the settings page
- Files: src/app/dashboard/page.tsx, src/app/settings/page.tsx

### User's goal
Users sign in with Google before they see the dashboard.

### Relevant decisions
- Supabase is the backend
- Sessions in HttpOnly cookies

### Continue from here
Add Google OAuth login and protect /dashboard.
`);
  });

  it("leaves out empty sections", () => {
    expect(renderHandoffContext({ from: "a", to: "b", goal: "g" })).toBe(
      "## Handoff context\n\n**Previous skill:** a\n**New skill:** b\n\n### User's goal\ng\n",
    );
  });
});

describe("summarizeContext", () => {
  it("leaves a context within the limit alone", () => {
    const text = renderHandoffContext(full);
    expect(summarizeContext(text)).toEqual({ text, truncated: false });
  });

  it("keeps every heading, the goal and the next step, and marks the cut", () => {
    const long = renderHandoffContext({
      ...full,
      built: "x".repeat(3000),
      decisions: Array.from({ length: 40 }, (_, i) => `decision number ${i} with some words`),
    });
    const { text, truncated } = summarizeContext(long, 800);
    expect(truncated).toBe(true);
    expect(text.length).toBeLessThanOrEqual(800);
    for (const heading of [
      "## Handoff context",
      "**Previous skill:** ui-components",
      "### What was being built",
      "### Current state",
      "### User's goal",
      "### Relevant decisions",
      "### Continue from here",
    ])
      expect(text).toContain(heading);
    expect(text).toContain("Users sign in with Google before they see the dashboard.");
    expect(text).toContain("Add Google OAuth login and protect /dashboard.");
    expect(text.trimEnd().endsWith(TRUNCATION_MARKER)).toBe(true);
  });

  it("never exceeds the limit", () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 400 }), { maxLength: 30 }),
        fc.string({ maxLength: 2000 }),
        fc.integer({ min: 300, max: DEFAULT_CONTEXT_LIMIT }),
        (decisions, built, limit) => {
          const { text } = summarizeContext(renderHandoffContext({ ...full, built, decisions }), limit);
          expect(text.length).toBeLessThanOrEqual(limit);
          expect(text.endsWith("\n")).toBe(true);
        },
      ),
    );
  });
});
