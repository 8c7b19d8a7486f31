/**
 * Test speed (issue 29): the CLI the tests spawn, compiled once per run. Many tests start
 * `toolsearch` as a child process (stdio gateways, `inspect`, `search`, `learned`, …); through
 * tsx each start costs about twice the CPU of plain JavaScript (the loader and its compiler run
 * in every child). This globalSetup transpiles src/ with the project's own TypeScript into a
 * per-run directory and names its `cli/main.js` in TOOLSEARCH_TEST_CLI, which
 * test/fixtures/cli.ts prefers. Same source, fresh every run: never a stale dist/.
 *
 * The copy lives under node_modules/.cache so that package lookups from it (the bundled servers'
 * bins, the SDK) find this checkout's node_modules, as src/ does. In watch mode src/ may change
 * under a running vitest, so the children keep running src/ through tsx there.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { TestProject } from 'vitest/node';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SRC = join(ROOT, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Each file on its own (the code is written for that: tsx and esbuild compile it the same way). */
function transpile(out: string): void {
  const compilerOptions: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    esModuleInterop: true,
    sourceMap: false,
  };
  for (const file of sourceFiles(SRC)) {
    const { outputText } = ts.transpileModule(readFileSync(file, 'utf8'), { compilerOptions, fileName: file });
    const target = join(out, relative(SRC, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, outputText);
  }
  // Under node_modules Node looks no further up for "type": say ESM here.
  writeFileSync(join(out, 'package.json'), '{ "type": "module" }\n');
}

export default function setup(project: TestProject): (() => void) | undefined {
  if (project.config.watch) return undefined;
  const out = join(ROOT, 'node_modules', '.cache', `toolsearch-test-cli-${process.pid}`);
  rmSync(out, { recursive: true, force: true });
  try {
    transpile(out);
  } catch (error) {
    // Slower, not wrong: the children run src/ through tsx.
    console.warn(`compiled-cli: could not compile src/ (${String(error)}); spawned CLIs run through tsx`);
    rmSync(out, { recursive: true, force: true });
    return undefined;
  }
  process.env['TOOLSEARCH_TEST_CLI'] = join(out, 'cli', 'main.js');
  return () => {
    delete process.env['TOOLSEARCH_TEST_CLI'];
    rmSync(out, { recursive: true, force: true });
  };
}
