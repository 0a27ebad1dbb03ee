import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadDefinitionSet } from "../../src/definitions/load.ts";
import { SkillDefinition, type SkillDefinitionInput } from "../../src/definitions/skill.ts";
import {
  findMatchingHandoff,
  matchesAlternative,
  sortedHandoffs,
  splitByDomain,
  triggerAlternatives,
} from "../../src/generate/handoff.ts";

const ROOT = join(import.meta.dirname, "../..");
const pack = new Map(loadDefinitionSet(join(ROOT, "definitions"), ROOT).skills.map((s) => [s.value.id, s.value]));
const skill = (id: string) => {
  const found = pack.get(id);
  if (found === undefined) throw new Error(`no skill ${id}`);
  return found;
};

/** An example skill, as a definition: a Next.js skill handing off to auth, database and styling. */
const nextjs = SkillDefinition.parse({
  id: "nextjs-app-router",
  name: "Next.js App Router",
  description: "Use for Next.js App Router work: routing, layouts, server and client components.",
  identity: "You are the Next.js App Router specialist.",
  owns: ["next.js app router", "server components", "client components"],
  handoffs: [
    {
      trigger: "authentication|login|signup|session|auth",
      to: "nextjs-supabase-auth",
      priority: 1,
      why: "security",
      context_template: "Needs auth for: {user_goal}",
    },
    {
      trigger: "database|query|SQL|migration|schema",
      to: "supabase-backend",
      priority: 1,
      why: "data",
      context_template: "Database need: {user_goal}",
    },
    {
      trigger: "styling|CSS|Tailwind|design|responsive|dark mode",
      to: "tailwind-ui",
      priority: 2,
      why: "styling",
      context_template: "Styling: {user_goal}",
    },
    {
      trigger: "frontend|components",
      to: "frontend-skill",
      why: "ui",
      context_template: "{user_goal}",
      exclude_from: ["frontend-skill"],
    },
  ],
} satisfies SkillDefinitionInput);

describe("findMatchingHandoff with example skills", () => {
  it.each(["add login", "user authentication", "session management", "Now I need to add Google login to my app"])(
    "%s hands off to the auth skill",
    (text) => {
      expect(findMatchingHandoff(nextjs, text)?.to).toBe("nextjs-supabase-auth");
    },
  );

  it.each(["server component", "app router", "loading.tsx", "author page"])("%s stays in the current skill", (text) => {
    expect(findMatchingHandoff(nextjs, text)).toBeUndefined();
  });

  it("checks higher priorities first: styling (2) wins over the database (1)", () => {
    expect(findMatchingHandoff(nextjs, "responsive table of database rows")).toMatchObject({
      to: "tailwind-ui",
      matched: "responsive",
    });
  });

  it("respects exclude_from: no suggestion to a skill when coming from it", () => {
    expect(findMatchingHandoff(nextjs, "shared components")?.to).toBe("frontend-skill");
    expect(findMatchingHandoff(nextjs, "shared components", { from: "frontend-skill" })).toBeUndefined();
  });

  it("never hands back to the skill it came from", () => {
    expect(findMatchingHandoff(nextjs, "add login", { from: "nextjs-supabase-auth" })).toBeUndefined();
  });
});

describe("findMatchingHandoff with the pack's skills", () => {
  it.each([
    ["ui-components", "add login to the header", "auth-security"],
    ["ui-components", "the form needs a new endpoint for saving drafts", "api-design"],
    ["ui-components", "write a Playwright test for the modal", "test-strategy"],
    ["api-design", "store the orders in a new table", "schema-migrations"],
    ["api-design", "protect the endpoint with OAuth", "auth-security"],
    ["api-design", "drop the old rows from production data", "risk-classifier"],
    ["auth-security", "add a sessions table with a foreign key to users", "schema-migrations"],
    ["schema-migrations", "expose the table through a REST API", "api-design"],
    ["test-strategy", "update the README with how to run the tests", "technical-writing"],
    ["route-request", "build a feature for exporting invoices", "deliver-feature"],
    ["choose-pattern", "should we run these in parallel?", "parallel-work"],
    ["risk-classifier", "who owns src/app/api?", "validate-agent-boundaries"],
  ])("in %s, %j hands off to %s", (from, text, to) => {
    expect(findMatchingHandoff(skill(from), text)?.to).toBe(to);
  });

  it.each([
    ["ui-components", "make this a server component"],
    ["ui-components", "the modal traps focus badly"],
    ["api-design", "paginate the orders endpoint with a cursor"],
    ["schema-migrations", "add an index for the orders query"],
    ["test-strategy", "this test is flaky on CI"],
    ["auth-security", "rotate the session cookie on login"],
  ])("in %s, %j stays", (from, text) => {
    expect(findMatchingHandoff(skill(from), text)).toBeUndefined();
  });

  it("does not send api-design back to ui-components when the conversation came from ui-components", () => {
    expect(findMatchingHandoff(skill("api-design"), "style the client component")?.to).toBe("ui-components");
    expect(
      findMatchingHandoff(skill("api-design"), "style the client component", { from: "ui-components" }),
    ).toBeUndefined();
  });
});

describe("trigger alternatives", () => {
  it("splits on |, lowercases and trims", () => {
    expect(triggerAlternatives(" Auth | Sign  In ||OAuth")).toEqual(["auth", "sign in", "oauth"]);
  });

  it.each([
    ["Sign-in page", "sign in", true],
    ["sign_in", "sign in", true],
    ["two migrations", "migration", true],
    ["authors", "auth", false],
    ["OAuth2", "oauth", false],
    ["n+1 query in the list", "n+1 query", true],
    ["run rm -rf build", "rm -rf", true],
    ["ci/cd pipeline", "ci/cd", true],
    ["SIGN IN", "sign in", true],
    ["signing", "sign in", false],
  ])("%j contains %j: %s", (text, alternative, expected) => {
    expect(matchesAlternative(text, alternative)).toBe(expected);
  });

  it("sorts handoffs by priority, keeping the file order among equals", () => {
    expect(sortedHandoffs(nextjs.handoffs).map((h) => h.to)).toEqual([
      "tailwind-ui",
      "nextjs-supabase-auth",
      "supabase-backend",
      "frontend-skill",
    ]);
  });
});

describe("splitByDomain (multi-domain request, skill collaboration edge case 2)", () => {
  const skill = {
    handoffs: [
      {
        trigger: "oauth|google login|sign in",
        to: "auth",
        priority: 2,
        why: "w",
        context_template: "c",
        exclude_from: [],
      },
      {
        trigger: "database|store the user|table",
        to: "db",
        priority: 1,
        why: "w",
        context_template: "c",
        exclude_from: [],
      },
      { trigger: "login page", to: "auth", priority: 1, why: "w", context_template: "c", exclude_from: [] },
      { trigger: "styling", to: "ui", priority: 0, why: "w", context_template: "c", exclude_from: [] },
    ],
  };
  it.each<[string, string[]]>([
    ["Add login with Google OAuth and store the user in the database", ["auth", "db"]],
    ["store the user in a table", ["db"]],
    ["fix the styling of the login page and the database table", ["auth", "db", "ui"]],
    ["refactor the cache", []],
  ])("%s -> %j", (text, targets) => {
    expect(splitByDomain(skill, text).map((m) => m.to)).toEqual(targets);
  });
});
