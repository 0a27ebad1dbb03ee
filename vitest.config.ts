import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["test/**/*.test.ts"],
          exclude: ["test/e2e/**", "test/**/*.stress.test.ts"],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          // many processes racing on one file (about 50 s): their own project, still part of `npm test`
          name: "stress",
          include: ["test/**/*.stress.test.ts"],
          exclude: ["test/e2e/**"],
          testTimeout: 120_000,
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
