/**
 * G13/H3 — a server a package runner is installing, as operators see it: `installing` with its
 * runner in `/status.json`, counted by `/healthz`, not ready on `/readyz`, "installing through npx
 * (N s so far)" in `toolsearch status`, and connected once the install is done. A real HTTP
 * gateway; the fixture npx installs until the test lets it finish (no network).
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { StatusSnapshot } from '../../src/gateway/status/routes.js';
import { cliArgs } from '../fixtures/cli.js';
import { fixtureRunner } from '../fixtures/runners.js';
import { cliEnv } from '../fixtures/state.js';
import { startStatusGateway, STATUS_TOKEN } from '../fixtures/status-gateway.js';
import { waitFor } from '../fixtures/wait.js';

const run = promisify(execFile);

describe('G13: an install on the status surfaces', () => {
  it('G13: /status.json, /healthz, /readyz and `toolsearch status` say installing, then connected', async () => {
    const runner = fixtureRunner();
    const go = join(runner.dir, 'go');
    const gateway = await startStatusGateway({
      extra: { pkg: runner.server('status-pkg@1.0.0', { RUNNER_GO_FILE: go }) },
      settle: false,
    });
    try {
      const snapshot = async () =>
        (await (
          await fetch(`${gateway.base}/status.json`, { headers: { authorization: `Bearer ${STATUS_TOKEN}` } })
        ).json()) as StatusSnapshot;
      const installing = await waitFor(
        async () => (await snapshot()).servers.find((s) => s.server === 'pkg' && s.state === 'installing'),
        'the install to show',
        30_000,
      );
      expect(installing).toMatchObject({ runner: 'npx', tools: 0 });
      expect(((await (await fetch(`${gateway.base}/healthz`)).json()) as StatusSnapshot).servers).toMatchObject({
        installing: 1,
      });
      expect((await fetch(`${gateway.base}/readyz`)).status).toBe(503);
      const { stdout } = await run(
        process.execPath,
        cliArgs('status', '--http', gateway.base, '--token', STATUS_TOKEN),
        { env: cliEnv(), timeout: 60_000 },
      );
      expect(stdout).toMatch(/servers: \d connected, 0 connecting, 1 installing, 0 failed/);
      expect(stdout).toMatch(/^pkg\s+installing\s+0 .* installing through npx \(\d+ s so far\)$/m);
      writeFileSync(go, '');
      await waitFor(
        async () => (await snapshot()).servers.find((s) => s.server === 'pkg')?.state === 'connected',
        'the server to connect',
        30_000,
      );
      expect((await fetch(`${gateway.base}/readyz`)).status).toBe(200);
    } finally {
      writeFileSync(go, '');
      await gateway.close();
    }
  });
});
