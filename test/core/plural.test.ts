/**
 * Issue 29: counts in messages read as English ("1 tool", not "1 tools" or "1 tool(s)"), and the
 * failed-servers text does not contradict the gateway's own retry.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceFiles } from '../fixtures/source-files.js';
import { plural } from '../../src/core/plural.js';
import { formatSearchResult } from '../../src/search/format-result.js';
import { formatFailedServers } from '../../src/search/server-failures.js';
import { connectedLine } from '../../src/mcp/server-messages.js';
import { failureOutcome } from '../../src/mcp/failure-outcome.js';
import type { ToolSearchResult } from '../../src/search/search-types.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** The string-literal text of one line (template expressions removed; a template may run on from another line). */
function stringParts(line: string): string[] {
  const text = line.replace(/\$\{[^}]*\}/g, '');
  const quoted = text.match(/'[^']*'|"[^"]*"|`[^`]*`/g) ?? [];
  // An odd number of backticks: the line opens or closes a template spanning lines, so any of it may be text.
  return (text.match(/`/g) ?? []).length % 2 === 1 ? [...quoted, text] : quoted;
}

const result = (over: Partial<ToolSearchResult>): ToolSearchResult =>
  ({
    query: 'q',
    kind: 'keyword',
    matches: [],
    notFound: [],
    totalDeferred: 0,
    pendingServers: [],
    ...over,
  }) as ToolSearchResult;

describe('plural forms', () => {
  it('plural() says 1 tool, 2 tools, 1 retry, 3 retries', () => {
    expect(plural(1, 'tool')).toBe('1 tool');
    expect(plural(0, 'tool')).toBe('0 tools');
    expect(plural(2_500, 'tool')).toBe('2,500 tools');
    expect(plural(1, 'retry', 'retries')).toBe('1 retry');
    expect(plural(3, 'retry', 'retries')).toBe('3 retries');
  });

  it('the messages with a count of one', () => {
    expect(formatSearchResult(result({ matches: ['mcp__a__b'], totalDeferred: 1 }))).toContain('Loaded 1 tool;');
    expect(formatSearchResult(result({ totalDeferred: 1 }))).toContain('1 deferred tool is available to search.');
    expect(formatSearchResult(result({ totalDeferred: 2 }))).toContain('2 deferred tools are available to search.');
    expect(connectedLine('toolsearch', 1)).toBe('connected to "toolsearch" (1 tool)');
    const gaveUp = failureOutcome('boom', { kind: 'give-up' } as never, {
      reconnect: true,
      dropped: false,
      attempts: 2,
    });
    expect(gaveUp.log.message).toBe('boom (gave up after 1 retry)');
  });

  it('no "(s)" plural template is left in a string in src/', () => {
    const offenders = sourceFiles(join(root, 'src')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line: line.trim(), at: `${relative(root, file)}:${i + 1}` }))
        .filter(({ line }) => !line.startsWith('//') && !line.startsWith('*') && !line.startsWith('/*'))
        .filter(({ line }) => stringParts(line).some((part) => /[a-z]\(s\)/.test(part)))
        .map(({ at, line }) => `${at}: ${line}`),
    );
    expect(offenders).toEqual([]);
  });
});

describe('failed servers and the gateway retry', () => {
  it('the text the model reads does not say retrying will not help next to "(retrying in 4 s)"', () => {
    const text = formatFailedServers([
      { server: 'jira', reason: 'could not connect: exited with code 1 (retrying in 4 s)' },
    ]).join('\n');
    expect(text).toContain('retrying in 4 s');
    expect(text).not.toMatch(/retrying will not help/);
    expect(text).toMatch(/searching or calling again sooner will not help/);
  });
});
