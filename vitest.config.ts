import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // G7: the run gets a home of its own (HOME, XDG dirs and TOOLSEARCH_STATE_DIR under a temp dir),
    // and fails if the user's own toolsearch state changed while it ran. Then the CLI the tests
    // spawn is compiled once for the run (children start on plain JavaScript, not through tsx).
    globalSetup: ['test/setup/isolated-home.ts', 'test/setup/compiled-cli.ts'],
  },
});
