/**
 * C14: plain requests (a user's sentence, not a task) — synonyms that name a tool's name parts,
 * what a request implies (a plain question's list, a #name's channel), words that introduce a
 * given name, and parameter values as words. Small catalogs; behaviour, not numbers.
 */
import { describe, expect, it } from 'vitest';
import { formatExplanation } from '../../src/search/explain.js';
import { parseKeywordQuery } from '../../src/search/query.js';
import { weightedQueryTerms } from '../../src/search/rank-default/expansion.js';
import { defaultRanker } from '../../src/search/rank-default/index.js';
import { channelMention, questionSense, withoutNamingWords } from '../../src/search/rank-default/verb-senses.js';
import { parameterValues } from '../../src/search/text.js';
import { mcp, ranked } from './helpers.js';

type Tool = ReturnType<typeof mcp>;

function explainLines(tools: Tool[], query: string, name: string, options = {}): string {
  const index = defaultRanker(options).build(tools);
  return formatExplanation(index.explain!(parseKeywordQuery(query), [name])[0]!).join('\n');
}

// A description that says "folder" often, against the tool whose name is the request's words
// in other terms: the synonyms must be what finds create_directory.
const folders = [
  mcp('fs', 'create_directory', 'Create a new directory or ensure a directory exists.'),
  mcp('shell', 'start_process', 'Start a new terminal process in the working folder.'),
  mcp('fs', 'list_directory', 'List the files and directories in a directory.'),
];

describe('C14: synonyms name name parts in a plain request', () => {
  it('C14: "a new folder" finds create_directory through new → create and folder → directory', () => {
    expect(ranked(folders, 'I need a new folder')[0]).toBe('mcp__fs__create_directory');
    // Off (and without C15's action rule, which reads "a new" as create), the description that says "folder" wins.
    expect(ranked(folders, 'I need a new folder', { nameSynonymCover: 0, actionDisagreeFactor: 1 })[0]).toBe(
      'mcp__shell__start_process',
    );
  });

  it('C14: explain says which parts a synonym named', () => {
    const text = explainLines(folders, 'I need a new folder', 'mcp__fs__create_directory');
    expect(text).toMatch(
      /names 2 of 2 of the name's words .*; by synonym: creat \(for new\), directori \(for folder\)/,
    );
  });

  it('C14: in a task text (more words than a plain request) synonyms name no part', () => {
    const task =
      'I need a new folder for the quarterly reports that the finance team will upload every single week before the board meets on Friday';
    const text = explainLines(folders, task, 'mcp__fs__create_directory');
    expect(text).not.toMatch(/by synonym/);
    expect(explainLines(folders, task, 'mcp__fs__create_directory', { plainRequestWords: 40 })).toMatch(/by synonym/);
  });

  it('C14: one request word names at most one part of a name ("read" is not both get and info)', () => {
    const tools = [
      mcp('fs', 'get_file_info', 'Retrieve metadata about a file: size and modified time.'),
      mcp('fs', 'read_text_file', 'Read the complete contents of a file as text.'),
    ];
    const text = explainLines(tools, 'read the file', 'mcp__fs__get_file_info');
    expect(text).toMatch(/names 2 of 3 of the name's words/);
    expect(ranked(tools, 'read the file')[0]).toBe('mcp__fs__read_text_file');
  });
});

describe('C14: a plain question asks for a list', () => {
  it('C14: "what/which" + a plural noun implies list; other questions imply nothing', () => {
    expect(questionSense(['which', 'bugs', 'are', 'still', 'open'])).toEqual(['list']);
    expect(questionSense(['what', 'files', 'are', 'in', 'downloads'])).toEqual(['list']);
    expect(questionSense(['what', 'does', 'this', 'mean'])).toBeUndefined();
    expect(questionSense(['what', 'is', 'the', 'weather'])).toBeUndefined();
    expect(questionSense(['what', 'address', 'is', 'this'])).toBeUndefined();
    expect(questionSense(['show', 'me', 'the', 'open', 'pull', 'requests'])).toEqual(['list']);
    expect(questionSense(['show', 'me', 'the', 'recent', 'commit', 'history'])).toBeUndefined();
    expect(questionSense(['open', 'files', 'now'])).toBeUndefined();
  });

  it('C14: "which bugs are open" ranks the listing tool first; off, the single-issue tool wins', () => {
    const tools = [
      mcp(
        'gh',
        'get_issue',
        'Get the details of one issue (bug report): its title, state and comments. Open issue view.',
      ),
      mcp('gh', 'list_issues', 'List issues in a repository, filtered by state.'),
    ];
    expect(ranked(tools, 'Which bugs are still open?')[0]).toBe('mcp__gh__list_issues');
    expect(ranked(tools, 'Which bugs are still open?', { impliedWeight: 0 })[0]).toBe('mcp__gh__get_issue');
    expect(explainLines(tools, 'Which bugs are still open?', 'mcp__gh__list_issues')).toMatch(
      /\[question "which bugs"\]/,
    );
  });
});

describe('C14: a #name is a channel', () => {
  it('C14: a #name token is a channel mention; an issue number or a lone # is not', () => {
    expect(channelMention('Let the team know in #general that the deploy is done')).toBe('#general');
    expect(channelMention('read #random')).toBe('#random');
    expect(channelMention('close issue #88')).toBeUndefined();
    expect(channelMention('use C# here')).toBeUndefined();
  });

  it('C14: "what are people saying in #random" reaches the channel tool; off, the random tool wins', () => {
    const tools = [
      mcp('chat', 'get_channel_history', 'Get recent messages from a channel'),
      mcp('util', 'random_number', 'Generate a random number'),
      mcp('util', 'random_word', 'Pick a random word from a list'),
    ];
    const query = 'What are people saying in #random today?';
    expect(ranked(tools, query)[0]).toBe('mcp__chat__get_channel_history');
    expect(ranked(tools, query, { impliedWeight: 0 })[0]).not.toBe('mcp__chat__get_channel_history');
  });
});

describe('C14: words that introduce a given name', () => {
  it('C14: "called" after a noun is dropped, so it does not reach call/run tools', () => {
    expect(withoutNamingWords(['a', 'folder', 'called', 'reports'])).toEqual(['a', 'folder', 'reports']);
    expect(withoutNamingWords(['called', 'numbers'])).toEqual(['called', 'numbers']);
    expect(weightedQueryTerms('a folder called reports', 0.3).has('call')).toBe(false);
    expect(weightedQueryTerms('call the webhook', 0.3).has('call')).toBe(true);
  });
});

describe('C14: parameter values are words of the tool', () => {
  const update = mcp('gh', 'update_issue', 'Update an existing issue in a repository', {
    inputSchema: {
      type: 'object',
      properties: { issue_number: { type: 'number' }, state: { type: 'string', enum: ['open', 'closed'] } },
    },
  });
  const browser = mcp('web', 'close_tab', 'Close a browser tab and end its page session');
  const get = mcp('gh', 'get_issue', 'Get an issue in a repository');

  it('C14: short enums are read; long code lists and non-strings are not', () => {
    expect(parameterValues(update)).toEqual(['open', 'closed']);
    const codes = mcp('x', 'y', '', {
      inputSchema: {
        type: 'object',
        properties: {
          country: { type: 'string', enum: Array.from({ length: 50 }, (_, i) => `c${i}`) },
          level: { type: 'number', enum: [1, 2, 3] },
        },
      },
    });
    expect(parameterValues(codes)).toEqual([]);
  });

  it('C14: "close issue 88" reaches the tool whose state can be closed, and explain shows it', () => {
    const top = ranked([browser, get, update], 'Close issue 88');
    expect(top.indexOf('mcp__gh__update_issue')).toBeLessThan(top.indexOf('mcp__gh__get_issue'));
    expect(explainLines([browser, get, update], 'Close issue 88', 'mcp__gh__update_issue')).toMatch(/close in params/);
  });
});
