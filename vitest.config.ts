import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**", "test/**/*.stress.test.ts"],
          // limits that catch a hang, not a slow machine: on a busy 2-core machine the longest tests
          // take several times what they take on an idle one, and the hooks that install a project
          // spawn the CLI (whole-corpus tests have their own limit, WHOLE_CORPUS_TIMEOUT)
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          // many processes racing on one file (about 20 s idle, over 60 s on a busy 2-core machine):
          // their own project, still part of `npm test`, with a limit that catches a hang only
          name: "stress",
          include: ["test/**/*.stress.test.ts"],
          exclude: ["test/e2e/**"],
          testTimeout: 600_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // each scenario starts its own mock server and claude process; keep them few and sequential
          fileParallelism: false,
        },
      },
    ],
  },
});
