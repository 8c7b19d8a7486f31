import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // G7: what the hub learns about servers (eras, transports) and sign-in tokens stay out of the
    // user's own state directory during tests.
    env: { TOOLSEARCH_STATE_DIR: join(tmpdir(), `toolsearch-test-state-${process.pid}`) },
  },
});
