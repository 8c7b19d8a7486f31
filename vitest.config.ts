import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // G7: the run gets a home of its own (HOME, XDG dirs and TOOLSEARCH_STATE_DIR under a temp dir),
    // and fails if the user's own toolsearch state changed while it ran.
    globalSetup: ['test/setup/isolated-home.ts'],
  },
});
