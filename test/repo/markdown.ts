/**
 * What the docs test reads out of a Markdown file: its headings (as GitHub anchors), its links, and
 * its code (inline spans and fenced lines, each with the heading it sits under). A small reader for
 * the subset the repository's docs use, not a full CommonMark parser.
 */

export interface Heading {
  readonly level: number;
  readonly text: string;
}

export interface Link {
  readonly target: string;
  readonly line: number;
}

export interface CodeSegment {
  readonly text: string;
  readonly line: number;
  /** An inline span (`…`), or a line of a fenced block. */
  readonly inline: boolean;
  /** The nearest heading above it (empty before the first). */
  readonly heading: string;
}

export interface MarkdownFile {
  readonly headings: readonly Heading[];
  readonly anchors: ReadonlySet<string>;
  readonly links: readonly Link[];
  readonly code: readonly CodeSegment[];
}

const FENCE = /^\s*(```|~~~)/;
const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const INLINE_CODE = /(`+)([\s\S]*?[^`])\1(?!`)/g;
const LINK = /\[(?:[^\][]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
    .replace(/ /g, '-');
}

export function readMarkdown(text: string): MarkdownFile {
  const headings: Heading[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const links: Link[] = [];
  const code: CodeSegment[] = [];
  let fenced = false;
  let heading = '';
  // Inline code and links may wrap onto the next line: read them per paragraph.
  let paragraph: string[] = [];
  let paragraphStart = 0;
  const flush = () => {
    const joined = paragraph.join('\n');
    const lineAt = (offset: number) => paragraphStart + (joined.slice(0, offset).match(/\n/g)?.length ?? 0);
    for (const span of joined.matchAll(INLINE_CODE))
      code.push({ text: span[2]!.replace(/\s*\n\s*/g, ' '), line: lineAt(span.index), inline: true, heading });
    const prose = joined.replace(INLINE_CODE, (span) => span.replace(/[^\n]/g, ' '));
    for (const link of prose.matchAll(LINK)) links.push({ target: link[1]!, line: lineAt(link.index) });
    paragraph = [];
  };
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    if (FENCE.test(raw)) {
      flush();
      fenced = !fenced;
      return;
    }
    if (fenced) {
      code.push({ text: raw, line, inline: false, heading });
      return;
    }
    const match = HEADING.exec(raw);
    if (match || raw.trim() === '') flush();
    if (match) {
      heading = match[2]!;
      headings.push({ level: match[1]!.length, text: heading });
      const base = slug(heading);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
    }
    if (raw.trim() === '') return;
    if (paragraph.length === 0) paragraphStart = line;
    paragraph.push(raw);
    if (match) flush();
  });
  flush();
  return { headings, anchors, links, code };
}
