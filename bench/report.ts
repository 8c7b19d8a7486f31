/** Shared bits of the bench reports: commit, date, Markdown numbers. */
import { execSync } from 'node:child_process';

export function commitId(): string {
  try {
    const id = execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim();
    const dirty = execSync('git status --porcelain -- src bench', { encoding: 'utf8' }).trim() !== '';
    return dirty ? `${id} (+ uncommitted changes)` : id;
  } catch {
    return 'unknown';
  }
}

export function header(title: string, command: string): string {
  return [
    `# ${title}`,
    '',
    `- date: ${new Date().toISOString()}`,
    `- commit: ${commitId()}`,
    `- command: \`${command}\``,
    `- node: ${process.version}`,
    '',
  ].join('\n');
}

export const f3 = (x: number) => x.toFixed(3);
