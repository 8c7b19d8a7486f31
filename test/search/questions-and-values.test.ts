/**
 * C14: two readings of a plain request that need no word list of any request set — a question asks
 * to know, so tools whose name is a change rank lower for it; a value the request carries (a file
 * path, a URL, a commit hash) says which kind of tool takes it. Small catalogs; behaviour, not numbers.
 */
import { describe, expect, it } from 'vitest';
import { formatExplanation } from '../../src/search/explain.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import { defaultRanker } from '../../src/search/rank-default/index.js';
import { asksToKnow, namesAChange } from '../../src/search/rank-default/question-intent.js';
import { MAX_VALUE_SHAPE_CHARS, valueShapes } from '../../src/search/rank-default/value-shapes.js';
import { words } from '../../src/search/text.js';
import { stem } from '../../src/search/vocabulary.js';
import { mcp, ranked } from './helpers.js';

const asks = (text: string) => asksToKnow(words(text), text.trimEnd().endsWith('?'));

describe('C14: a question asks to know', () => {
  it('C14: question words and a closing question mark make a question', () => {
    expect(asks('What did commit a1b2c3d change?')).toBe(true);
    expect(asks('Where does this repo push to')).toBe(true);
    expect(asks('Did anyone answer Maria in that thread?')).toBe(true);
    expect(asks('Alice said something about the VPN, any replies in the thread?')).toBe(true);
    expect(asks('how many open issues are there')).toBe(true);
  });

  it('C14: a polite request, a how-to and an imperative are not questions', () => {
    expect(asks('Can you create a folder called reports?')).toBe(false);
    expect(asks('I want to compare two files, could you open both of them?')).toBe(false);
    expect(asks('Is it possible to push this, please?')).toBe(false);
    expect(asks('How do I create a branch?')).toBe(false);
    expect(asks('create a branch called fix')).toBe(false);
    expect(asks('?')).toBe(false);
  });

  it('C14: a name is a change when it holds a changing verb and no reading one', () => {
    const change = (name: string) => namesAChange(words(name.replace(/_/g, ' ')).map(stem));
    expect(change('git_commit')).toBe(true);
    expect(change('reply_to_thread')).toBe(true);
    expect(change('create_pull_request_review')).toBe(true);
    expect(change('get_pull_request_reviews')).toBe(false);
    expect(change('git_show')).toBe(false);
    // Reading wins: a tool that lists what it would delete reads.
    expect(change('list_deleted_files')).toBe(false);
    expect(change('browser_snapshot')).toBe(false);
  });

  const git = [
    mcp('git', 'git_commit', 'Records changes to the repository.'),
    mcp('git', 'git_show', 'Shows what a commit changed.'),
    mcp('git', 'git_status', 'Shows the working tree status.'),
  ];

  it('C14: "what did the last commit change?" ranks the reading tool above the committing one', () => {
    expect(ranked(git, 'what did the last commit change?')[0]).toBe('mcp__git__git_show');
    // Off, the words "commit" and "change" win the committing tool.
    expect(ranked(git, 'what did the last commit change?', { questionChangeFactor: 1 })[0]).toBe(
      'mcp__git__git_commit',
    );
  });

  it('C14: the same words as a request keep the changing tool first', () => {
    expect(ranked(git, 'commit the changes')[0]).toBe('mcp__git__git_commit');
    expect(ranked(git, 'could you commit the changes?')[0]).toBe('mcp__git__git_commit');
  });

  it('C14: explain says when a question lowered a tool', () => {
    const index = defaultRanker().build(git);
    const [hit] = index.explain!(parseKeywordQuery('what did the last commit change?'), ['mcp__git__git_commit']);
    expect(formatExplanation(hit!).join('\n')).toMatch(/question: the request asks to know .* ×0\.7/);
  });
});

describe('C14: the values a request carries', () => {
  const kinds = (text: string) => valueShapes(text).map((s) => `${s.kind}:${s.text}`);

  it('C14: file paths and names, URLs, images, commit hashes, emails and times are read by shape', () => {
    expect(kinds('pull up the last 50 lines of logs/app.log')).toEqual(['file:logs/app.log']);
    expect(kinds('what is in ~/projects')).toEqual(['file:~/projects']);
    expect(kinds('the screenshot error.png')).toEqual(['file:error.png', 'image:error.png']);
    expect(kinds('watch acme.com/pricing daily')).toEqual(['url:acme.com/pricing']);
    // A file name inside a URL is the URL's.
    expect(kinds('open https://acme.com/report.pdf')).toEqual(['url:https://acme.com/report.pdf']);
    expect(kinds('what did a1b2c3d change')).toEqual(['commit:a1b2c3d']);
    expect(kinds('mail bob@example.com the notes')).toEqual(['email:bob@example.com']);
    expect(kinds('every Monday at 10am')).toEqual(['time:10am', 'day:Monday']);
    expect(kinds('SELECT count(*) FROM users')).toEqual(['sql:SELECT count(*) FROM users']);
  });

  it('C14: versions, ids inside longer tokens and plain words are no values', () => {
    expect(kinds('release version 2.1.0')).toEqual([]);
    expect(kinds('uuid 3f2a9c1e-77aa-4b1c')).toEqual([]);
    expect(kinds('deadbeef cafe')).toEqual([]);
    expect(kinds('read the config file')).toEqual([]);
    expect(kinds('select the rows you want from the list')).toEqual([]);
  });

  it('C14: a text past the bound is read for no values (the patterns backtrack on long runs)', () => {
    expect(kinds(`read ${'a.'.repeat(MAX_VALUE_SHAPE_CHARS)}txt`)).toEqual([]);
    expect(kinds(`read ${'a-'.repeat(100)}.txt`)).toHaveLength(1);
  });

  const tools = [
    mcp('fs', 'read_text_file', 'Read the contents of a text file, or only its last lines.', {
      inputSchema: { type: 'object', properties: { path: { type: 'string' }, tail: { type: 'number' } } },
    }),
    mcp('shell', 'read_process_output', 'Read the last lines a running process printed to its output.'),
    mcp('web', 'scrape', 'Scrape a web page and return its content as markdown.', {
      inputSchema: { type: 'object', properties: { url: { type: 'string' } } },
    }),
  ];

  it('C14: a file path in the request lifts the tool that takes a path', () => {
    const query = 'show me the last lines of logs/app.log';
    expect(ranked(tools, query)[0]).toBe('mcp__fs__read_text_file');
    expect(ranked(tools, query, { valueShapeWeight: 0 })[0]).toBe('mcp__shell__read_process_output');
  });

  it('C14: a web address lifts the tool that takes a URL', () => {
    expect(ranked(tools, 'what does acme.com/pricing say')[0]).toBe('mcp__web__scrape');
  });

  it('C14: a long task takes no value-shape words (its paths are mostly where to save)', () => {
    const task =
      'research the latest numbers, summarise them in a short table with sources and save the report to /root/out/report.md';
    expect(words(task).length).toBeGreaterThan(16);
    const index = defaultRanker().build(tools);
    const [hit] = index.explain!(parseKeywordQuery(task), ['mcp__fs__read_text_file']);
    expect(formatExplanation(hit!).join('\n')).not.toMatch(/file \/root/);
  });
});

describe('C14: command lines typed as requests', () => {
  const tools = [
    mcp('github', 'search_repositories', 'Search for GitHub repositories.'),
    mcp('web', 'web_search', 'Search the web for pages, repositories and documentation.'),
    mcp('fs', 'read_text_file', 'Read the complete contents of a text file.'),
    mcp('fs', 'delete_file', 'Delete a file.'),
  ];

  it('C14: a program name stands for what it does (gh → github, tail → read a file, rm → delete)', () => {
    expect(ranked(tools, 'gh search repos rust pdf')[0]).toBe('mcp__github__search_repositories');
    expect(ranked(tools, 'tail -n 50 app.log')[0]).toBe('mcp__fs__read_text_file');
    expect(ranked(tools, 'rm old.txt')[0]).toBe('mcp__fs__delete_file');
  });
});

describe('C14: a request that names a server', () => {
  const tools = [
    mcp('slack', 'slack_get_users', 'List the people in a workspace: every member of the workspace.'),
    mcp('slack', 'slack_post_message', 'Post a new message to a channel.'),
    mcp('notion', 'API-get-users', 'Returns a list of the users of a workspace.'),
    mcp('notion', 'API-retrieve-a-page', 'Retrieve a page.'),
    mcp('memory', 'create_entities', 'Create multiple new entities in the knowledge graph.'),
  ];

  it('C14: "people in our Notion workspace" lifts the Notion tools above the Slack ones', () => {
    const query = 'who are all the people in our notion workspace?';
    expect(ranked(tools, query)[0]).toBe('mcp__notion__API-get-users');
    expect(ranked(tools, query, { serverMentionWeight: 0 })[0]).toBe('mcp__slack__slack_get_users');
  });

  it('C14: explain says the request named the server', () => {
    const index = defaultRanker().build(tools);
    const [hit] = index.explain!(parseKeywordQuery('who are all the people in our notion workspace?'), [
      'mcp__notion__API-get-users',
    ]);
    expect(formatExplanation(hit!).join('\n')).toMatch(/server named: \+[\d.]+, the request names the server "notion"/);
  });

  it('C14: only a whole server name counts, and only when few other tools use the word', () => {
    const trains = [
      mcp('where_is_my_train', 'next_trains', 'Next departures from a station.'),
      mcp('rail', 'get_tickets', 'Search train tickets between two cities.'),
      mcp('rail', 'get_station_code', 'Station codes of a city.'),
    ];
    // "train" is one word of a longer server name: no mention, the ticket tool stays first.
    expect(ranked(trains, 'check train tickets from Beijing to Shanghai')[0]).toBe('mcp__rail__get_tickets');
  });
});
