/**
 * C14 — the kinds of value a request carries. A request often gives the argument rather than the
 * operation: "pull up logs/app.log", "what did a1b2c3d change", "open https://acme.com/pricing",
 * "the screenshot error.png", "SELECT count(*) FROM users". The value's shape says which kind of
 * tool takes it — a file path goes to a tool with a path, a URL to one that fetches or navigates, a
 * commit hash to a git tool, an SQL statement to one that runs queries — in
 * the words tool texts use for those arguments. Shapes only, no word lists of any request set: each
 * pattern is the notation itself (a file extension, a scheme, hex digits), so it holds for any
 * catalog.
 */

/** One kind of value found in a request: the text that showed it and the stems it implies. */
export interface ValueShape {
  readonly kind: 'url' | 'file' | 'image' | 'commit' | 'email' | 'time' | 'sql' | 'write' | 'ticket' | 'repo' | 'day';
  readonly text: string;
  /** Words that tools taking such a value use for it (stemmed by the caller). */
  readonly implies: readonly string[];
}

/** `scheme://…` or `www.…`: a web address whatever its domain. */
const URL_WITH_SCHEME = /\b(?:https?:\/\/|www\.)[^\s"'<>]+/i;
/**
 * A bare domain with a path or a common top-level domain ("acme.com/pricing", "example.org").
 * The list is the generic and most used country domains; a file extension is never one of them
 * (".md" is Moldova, but "README.md" is a file), so ambiguous ones are left out.
 */
const BARE_DOMAIN =
  /(?:^|[\s(<"'])(?:[a-z0-9-]+\.)+(?:com|org|net|io|dev|app|ai|co|edu|gov|uk|de|fr|info|biz)(?:\/[^\s"'<>]*)?(?=$|[\s)>"',.!?:;])/i;

/** Both address patterns, every match: a URL's text is taken out before files are looked for. */
const ANY_URL = new RegExp(`${URL_WITH_SCHEME.source}|${BARE_DOMAIN.source}`, 'gi');

/** File extensions people name files by: documents, data, code, logs, archives, media. */
const FILE_EXTENSIONS =
  'txt|md|markdown|rst|json|jsonl|yaml|yml|toml|ini|cfg|conf|env|csv|tsv|xml|html|htm|css|log|js|mjs|cjs|ts|tsx|jsx|py|rb|go|rs|java|kt|c|h|cpp|hpp|cs|php|sh|bash|zsh|sql|lock|pdf|doc|docx|xls|xlsx|ppt|pptx|odt|rtf|zip|tar|gz|tgz|bz2|7z|png|jpe?g|gif|webp|bmp|svg|ico|tiff?|heic|mp3|wav|ogg|flac|m4a|mp4|mov|avi|mkv|webm';
/** A file name with an extension, or a path that starts at home, the current or the root folder. */
const FILE_NAME = new RegExp(
  `(?:^|[\\s("'\`])((?:~|\\.{1,2})?\\/?[\\w.@-]*(?:\\/[\\w.@-]+)*\\.(?:${FILE_EXTENSIONS}))(?=$|[\\s)"'\`,!?:;]|\\.(?:\\s|$))`,
  'i',
);
const ROOTED_PATH = /(?:^|[\s("'`])((?:~|\.{1,2})?\/[\w.@-]+(?:\/[\w.@-]*)*)/;
const IMAGE_EXTENSION = /\.(?:png|jpe?g|gif|webp|bmp|svg|ico|tiff?|heic)$/i;

/**
 * A commit hash: 7 to 40 hex digits holding both a digit and a letter, standing alone (not inside
 * a longer token or a hyphenated id such as a UUID).
 */
const COMMIT_HASH = /(?:^|[\s(`'"])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)([0-9a-f]{7,40})(?=$|[\s)`'",.!?:;])/i;

const EMAIL = /\b[\w.+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+\b/i;

/** A clock time ("10am", "9:30", "14:00") or an ISO date ("2026-03-01"). */
const CLOCK_OR_DATE = /\b(?:\d{1,2}(?::\d{2})?\s?(?:am|pm)|\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2})\b/i;

/**
 * A day of one's week ("Thursday", "tomorrow"): what people plan by, so a request naming one is
 * about their calendar's events (a birth date or a log's timestamp is written as a date instead).
 */
const WEEKDAY = /\b(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|tomorrow)\b/i;

/**
 * A code host's `owner/name` ("vercel/next.js", "acme/api#482"): two names joined by one slash,
 * not a rooted or relative path (no leading /, ~ or .), with no further slash, the name not a
 * file name. A two-folder path ("src/hooks") and a branch ("feature/login") have the same shape
 * and are read as a repository too: at half weight, "repository" and "owner" lift the code host's
 * tools (which take an owner) a little over local git's (measured on the everyday sets, issue 31).
 */
const OWNER_REPO = /(?:^|[\s(`'"])([a-z0-9][\w-]*\/[a-z0-9][\w.-]*?)(#\d+)?(?=$|[\s)`'",!?:;]|\.(?:\s|$))/i;

/** Every owner/repo, for taking them out as values. */
const ANY_OWNER_REPO = new RegExp(OWNER_REPO.source, 'gi');

/** A shell redirect into a file ("echo … > notes.txt", ">> results.txt"): the command writes it. */
const REDIRECT = /(?:^|\s)(>>?)\s*[\w~./-]+\s*$/;

/**
 * A tracker's issue key: a project's capital letters, a dash and a number ("ENG-88", "ONB-12"),
 * the notation Linear and Jira share. Standards and versions written the same way are not keys.
 */
const ISSUE_KEY = /(?:^|[\s(`'"])([A-Z][A-Z0-9]{1,9}-\d{1,6})(?=$|[\s)`'",.!?:;])/;
const NOT_ISSUE_KEYS = new Set([
  'UTF',
  'SHA',
  'ISO',
  'RFC',
  'CVE',
  'COVID',
  'MP',
  'GPT',
  'PEP',
  'ES',
  'TLS',
  'SSL',
  'HTTP',
  'IPV',
]);

/**
 * An SQL statement: its opening keyword, what it names (a column list, `*`, a table) and the clause
 * keyword every such statement has ("select the rows you want from the list" is English: its
 * words between select and from are no column list).
 */
const SQL_STATEMENT =
  /\b(?:select\s+(?:distinct\s+)?(?:\*|[\w.]+\s*\([^)]*\)|[\w.]+)(?:\s*,\s*(?:\*|[\w.]+\s*\([^)]*\)|[\w.]+))*\s+from\s+[\w."]+|insert\s+into\s+[\w."]+|update\s+[\w."]+\s+set\s+\w+\s*=|delete\s+from\s+[\w."]+|(?:create|alter|drop)\s+(?:table|index|view)\s+[\w."]+)/i;

/** Longest text read for values (plain requests are far shorter; past it, none are read). */
export const MAX_VALUE_SHAPE_CHARS = 2_000;

/**
 * The kinds of value in `text`, at most one of each kind. A file name inside a URL is the URL's
 * ("acme.com/report.pdf" is a web address), so files are looked for in the text without its URLs.
 */
export function valueShapes(text: string): ValueShape[] {
  const out: ValueShape[] = [];
  // G5: the file and domain patterns backtrack over runs of dots and dashes, so the cost grows with
  // the square of a run's length; a request with values to read is short.
  if (text.length > MAX_VALUE_SHAPE_CHARS) return out;
  let rest = text;
  const url = URL_WITH_SCHEME.exec(text) ?? BARE_DOMAIN.exec(text);
  if (url) {
    out.push({ kind: 'url', text: url[0].trim(), implies: ['url'] });
    rest = rest.replace(ANY_URL, ' ');
  }
  const file = FILE_NAME.exec(rest) ?? ROOTED_PATH.exec(rest);
  if (file) {
    const name = file[1]!;
    out.push({ kind: 'file', text: name, implies: ['file', 'path'] });
    if (IMAGE_EXTENSION.test(name)) out.push({ kind: 'image', text: name, implies: ['image'] });
  }
  const hash = COMMIT_HASH.exec(rest);
  if (hash) out.push({ kind: 'commit', text: hash[1]!, implies: ['commit'] });
  const email = EMAIL.exec(rest);
  if (email) out.push({ kind: 'email', text: email[0], implies: ['email'] });
  const sql = SQL_STATEMENT.exec(rest);
  if (sql) out.push({ kind: 'sql', text: sql[0], implies: ['sql', 'query'] });
  const repo = OWNER_REPO.exec(rest);
  if (repo && !file?.[1]?.includes(repo[1]!))
    out.push({ kind: 'repo', text: repo[0].trim(), implies: ['repository', 'owner'] });
  const redirect = REDIRECT.exec(rest);
  if (redirect) out.push({ kind: 'write', text: redirect[0].trim(), implies: ['write', 'file'] });
  const key = ISSUE_KEY.exec(rest);
  if (key && !NOT_ISSUE_KEYS.has(key[1]!.slice(0, key[1]!.indexOf('-'))))
    out.push({ kind: 'ticket', text: key[1]!, implies: ['issue'] });
  const when = CLOCK_OR_DATE.exec(rest);
  if (when) out.push({ kind: 'time', text: when[0], implies: ['time', 'date'] });
  const day = WEEKDAY.exec(rest);
  if (day) out.push({ kind: 'day', text: day[0], implies: ['event'] });
  return out;
}

/**
 * Quoted text: what to type, the label to find, the title to give ("type 'quarterly report' into
 * the search box", "is there a 'Cancel subscription' link"). The opening quote follows a space or
 * the start and the closing one precedes a space, punctuation or the end, so an apostrophe inside a
 * word ("don't", "user's") opens nothing.
 */
const QUOTED =
  /(?:^|[\s([{:=])(?:'([^'\n]{1,200})'|"([^"\n]{1,200})"|`([^`\n]{1,200})`|‘([^’\n]{1,200})’|“([^”\n]{1,200})”)(?=$|[\s)\]}.,!?:;])/g;

/** The parts of a request that are values, not words for the tool: an SQL statement, quoted text, web addresses, owner/repo names. */
export interface ValueSpans {
  /** The texts of the spans. */
  readonly spans: readonly string[];
  /** The request with the spans taken out. */
  readonly rest: string;
  /** Whether one span is an SQL statement (its words are a query's, whatever else the request says). */
  readonly sql: boolean;
}

/**
 * C14: the spans of `text` that are values. An SQL statement runs from its keyword to the end of
 * the request ("SELECT … FROM orders WHERE status = 'pending'"): its table and column names say
 * what the data is, not which tool runs it. In a plain request (`plain`), quoted phrases, web
 * addresses and owner/repo names are values too: "https://staging.acme.io/login" is not about
 * staging or logins, "acme/checkout-web" not about checkouts. (In a long task a quoted phrase is
 * often the API's own name, "the 'Get Productos' API"; a single quoted word names what the tool
 * serves, "the word "kalem"".) File paths are not taken out: their folders often say what the
 * file is ("/root/pdf/…", "the /root/git directory"), and lowering them cost LiveMCPBench 0.008
 * (bench/README.md, issue 31). Read only up to MAX_VALUE_SHAPE_CHARS, like the shapes.
 */
export function valueSpans(text: string, plain = true): ValueSpans {
  if (text.length > MAX_VALUE_SHAPE_CHARS) return { spans: [], rest: text, sql: false };
  const spans: string[] = [];
  let rest = text;
  const sql = SQL_STATEMENT.exec(text);
  if (sql) {
    spans.push(text.slice(sql.index));
    rest = text.slice(0, sql.index);
  }
  if (!plain) return { spans, rest, sql: sql !== null };
  rest = rest.replace(QUOTED, (match, ...groups: (string | undefined)[]) => {
    const quoted = groups.slice(0, 5).find((g) => g !== undefined)!;
    // One quoted word is a name the tool may serve ("the word "kalem"", "symbol 'usd-eur'"); a
    // phrase is text to type, send or find ('quarterly report', 'Cancel subscription').
    if (!/\S\s+\S/.test(quoted)) return match;
    spans.push(quoted);
    return ' ';
  });
  rest = rest.replace(ANY_URL, (url) => {
    spans.push(url);
    return ' ';
  });
  rest = rest.replace(ANY_OWNER_REPO, (match, name: string) => {
    if (FILE_NAME.test(` ${name}`)) return match;
    spans.push(name);
    return match.replace(name, ' ');
  });
  return { spans, rest, sql: sql !== null };
}
