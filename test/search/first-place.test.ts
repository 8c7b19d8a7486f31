/**
 * C15: the first hit is the tool the request means. Over the live tool lists of real npm MCP
 * servers (the everyday fixture) and small catalogs, each rule with it on and off: behaviour, not
 * numbers (the numbers are bench/everyday-ablation.ts's).
 */
import { describe, expect, it } from 'vitest';
import { formatExplanation } from '../../src/search/explain.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import { type DefaultRankerOptions, defaultRanker } from '../../src/search/rank-default/index.js';
import {
  actionNames,
  agreement,
  incidentalVerbs,
  nounUse,
  requestActions,
  toolActions,
} from '../../src/search/rank-default/action-agreement.js';
import { weightedQueryTerms } from '../../src/search/rank-default/expansion.js';
import { MAX_SERVER_TEXT } from '../../src/search/rank-default/server-documents.js';
import { tellingSense } from '../../src/search/rank-default/verb-senses.js';
import { words } from '../../src/search/text.js';
import { stem } from '../../src/search/vocabulary.js';
import { extendedCatalog, realTools } from '../fixtures/real-servers/index.js';
import { mcp, ranked, topReal } from './helpers.js';

const tools = realTools();
const top = topReal;
const noAgreement = { actionDisagreeFactor: 1, unaskedDestructiveFactor: 1 };
const actions = (text: string, question = false) => actionNames(requestActions(text, question));

describe('C15: a request and a tool agree on the action', () => {
  it('C15: a request verb is read in a verb place, not from a noun that shares its stem', () => {
    expect(actions('list my notes')).toBe('read');
    expect(actions('note that the deploy key rotates monthly')).toBe('create');
    expect(actions('show the updates')).toBe('read');
    expect(actions('a list of everyone in the workspace')).toBe('');
    expect(actions('memory add entity Northwind')).toBe('create');
    expect(actions('get rid of the old branch')).toBe('delete');
    expect(actions('file a ticket for the broken login')).toBe('create');
    expect(actions('open a github issue')).toBe('create');
    expect(actions("don't forget that Maria is vegetarian")).toBe('create');
    expect(actions('remember that my dog is called Rex')).toBe('create');
    // A question asks to know: its verbs are what it asks about.
    expect(actions('who deleted the release branch?', true)).toBe('');
    // Values are not verbs: the path's "build" builds nothing.
    expect(actions('gh api repos/kubernetes/kubernetes/contents/build/Dockerfile')).toBe('');
    // Running an SQL statement is querying: a query tool agrees as much as one that executes.
    expect(actions('run SELECT id FROM orders WHERE total > 100')).toBe('read or run');
  });

  it('C15: a delete or stop tool is destructive unasked; a tool of another action disagrees', () => {
    const create = requestActions('add a note');
    const [del, update, read, add] = toolActions(
      [[0], [1], [2], [3]],
      new Map([
        ['delet', 0],
        ['updat', 1],
        ['get', 2],
        ['add', 3],
      ]),
    );
    expect(agreement(create, del!)).toBe('destroys');
    expect(agreement(create, update!)).toBe('disagrees');
    expect(agreement(create, read!)).toBe('disagrees');
    expect(agreement(create, add!)).toBe('agrees');
    expect(agreement(0, del!)).toBe('destroys');
    expect(agreement(0, read!)).toBe('neutral');
    expect(agreement(requestActions('delete the note'), del!)).toBe('agrees');
  });

  it('C15: "remember that my dog is called Rex" adds a fact; no delete tool in the top 3', () => {
    const query = 'remember that my dog is called Rex';
    const hits = top(query, 3);
    expect(hits[0]).toBe('memory/add_observations');
    expect(hits).toContain('memory/create_entities');
    expect(hits.some((id) => id.includes('delete'))).toBe(false);
    expect(top(query, 3, noAgreement)).toContain('memory/delete_observations');
  });

  it('C15: "open a github issue" creates one', () => {
    expect(top('open a github issue', 1)).toEqual(['github/create_issue']);
    expect(top('open a github issue', 1, noAgreement)).not.toEqual(['github/create_issue']);
  });

  it('C15: explain says why a tool counts for less', () => {
    const index = defaultRanker().build(tools);
    const query = parseKeywordQuery('remember that my dog is called Rex');
    const name = 'mcp__memory__delete_observations';
    const [why] = index.explain!(query, [name]);
    expect(why!.action).toMatchObject({ tool: 'delete', request: 'create', verdict: 'destroys' });
    expect(formatExplanation(why!).join('\n')).toContain(
      'destructive action unasked: delete for a request to create, so its score counts ×0.6',
    );
  });
});

describe('C15: stems that collide with action words', () => {
  it('C15: Porter merges these nouns with a verb; the tokenizer keeps them apart', () => {
    expect(stem('news')).not.toBe(stem('new'));
    expect(stem('terminal')).not.toBe(stem('terminate'));
    expect(stem('general')).not.toBe(stem('generate'));
    expect(stem('settings')).not.toBe(stem('set'));
    // Forms of the verb itself still meet.
    expect(stem('terminated')).toBe(stem('terminate'));
    expect(stem('generated')).toBe(stem('generate'));
  });

  it('C15: "the terminal" reaches no tool that terminates', () => {
    const catalog = [
      mcp('shell', 'kill_process', 'Terminate a running process by PID.'),
      mcp('shell', 'start_process', 'Start a new terminal process with a command.'),
    ];
    expect(ranked(catalog, 'open a terminal')).toEqual(['mcp__shell__start_process']);
  });

  it('C15: an action word used as a noun takes no verb synonyms ("any updates", "the list")', () => {
    const asNoun = weightedQueryTerms('any updates on the launch', 0.3);
    const asVerb = weightedQueryTerms('update the launch notes', 0.3);
    expect(asVerb.has(stem('edit'))).toBe(true);
    expect(asNoun.has(stem('edit'))).toBe(false);
    expect(nounUse(['show', 'my', 'notes'], 2)).toBe(true);
    expect(nounUse(['list', 'my', 'notes'], 0)).toBe(false);
    expect(nounUse(['a', 'list', 'of', 'users'], 1)).toBe(true);
    expect(nounUse(['show', 'details'], 1)).toBe(false);
  });

  it('C15: "let the team know" sends a message, though both words are stop words', () => {
    expect(tellingSense(words('let the team know in #general that the deploy is done'))).toContain(stem('send'));
    expect(tellingSense(words('let me know when it is done'))).toBeUndefined();
    expect(top('Let the team know in #general that the deploy is done', 1)).toEqual(['slack/slack_post_message']);
  });
});

describe('C15: incidental name matches do not beat the object of the request', () => {
  it('C15: a verb of tool names that is not the request action describes its object', () => {
    expect([...incidentalVerbs('how many open issues are there', true)]).toEqual([stem('open')]);
    expect([...incidentalVerbs('list open issues', false)]).toEqual([stem('open')]);
    expect([...incidentalVerbs('open a github issue', false)]).toEqual([]);
    expect([...incidentalVerbs('find and delete the old logs', false)]).toEqual([]);
  });

  it('C15: "how many open issues" reaches the issue tools, not memory\'s open_nodes', () => {
    const off = { incidentalVerbsNameNothing: false, incidentalVerbWeight: 1 };
    expect(top('how many open issues are there', 1)).toEqual(['github/list_issues']);
    expect(top('how many open issues are there', 1, off)).toEqual(['memory/open_nodes']);
  });

  it('C15: "find out" learns something; it does not find text on a page', () => {
    expect(top('find out how many stars the repo has', 3)).not.toContain('playwright/browser_find');
  });

  it('C15: explain shows the incidental word lowered and naming no part', () => {
    const index = defaultRanker().build(tools);
    const [why] = index.explain!(parseKeywordQuery('how many open issues are there'), ['mcp__memory__open_nodes']);
    expect(why!.nameMatch?.matched).toEqual([]);
    expect(why!.terms?.find((t) => t.term === stem('open'))?.origin).toBe('describes the object');
  });
});

describe("C15: a server's own text and catch-all tools", () => {
  const extended = extendedCatalog();
  const extendedIds = new Map(extended.tools.map((t) => [t.name, t.id]));
  const topExtended = (query: string, options: Partial<DefaultRankerOptions> = {}) =>
    defaultRanker(options)
      .build(extended.tools, { servers: extended.servers })
      .search(parseKeywordQuery(query), 5)
      .map((r) => extendedIds.get(r.name)!);

  it('C15: a plain question reaches the catch-all "ask" tools of real servers (one with a one-line description)', () => {
    const hits = topExtended("what's the capital of Australia?");
    expect(hits).toContain('perplexity/perplexity_ask');
    expect(hits).toContain('perplexity-ask/perplexity_ask');
    expect(topExtended("what's the capital of Australia?", { questionAnswerWeight: 0 })).not.toContain(
      'perplexity-ask/perplexity_ask',
    );
  });

  it('C15: a catch-all does not beat a tool whose own words match the question', () => {
    expect(topExtended('which files are in my Downloads folder?')[0]).toBe('filesystem/list_directory');
  });

  it("C15: a tool its words do not reach is found through its server's instructions", () => {
    const catalog = [
      mcp('oracle', 'consult', 'Consult the oracle.'),
      mcp('maps', 'search_places', 'Search for places near a location.'),
      mcp('files', 'read_file', 'Read a file from disk.'),
    ];
    const servers = new Map([
      ['oracle', { description: 'Answers trivia about world geography, rivers and capitals.' }],
    ]);
    const search = (options: Partial<DefaultRankerOptions>) =>
      defaultRanker(options)
        .build(catalog, { servers })
        .search(parseKeywordQuery('longest river in Africa'), 5)
        .map((r) => r.name);
    expect(search({})).toContain('mcp__oracle__consult');
    expect(search({ serverTextWeight: 0 })).not.toContain('mcp__oracle__consult');
    const index = defaultRanker().build(catalog, { servers });
    const [why] = index.explain!(parseKeywordQuery('longest river in Africa'), ['mcp__oracle__consult']);
    expect(formatExplanation(why!).join('\n')).toContain('what server "oracle" says about itself matches');
  });
});

describe("C15/G5: a server's own text is bounded", () => {
  it('C15: only the first MAX_SERVER_TEXT characters of the instructions count', () => {
    const catalog = [mcp('oracle', 'consult', 'Consult the oracle.'), mcp('files', 'read_file', 'Read a file.')];
    const long = `${'lorem ipsum '.repeat(Math.ceil(MAX_SERVER_TEXT / 12))}zanzibar`;
    const search = (description: string) =>
      defaultRanker()
        .build(catalog, { servers: new Map([['oracle', { description }]]) })
        .search(parseKeywordQuery('zanzibar'), 5)
        .map((r) => r.name);
    expect(search('Knows everything about zanzibar.')).toEqual(['mcp__oracle__consult']);
    expect(search(long)).toEqual([]);
  });
});
