import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // End-to-end tests spawn pytest; two cores, so keep file-level parallelism modest.
    maxWorkers: 2,
  },
});
