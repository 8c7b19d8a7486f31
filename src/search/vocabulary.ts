/**
 * The tool vocabulary: stop words for whole-sentence task queries, Porter stems, and a small
 * synonym table of the verbs and nouns tool names use. Hand-curated (WordNet is too generic for
 * tool verbs); every entry is a group of words that name the same action or object in tools.
 */
import { stemmer } from 'stemmer';
import { DEFAULT_WORD_MEMO_BOUNDS, WordMemo } from './word-memo.js';

/** Function words and request phrasing ("can you please help me …") that carry no tool signal. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto about as is are was were be been being ' +
    'do does did doing have has had having i me my mine we us our you your he she it its they them their this that these those ' +
    'there here what which who whom whose when where why how all any some each every both either neither no not only ' +
    'can could would should will shall may might must please help want need like just also so than too very ' +
    'me tell give let know out up down over under again further once more most other such own same s t ' +
    'am im ive id youre its dont cant wont isnt arent m d ll re ve don doesn didn isn aren wasn weren haven hasn hadn wouldn shouldn couldn'
  )
    .split(' ')
    .filter((w) => w !== ''),
);

/** Groups of interchangeable words. The first word of a group is only a label. */
const SYNONYM_GROUPS: readonly string[][] = [
  ['create', 'add', 'new', 'make', 'generate', 'insert', 'build', 'write'],
  ['delete', 'remove', 'rm', 'erase', 'drop', 'destroy', 'clear'],
  ['get', 'fetch', 'read', 'retrieve', 'obtain', 'show', 'view', 'lookup', 'load', 'info', 'detail', 'details'],
  ['list', 'enumerate', 'ls', 'all', 'browse'],
  ['update', 'edit', 'modify', 'change', 'patch', 'set', 'rename', 'replace'],
  ['search', 'find', 'query', 'lookup', 'seek', 'discover', 'locate'],
  ['send', 'post', 'publish', 'notify', 'message', 'email', 'mail'],
  ['run', 'execute', 'exec', 'launch', 'start', 'invoke', 'call'],
  ['stop', 'kill', 'terminate', 'cancel', 'end', 'halt'],
  ['download', 'save', 'export'],
  ['upload', 'import', 'attach'],
  ['repo', 'repository', 'repositories', 'repos'],
  ['pr', 'pull'],
  ['issue', 'ticket', 'bug'],
  ['image', 'picture', 'photo', 'img', 'pic', 'screenshot'],
  ['folder', 'directory', 'dir'],
  ['file', 'document', 'doc', 'docs'],
  ['weather', 'forecast', 'temperature', 'climate'],
  ['map', 'location', 'place', 'geocode', 'address', 'route', 'directions', 'navigation'],
  ['translate', 'translation', 'language'],
  ['price', 'cost', 'quote', 'rate'],
  ['stock', 'share', 'ticker', 'equity', 'market'],
  ['crypto', 'cryptocurrency', 'bitcoin', 'coin', 'token'],
  ['news', 'headline', 'headlines', 'article', 'articles'],
  ['movie', 'film', 'cinema'],
  ['music', 'song', 'track', 'album', 'artist'],
  ['video', 'youtube', 'clip'],
  ['calendar', 'event', 'schedule', 'appointment', 'meeting'],
  ['user', 'account', 'profile', 'member'],
  ['chart', 'graph', 'plot', 'visualization', 'visualize', 'diagram'],
  ['pdf', 'document'],
  ['word', 'docx'],
  ['excel', 'spreadsheet', 'xlsx', 'sheet', 'workbook'],
  ['ppt', 'powerpoint', 'presentation', 'slide', 'slides', 'pptx'],
  ['web', 'website', 'page', 'url', 'webpage', 'site', 'browser'],
  ['scrape', 'crawl', 'extract'],
  ['summarize', 'summary'],
  ['calculate', 'compute', 'calculation', 'calculator'],
  ['convert', 'conversion', 'converter', 'transform'],
  ['currency', 'exchange', 'money'],
  ['recipe', 'food', 'meal', 'cook', 'cooking', 'ingredient', 'dish'],
  ['nutrition', 'calorie', 'calories', 'diet', 'nutrient'],
  ['flight', 'airline', 'airport', 'plane'],
  ['hotel', 'accommodation', 'lodging', 'booking'],
  ['job', 'career', 'employment', 'hiring'],
  ['email', 'mail', 'gmail', 'inbox'],
  ['paper', 'papers', 'arxiv', 'research', 'academic', 'scholar', 'publication'],
  ['sql', 'database', 'db', 'table'],
  ['time', 'date', 'timezone', 'clock'],
  ['game', 'gaming', 'play'],
  ['sport', 'sports', 'football', 'soccer', 'basketball', 'match', 'team'],
];

/** G5: bounded by characters too, and words past 64 letters are not kept (a query's new long word each search). */
const stemCache = new WordMemo<string>({ ...DEFAULT_WORD_MEMO_BOUNDS, maxEntries: 200_000, maxKeyChars: 4_000_000 });

/**
 * C15: words Porter merges with an action verb of a different meaning, each kept as a word of its
 * own: "news" is not "new" (which stands for create), a "terminal" does not terminate, "general"
 * and "generic" generate nothing, an "executive" executes nothing, "important" imports nothing, and
 * "settings" are what a tool reads, not a verb to set.
 * Found by stemming a dictionary: every word whose stem is a verb of the action tables
 * (action-agreement.ts, the synonym groups) but which is neither that verb's form nor a noun of the
 * same act (a "deletion" deletes; a "terminal" does not). Both sides stem through here, so a
 * request's "terminal" still finds a tool's "terminal".
 */
const OWN_STEMS: ReadonlyMap<string, string> = new Map(
  (
    'news:news general:general generals:general generally:general generic:generic generics:generic ' +
    'generous:generous terminal:terminal terminals:terminal executive:executive executives:executive ' +
    'important:important importance:important importantly:important setting:setting settings:setting'
  )
    .split(' ')
    .map((pair) => pair.split(':') as [string, string]),
);

/** Porter stem, cached (the same words recur across thousands of tools). */
export function stem(word: string): string {
  return stemCache.get(word, (w) => OWN_STEMS.get(w) ?? (/^[a-z]+$/.test(w) ? stemmer(w) : w));
}

/**
 * C14: words of requests that tool texts rarely use, one way: each stands for the tool words
 * after it ("ticket" → issue), but a query that uses the tool word is not widened ("create issue"
 * does not add "directory" through "mkdir"). The everyday agent intents (store / recall / forget
 * facts, file and track bugs, notify, schedule, look up docs) and shell commands typed as requests.
 */
const REQUEST_WORDS: readonly (readonly [string, readonly string[]])[] = [
  ['remember', ['memory', 'knowledge', 'store', 'observation']],
  ['memorize', ['memory', 'knowledge', 'store']],
  ['recall', ['memory', 'knowledge', 'search']],
  ['forget', ['delete', 'memory', 'observation']],
  ['ticket', ['issue']],
  ['bug', ['issue']],
  ['defect', ['issue']],
  ['notify', ['post', 'message', 'send']],
  ['announce', ['post', 'message']],
  ['inform', ['post', 'message']],
  ['schedule', ['calendar', 'event', 'create']],
  ['reschedule', ['calendar', 'event', 'update']],
  ['meeting', ['calendar', 'event']],
  ['appointment', ['calendar', 'event']],
  ['agenda', ['calendar', 'event', 'list']],
  ['invitation', ['event', 'respond']],
  ['invite', ['event', 'respond']],
  ['rsvp', ['event', 'respond']],
  ['cancel', ['delete']],
  ['docs', ['documentation', 'library']],
  ['documentation', ['docs', 'library']],
  ['approve', ['review']],
  ['show', ['list']],
  ['drive', ['directions', 'route']],
  ['far', ['distance']],
  ['coordinates', ['geocode', 'latitude', 'longitude']],
  ['plus', ['sum', 'add']],
  ['clone', ['download']],
  ['mkdir', ['create', 'directory']],
  ['mv', ['move', 'rename']],
  ['cp', ['copy']],
  ['cat', ['read']],
  ['grep', ['search']],
  ['stat', ['info', 'metadata']],
  ['ps', ['process', 'list']],
  ['printenv', ['environment', 'variables']],
  ['env', ['environment', 'variables']],
  // A page's parts and the hand's actions on them, as people name them (browser tools say dialog,
  // hover, press key, navigate, evaluate).
  ['popup', ['dialog']],
  ['modal', ['dialog']],
  ['mouse', ['hover', 'click']],
  ['dblclick', ['click']],
  ['goto', ['navigate', 'url']],
  ['visit', ['navigate', 'url']],
  ['eval', ['evaluate', 'javascript']],
  ['js', ['javascript']],
  ['capture', ['screenshot']],
  // A knowledge graph's words for what people call facts, notes and connections.
  ['fact', ['observation', 'memory']],
  ['facts', ['observation', 'memory']],
  ['unlink', ['delete', 'relation']],
  ['relationship', ['relation']],
  // Accounts and people.
  ['whois', ['user', 'profile']],
  ['whoami', ['user', 'self']],
  // Everyday git and shell words.
  ['shelve', ['stash']],
  ['pr', ['pull', 'request']],
  ['prs', ['pull', 'request']],
  ['origin', ['remote']],
  ['ci', ['status', 'checks']],
  ['availability', ['free', 'busy']],
  ['squash', ['merge']],
  ['undo', ['reset', 'revert']],
  ['reassign', ['assign', 'update']],
  ['codebase', ['code', 'files']],
  ['aside', ['stash']],
  ['shell', ['terminal', 'process', 'session']],
  ['shells', ['terminal', 'process', 'session']],
  ['executable', ['permissions', 'info']],
  ['sed', ['replace', 'edit']],
  ['swap', ['replace']],
  ['typo', ['edit']],
  ['reopen', ['update', 'state']],
  ['subtask', ['issue', 'parent']],
  ['standup', ['meeting']],
  ['recurring', ['event', 'recurrence']],
  ['lat', ['latitude', 'geocode']],
  ['altitude', ['elevation']],
  ['gps', ['coordinates', 'latitude', 'longitude']],
  ['subway', ['directions', 'transit']],
  ['transit', ['directions']],
  ['walking', ['directions']],
  // The rest of the common Unix and developer command lines, by what each program does.
  ['rm', ['delete', 'remove']],
  ['rmdir', ['delete', 'directory']],
  ['touch', ['create', 'file']],
  ['head', ['read', 'file']],
  ['tail', ['read', 'file']],
  ['less', ['read', 'file']],
  ['du', ['size', 'directory']],
  ['wc', ['count', 'lines']],
  ['df', ['disk', 'size']],
  ['kill', ['terminate', 'process']],
  ['pkill', ['terminate', 'process']],
  ['curl', ['fetch', 'url', 'http']],
  ['wget', ['download', 'url']],
  ['gh', ['github']],
  // Build and test runners: typed as a request, each runs a command.
  ...['npm', 'npx', 'yarn', 'pnpm', 'pytest', 'jest', 'vitest', 'cargo', 'make', 'gradle', 'mvn'].map(
    (program) => [program, ['run', 'command', 'terminal']] as const,
  ),
  ['mr', ['merge', 'request']],
  ['glab', ['gitlab']],
  ['psql', ['postgres', 'sql', 'query']],
  ['sqlite3', ['sqlite', 'sql', 'query']],
  ['mysql', ['sql', 'query']],
  ['kubectl', ['kubernetes']],
  ['chmod', ['permissions']],
  ['unzip', ['extract', 'archive']],
  ['tar', ['archive']],
  ['ssh', ['remote', 'connect']],
  ['man', ['documentation', 'help']],
];

/** The groups of SYNONYM_GROUPS that are actions (verbs): create … upload. */
const ACTION_GROUPS = 11;

/** stem → stems of its synonyms (never itself). Built once. */
export const SYNONYMS: ReadonlyMap<string, readonly string[]> = synonymMap(SYNONYM_GROUPS);

/**
 * C15: the synonyms of a stem as a noun's: without the action groups. "my notes", "the updates",
 * "a list of" name things, and their stems' verb synonyms (write, edit, enumerate) name other tools.
 */
export const NOUN_SYNONYMS: ReadonlyMap<string, readonly string[]> = synonymMap(SYNONYM_GROUPS.slice(ACTION_GROUPS));

/** Stems of the action groups' words. */
export const ACTION_STEMS: ReadonlySet<string> = new Set(SYNONYM_GROUPS.slice(0, ACTION_GROUPS).flat().map(stem));

function synonymMap(groups: readonly string[][]): ReadonlyMap<string, readonly string[]> {
  const map = new Map<string, Set<string>>();
  for (const group of groups) {
    const stems = [...new Set(group.map(stem))];
    for (const s of stems) {
      let set = map.get(s);
      if (!set) map.set(s, (set = new Set()));
      for (const other of stems) if (other !== s) set.add(other);
    }
  }
  for (const [word, targets] of REQUEST_WORDS) {
    const s = stem(word);
    let set = map.get(s);
    if (!set) map.set(s, (set = new Set()));
    for (const t of targets) if (stem(t) !== s) set.add(stem(t));
  }
  return new Map([...map].map(([k, v]) => [k, [...v]]));
}
