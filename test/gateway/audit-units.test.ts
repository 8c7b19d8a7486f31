/** G9 — the audit log's rules without a gateway: redaction, rotation, bounded memory, searches settled on session close. */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AuditLog, auditOptions, redactSecrets } from '../../src/gateway/status/audit.js';
import { OperationsEvents, type ToolCallEvent } from '../../src/gateway/status/events.js';
import { boundedLabel } from '../../src/gateway/status/metrics.js';

const call = (i: number): ToolCallEvent => ({
  type: 'tool-call',
  time: Date.now(),
  sessionId: 's1',
  server: 'alpha',
  tool: `mcp__alpha__t${i}`,
  durationMs: 1.25,
  outcome: 'ok',
  resultBytes: 10,
  arguments: { password: 'p', nested: { apiKey: 'k', keep: 1 } },
});

describe('G9 audit units', () => {
  it('G9: values under secret-looking keys are redacted at any depth', () => {
    expect(redactSecrets({ password: 'p', list: [{ Authorization: 'x', ok: 'y' }], n: { client_secret: 1 } })).toEqual({
      password: '[redacted]',
      list: [{ Authorization: '[redacted]', ok: 'y' }],
      n: { client_secret: '[redacted]' },
    });
  });

  it('G3: short and less obvious secret names, and URL or DSN passwords in any value, are redacted', () => {
    const names = ['pwd', 'key', 'jwt', 'bearer', 'otp', 'pin', 'ssn', 'card_number', 'DATABASE_URL', 'mnemonic'];
    const redacted = redactSecrets(Object.fromEntries(names.map((n) => [n, 'v']))) as Record<string, unknown>;
    for (const n of names) expect(redacted[n], n).toBe('[redacted]');
    expect(redactSecrets({ q: 'connect postgres://app:hunter22@db:5432/x now', count: 'kept' })).toEqual({
      q: 'connect postgres://app:[redacted]@db:5432/x now',
      count: 'kept',
    });
  });

  it('G9: the file rotates by size and keeps `keep` old files', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ts-audit-')), 'a.jsonl');
    const events = new OperationsEvents();
    const audit = new AuditLog(events, { file, maxBytes: 400, keep: 2 });
    for (let i = 0; i < 12; i++) {
      events.emit(call(i));
      await audit.flush();
    }
    await audit.close();
    expect(existsSync(`${file}.1`)).toBe(true);
    expect(existsSync(`${file}.2`)).toBe(true);
    expect(existsSync(`${file}.3`)).toBe(false);
    for (const name of [file, `${file}.1`]) expect(readFileSync(name, 'utf8').length).toBeLessThanOrEqual(400);
    expect(readFileSync(file, 'utf8')).toContain('mcp__alpha__t11');
    expect(readFileSync(file, 'utf8')).not.toContain('password');
  });

  it('G9: past `queue` pending records new ones are dropped and counted in a "dropped" record', async () => {
    const out: string[] = [];
    const events = new OperationsEvents();
    const audit = new AuditLog(events, { file: '-', queue: 3, stderr: (t) => out.push(t) });
    // Emitted in one tick: the writer takes the first record at once, the queue holds 3, 6 are dropped.
    for (let i = 0; i < 10; i++) events.emit(call(i));
    expect(audit.droppedRecords).toBe(6);
    await audit.flush();
    expect(audit.droppedRecords).toBe(0);
    expect(audit.droppedSinceStart).toBe(6);
    events.emit(call(10));
    await audit.close();
    const records = out
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.filter((r) => r['type'] === 'call')).toHaveLength(1 + 3 + 1);
    expect(records.find((r) => r['type'] === 'dropped')).toMatchObject({ records: 6 });
  });

  it('G9: a search is written when its session closes, as not followed', async () => {
    const out: string[] = [];
    const events = new OperationsEvents();
    const audit = new AuditLog(events, { file: '-', stderr: (t) => out.push(t) });
    events.emit({
      type: 'search',
      id: 1,
      time: 0,
      sessionId: 's',
      query: 'q',
      matches: ['a'],
      lowConfidence: false,
      durationMs: 1,
    });
    expect(out).toEqual([]);
    events.emit({ type: 'session', change: 'closed', sessionId: 's' });
    await audit.close();
    expect(JSON.parse(out.join(''))).toMatchObject({ type: 'search', query: 'q', followed: false, results: ['a'] });
  });

  it('G9: toolSearch.audit takes a file name or an object; anything else names the key', () => {
    expect(auditOptions('-', 'x.json')).toEqual({ file: '-' });
    expect(auditOptions({ file: 'a', arguments: true }, 'x.json')).toEqual({ file: 'a', arguments: true });
    expect(() => auditOptions({ path: 'a' }, 'x.json')).toThrow(/x\.json at "toolSearch\.audit"/);
  });

  it('G9: tool labels are capped, later names count as "other"', () => {
    const label = boundedLabel(2);
    expect([label('a'), label('b'), label('c'), label('a')]).toEqual(['a', 'b', 'other', 'a']);
  });
});
