/**
 * C14: what a plain request means beyond its words — the kind of product a server is, the parts of
 * a request that are values, the assistant's own memory, a short request that names no action.
 * Over the live tool lists of real npm MCP servers (the everyday fixture), each rule with it on and
 * off: behaviour, not numbers.
 */
import { describe, expect, it } from 'vitest';
import { formatExplanation } from '../../src/search/explain.js';
import { productWords } from '../../src/search/products.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import { DEFAULT_RANKER_OPTIONS, defaultRanker } from '../../src/search/rank-default/index.js';
import { valueOnlyStems } from '../../src/search/rank-default/expansion.js';
import { namesNoAction } from '../../src/search/rank-default/question-intent.js';
import { valueShapes } from '../../src/search/rank-default/value-shapes.js';
import { phrasalSenses } from '../../src/search/rank-default/phrasal-verbs.js';
import {
  arithmeticSense,
  assistantMemorySense,
  leadingVerbSense,
  movedInTime,
} from '../../src/search/rank-default/verb-senses.js';
import { words } from '../../src/search/text.js';
import { mcp, ranked, topReal } from './helpers.js';

const top = topReal;
const noProduct = { fields: { ...DEFAULT_RANKER_OPTIONS.fields, product: 0 } };

describe('C14: what a product is', () => {
  it('C14: a server named after a known product gets that kind of thing; other names get nothing', () => {
    expect(productWords('postgres')).toContain('database');
    expect(productWords('google-maps')).toContain('map');
    expect(productWords('desktop-commander')).toContain('terminal');
    expect(productWords('acme-internal')).toEqual([]);
  });

  it('C14: "our database" reaches the Postgres server, whose one tool only says SQL', () => {
    const query = 'Which tables exist in the public schema of our database?';
    expect(top(query, 5)).toContain('postgres/query');
    expect(top(query, 10, noProduct)).not.toContain('postgres/query');
  });

  it('C14: product words weigh nothing on the words tools say themselves (weight 0 ranks as before)', () => {
    const catalog = [
      mcp('postgres', 'query', 'Run a read-only SQL query'),
      mcp('notes', 'list_tables', 'List the tables of a note'),
      mcp('notes', 'read_note', 'Read a note'),
    ];
    const renamed = catalog.map((t) => (t.name === 'mcp__postgres__query' ? mcp('pgx', 'query', t.description) : t));
    const names = (list: string[]) => list.map((n) => n.replace('pgx', 'postgres'));
    for (const query of ['list tables', 'run a query', 'read note'])
      expect(names(ranked(catalog, query, noProduct))).toEqual(names(ranked(renamed, query, noProduct)));
  });

  it('C14: rare-word expansion never lands on a word only product fields hold', () => {
    const catalog = [
      mcp('slack', 'slack_get_users', 'List the people in a workspace.'),
      mcp('notion', 'API-get-users', 'Returns a list of the users of a workspace.'),
    ];
    const [hit] = defaultRanker().build(catalog).explain!(
      parseKeywordQuery('who are the people in our notion workspace?'),
      ['mcp__slack__slack_get_users'],
    );
    expect(formatExplanation(hit!).join('\n')).not.toMatch(/in product .*expansion of/);
  });
});

describe('C14: the values of a request are not words for its tool', () => {
  const lowered = (text: string) => [...valueOnlyStems(text)].sort();

  it('C14: quoted phrases, web addresses and SQL statements are values; a quoted single word is a name', () => {
    expect(lowered("Type 'quarterly report' into the search box")).toEqual(['quarterli', 'report']);
    expect(lowered('open https://staging.acme.io/login')).toEqual(expect.arrayContaining(['stage', 'login']));
    expect(lowered('SELECT count(*) FROM events')).toEqual(expect.arrayContaining(['count', 'event']));
    expect(lowered('File a bug on acme/checkout-web: the button does nothing')).toEqual(['acm', 'checkout', 'web']);
    expect(lowered('the word "kalem"')).toEqual([]);
    expect(lowered('"read a file"')).toEqual([]);
    expect(lowered("don't touch the user's files")).toEqual([]);
  });

  it('C14: an SQL statement goes to the SQL tool, not to the tools its table is named like', () => {
    expect(top('SELECT count(*) FROM events', 1)).toEqual(['postgres/query']);
    expect(top('SELECT count(*) FROM events', 1, { valueWordWeight: 1 })).not.toEqual(['postgres/query']);
  });

  it('C14: an SQL statement is run whatever the length of the request', () => {
    const query = 'run SELECT customer_id, SUM(total) FROM orders GROUP BY 1 ORDER BY 2 DESC LIMIT 10';
    expect(words(query).length).toBeGreaterThan(16);
    expect(top(query, 1)).toEqual(['postgres/query']);
  });

  it('C14: a phrase to type does not pull tools named like it', () => {
    const catalog = [
      mcp('browser', 'browser_type', 'Type text into editable element'),
      mcp('reports', 'quarterly_report', 'Build the quarterly report'),
    ];
    const query = "type 'quarterly report' into the search box";
    expect(ranked(catalog, query)[0]).toBe('mcp__browser__browser_type');
    expect(ranked(catalog, query, { valueWordWeight: 1 })[0]).toBe('mcp__reports__quarterly_report');
  });

  it('C14: more shapes: owner/repo, a tracker key, a redirect into a file, a weekday', () => {
    const kinds = (text: string) => valueShapes(text).map((s) => s.kind);
    expect(kinds('what changed in facebook/react lately')).toContain('repo');
    expect(kinds('Move ENG-88 to In Review')).toContain('ticket');
    expect(kinds('UTF-8 everywhere')).not.toContain('ticket');
    expect(kinds("echo 'done' >> results.txt")).toContain('write');
    expect(kinds('push the standup to Thursday')).toContain('day');
  });
});

describe('C14: a calculation on two numbers', () => {
  it('C14: an operation next to two bare numbers means the calculation, not "add" as in "add a comment"', () => {
    for (const text of ['add 2 and 3', "What's 17 plus 25?", 'add 17 25', 'multiply 6 by 7', 'subtract 3 from 10'])
      expect(arithmeticSense(text), text).toBeDefined();
    for (const text of [
      'add a comment to issue 12',
      "gcal add '1:1 with Ravi' fri 10:00 30m",
      'SELECT customer_id, sum(total) FROM orders GROUP BY 1 ORDER BY 2 DESC LIMIT 10',
      'add 3 people to the channel',
    ])
      expect(arithmeticSense(text), text).toBeUndefined();
  });

  it('C14: "add 2 and 3" puts the sum tool first over the real catalog', () => {
    expect(top('add 2 and 3', 1)).toEqual(['everything/get-sum']);
    expect(top('what do I know about Bob', 3).every((id) => id.startsWith('memory/'))).toBe(true);
  });
});

describe("C14: the assistant's own memory", () => {
  it('C14: phrases that address what the assistant keeps imply its memory', () => {
    for (const text of [
      'what do you know about Northwind?',
      'Keep in mind that Carol is Dave’s manager',
      'For future reference: I prefer tabs',
      'Which of the people I told you about know Python?',
      'Note that the Atlas project depends on Billing',
      'forget my address',
      'You already know Marco. Record that Marco leads Atlas',
      'That detail you stored about Sam is wrong',
      'what do I know about Bob',
    ])
      expect(assistantMemorySense(text), text).toBeDefined();
    for (const text of ['take a note in Notion about the launch', 'do you have git installed?'])
      expect(assistantMemorySense(text), text).toBeUndefined();
  });

  it('C14: "what you know about" reaches the memory server', () => {
    const query = 'Is anyone you know about connected to Globex?';
    expect(top(query, 3).some((id) => id.startsWith('memory/'))).toBe(true);
    expect(top(query, 3, { impliedWeight: 0 }).some((id) => id.startsWith('memory/'))).toBe(false);
  });
});

describe('C14: a short request that names no action asks to see', () => {
  const noAction = (text: string) => namesNoAction(words(text));

  it('C14: a noun phrase names no action; a verb, a longer sentence or an action word does', () => {
    expect(noAction('project milestones due dates')).toBe(true);
    expect(noAction('dump memory')).toBe(true);
    expect(noAction('create project milestone')).toBe(false);
    expect(noAction('remember Dana: DevOps lead')).toBe(false);
    expect(noAction('the milestones of the project that are due before the end of the month')).toBe(false);
  });

  it('C14: the reading tool wins over the creating one', () => {
    const query = 'project milestones due dates';
    const get = (list: string[]) => list.indexOf('linear/linear_get_project_milestones');
    const create = (list: string[]) => list.indexOf('linear/linear_create_project_milestone') >>> 0;
    expect(get(top(query, 10))).toBeLessThan(create(top(query, 10)));
    expect(get(top(query, 10, { questionChangeFactor: 1 }))).toBeGreaterThan(
      create(top(query, 10, { questionChangeFactor: 1 })),
    );
  });
});

describe('C14: a phrasal verb means its own action', () => {
  const senses = (text: string) => phrasalSenses(words(text)).map((p) => p.phrase);

  it('C14: verb and particle, with a pronoun between them or not', () => {
    expect(senses('pull up the README of next.js')).toEqual(['pull up']);
    expect(senses('I need a gitignore, set one up')).toEqual(['set up']);
    expect(senses('get rid of the old monitor')).toEqual(['get rid']);
    expect(senses('push the standup to 10:30')).toEqual([]);
    expect(senses('pull the latest changes')).toEqual([]);
  });

  it('C14: "pull up" reads instead of pulling from a remote', () => {
    const query = 'Pull up the last 50 lines of logs/app.log';
    expect(top(query, 3)).not.toContain('git/git_pull');
    expect(top(query, 3).some((id) => /read_(text_)?file$/.test(id))).toBe(true);
  });

  it('C14: "leave a" / "drop a" add a new one; "drop the" keeps its own sense', () => {
    expect(leadingVerbSense(words('drop a comment on the roadmap page'))?.senses).toContain('creat');
    expect(leadingVerbSense(words('drop the users table'))).toBeUndefined();
    expect(leadingVerbSense(words('book a meeting with Bob'))?.senses).toContain('schedul');
    const query = 'Leave a comment on the Q4 Roadmap page in Notion';
    expect(top(query, 1)).toEqual(['notion/API-create-a-comment']);
  });
});

describe('C14: moving something to a time reschedules it', () => {
  it('C14: push or move with a clock time or a weekday stands for updating an event', () => {
    expect(movedInTime(words('push the standup to 10:30'), true)?.senses).toEqual(['updat', 'event', 'time']);
    expect(movedInTime(words('push the branch to origin'), false)).toBeUndefined();
    const query = 'Move my Thursday 1:1 with Sam to 4pm';
    expect(top(query, 3)).toContain('google-calendar/update-event');
    expect(top(query, 3).some((id) => id.endsWith('move_file'))).toBe(false);
    expect(top('move notes.txt into archive/', 1)[0]).toMatch(/move_file$/);
  });

  it('C14: "take back" undoes', () => {
    expect(phrasalSenses(words('take back the last commit')).map((p) => p.phrase)).toEqual(['take back']);
    expect(top('Take back the last commit but leave my edits in place', 3)).toContain('git/git_reset');
  });
});
