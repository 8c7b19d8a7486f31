/**
 * G13/H3 — a failed server's reason is its first meaningful stderr line, not Node's version footer;
 * a broken npx cache is recognised with the exact folder to delete. Pure rules over stderr as Node
 * 20, Python, npm and uv print it (recorded from real runs).
 */
import { describe, expect, it } from 'vitest';
import { brokenNpxCache, meaningfulErrorLine, removeFolderCommand, StderrTail } from '../../src/mcp/stderr-reason.js';
import { explainFailure } from '../../src/mcp/server-state.js';

const lines = (text: string) => text.split('\n').filter((line) => line.trim() !== '');

const ESM_MISSING = lines(`node:internal/modules/esm/resolve:873
  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);
        ^

Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /home/u/.npm/_npx/8a1b2c3d4e5f6a7b/node_modules/@acme/mcp/dist/index.js
    at packageResolve (node:internal/modules/esm/resolve:873:9)
    at moduleResolve (node:internal/modules/esm/resolve:946:18)
    at ModuleJob._link (node:internal/modules/esm/module_job:168:49) {
  code: 'ERR_MODULE_NOT_FOUND'
}

Node.js v20.20.2`);

const CJS_MISSING = lines(`node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module 'ajv'
Require stack:
- /home/u/.npm/_npx/0f1e2d3c4b5a6978/node_modules/ajv-formats/dist/limit.js
- /home/u/.npm/_npx/0f1e2d3c4b5a6978/node_modules/ajv-formats/dist/index.js
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at Module._load (node:internal/modules/cjs/loader:1038:27) {
  code: 'MODULE_NOT_FOUND',
  requireStack: [
    '/home/u/.npm/_npx/0f1e2d3c4b5a6978/node_modules/ajv-formats/dist/limit.js',
    '/home/u/.npm/_npx/0f1e2d3c4b5a6978/node_modules/ajv-formats/dist/index.js'
  ]
}

Node.js v20.20.2`);

const THROWN = lines(`Starting GitHub MCP server…
file:///home/u/.npm/_npx/1234567890abcdef/node_modules/github-mcp/dist/index.js:12
  throw new Error('GITHUB_PERSONAL_ACCESS_TOKEN is not set');
        ^

Error: GITHUB_PERSONAL_ACCESS_TOKEN is not set
    at file:///home/u/.npm/_npx/1234567890abcdef/node_modules/github-mcp/dist/index.js:12:9
    at ModuleJob.run (node:internal/modules/esm/module_job:234:25)

Node.js v20.20.2`);

describe('G13: the first meaningful stderr line', () => {
  it("G13: Node's uncaught errors give the error line, not the footer, the source line or a stack frame", () => {
    expect(meaningfulErrorLine(ESM_MISSING)).toBe(
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from /home/u/.npm/_npx/8a1b2c3d4e5f6a7b/node_modules/@acme/mcp/dist/index.js",
    );
    expect(meaningfulErrorLine(CJS_MISSING)).toBe("Error: Cannot find module 'ajv'");
    expect(meaningfulErrorLine(THROWN)).toBe('Error: GITHUB_PERSONAL_ACCESS_TOKEN is not set');
    expect(meaningfulErrorLine(['Node.js v20.20.2'])).toBeUndefined();
  });

  it('G13: Python, npm and uv errors; otherwise the last line that is not noise', () => {
    const python = lines(`Traceback (most recent call last):
  File "/home/u/.cache/uv/archive-v0/x/bin/mcp-server-time", line 5, in <module>
    from mcp_server_time import main
ModuleNotFoundError: No module named 'tzdata'`);
    expect(meaningfulErrorLine(python)).toBe("ModuleNotFoundError: No module named 'tzdata'");
    const npm = lines(`npm error code E404
npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fno-such-server - Not found
npm error 404
npm error A complete log of this run can be found in: /home/u/.npm/_logs/2026-11-30T10_00_00_000Z-debug-0.log`);
    expect(meaningfulErrorLine(npm)).toBe(
      'npm error 404 Not Found - GET https://registry.npmjs.org/@acme%2fno-such-server - Not found',
    );
    expect(meaningfulErrorLine(['  × No solution found when resolving tool dependencies:', 'error: nope'])).toBe(
      'error: nope',
    );
    expect(meaningfulErrorLine(['listening…', 'missing SUPABASE_TOKEN', ''])).toBe('missing SUPABASE_TOKEN');
    expect(meaningfulErrorLine(['x'.repeat(1000)])).toHaveLength(301);
  });

  it('G13: the tail an attempt keeps is bounded in lines and characters', () => {
    const tail = new StderrTail(3, 10);
    for (const line of ['aaaa', 'bbbb', 'cccc', 'dddd']) tail.add(line);
    expect(tail.all).toEqual(['cccc', 'dddd']);
    expect(tail.last).toBe('dddd');
  });
});

describe('G13: a broken npx cache', () => {
  it('G13: a missing module under _npx/<hash>/ names that folder and the command that clears it', () => {
    expect(brokenNpxCache(ESM_MISSING, 'linux')).toEqual({
      folder: '/home/u/.npm/_npx/8a1b2c3d4e5f6a7b',
      clear: 'rm -rf /home/u/.npm/_npx/8a1b2c3d4e5f6a7b',
    });
    expect(brokenNpxCache(CJS_MISSING, 'linux')?.folder).toBe('/home/u/.npm/_npx/0f1e2d3c4b5a6978');
    const windows = [
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from C:\\Users\\Ann Lee\\AppData\\Local\\npm-cache\\_npx\\8a1b2c3d4e5f6a7b\\node_modules\\x\\index.js",
    ];
    // A folder with a space: Node's message cannot say where the path starts, so none is guessed.
    expect(brokenNpxCache(windows, 'win32')).toBeUndefined();
    const url = [
      "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'zod' imported from file:///C:/npm-cache/_npx/8a1b2c3d4e5f6a7b/node_modules/x/i.js",
    ];
    expect(brokenNpxCache(url, 'win32')).toEqual({
      folder: 'C:/npm-cache/_npx/8a1b2c3d4e5f6a7b',
      clear: 'rmdir /s /q "C:\\npm-cache\\_npx\\8a1b2c3d4e5f6a7b"',
    });
  });

  it("G13: npm's own ENOENT on a half-written _npx folder (recorded from a cold start cut at 30 s) is a broken cache too", () => {
    const npm = lines(`npm error code ENOENT
npm error syscall open
npm error path /tmp/npm-cache/_npx/756730a02be90e5e/package.json
npm error errno -2
npm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/tmp/npm-cache/_npx/756730a02be90e5e/package.json'
npm error enoent This is related to npm not being able to find a file.
npm error enoent
npm error A complete log of this run can be found in: /tmp/npm-cache/_logs/2026-11-28T06_04_40_134Z-debug-0.log`);
    expect(meaningfulErrorLine(npm)).toBe(
      "npm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/tmp/npm-cache/_npx/756730a02be90e5e/package.json'",
    );
    expect(brokenNpxCache(npm, 'linux')?.clear).toBe('rm -rf /tmp/npm-cache/_npx/756730a02be90e5e');
  });

  it('G13: an error that is not a missing module, or a missing module outside _npx, is not a broken cache', () => {
    expect(brokenNpxCache(THROWN, 'linux')).toBeUndefined();
    expect(brokenNpxCache(["Error: Cannot find module 'ajv'", '- /srv/app/index.js'], 'linux')).toBeUndefined();
  });

  it('G13: the command quotes a folder a shell would split', () => {
    expect(removeFolderCommand("/home/o'neil/my cache/_npx/ab12cd34", 'linux')).toBe(
      "rm -rf '/home/o'\\''neil/my cache/_npx/ab12cd34'",
    );
  });

  it('G13: the reason of a server that died on a broken cache starts with the fix', () => {
    const explained = explainFailure({
      message: 'MCP error -32000: Connection closed',
      exit: { code: 1, signal: null },
      stderr: CJS_MISSING,
      commandLine: 'npx -y ajv-formats-server@1.0.0',
      platform: 'linux',
    });
    expect(explained.reason).toBe(
      'a broken npx cache (an install that was cut off?): clear it with rm -rf /home/u/.npm/_npx/0f1e2d3c4b5a6978, ' +
        `and npx installs it again; exited with code 1; stderr: "Error: Cannot find module 'ajv'"`,
    );
    expect(explained.fix).toBe('rm -rf /home/u/.npm/_npx/0f1e2d3c4b5a6978');
    const thrown = explainFailure({
      message: 'closed',
      exit: { code: 1, signal: null },
      stderr: THROWN,
      commandLine: 'npx -y github-mcp',
    });
    expect(thrown).toEqual({
      reason: 'exited with code 1; stderr: "Error: GITHUB_PERSONAL_ACCESS_TOKEN is not set"',
      fix: 'run "npx -y github-mcp" by hand to see the whole error',
    });
  });
});
