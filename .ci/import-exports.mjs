// H4 CI check, run from a directory where toolsearch is installed: import every subpath export
// the installed manifest declares; exit 1 naming each one that fails.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(`${process.cwd()}/`);
const manifest = JSON.parse(readFileSync(require.resolve('toolsearch/package.json'), 'utf8'));
let failed = 0;
for (const key of Object.keys(manifest.exports)) {
  if (key.endsWith('.json')) continue;
  const specifier = key === '.' ? 'toolsearch' : `toolsearch/${key.slice(2)}`;
  try {
    const module = await import(specifier);
    console.log(`import ${specifier}: ${Object.keys(module).length} exports`);
  } catch (error) {
    failed++;
    console.error(`import ${specifier} FAILED: ${error instanceof Error ? error.message : String(error)}`);
  }
}
process.exitCode = failed > 0 ? 1 : 0;
