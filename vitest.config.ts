import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Tests start real servers, gateways and CLI runs, and files run side by side: on a busy
    // 2-core machine one CLI run that connects to a few servers can take most of 30 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Most of a test file's time goes to waiting on the processes it starts (servers, gateways,
    // the CLI), not to the worker itself: one worker more than cores keeps the CPU busy. (The
    // default, cores - 1, runs one file at a time on a 2-core machine.) `--maxWorkers` overrides.
    maxWorkers: availableParallelism() + 1,
    // G7: the run gets a home of its own (HOME, XDG dirs and TOOLSEARCH_STATE_DIR under a temp dir),
    // and fails if the user's own toolsearch state changed while it ran. Then the CLI the tests
    // spawn is compiled once for the run (children start on plain JavaScript, not through tsx).
    globalSetup: ['test/setup/isolated-home.ts', 'test/setup/compiled-cli.ts'],
  },
});
