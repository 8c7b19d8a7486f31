/**
 * C14 — what a well-known product is. Users name the kind of thing, not the product: "which
 * tables are in our database?" means the Postgres server, whose one tool says only "Run a
 * read-only SQL query"; "shut the browser" means Playwright. A server whose name is a product
 * listed here gets that product's words in its tools' `product` field, so the kind of thing a
 * request names reaches the servers that are that kind. General knowledge of the products MCP
 * servers wrap, written from what each product is, never from a request set; a server whose name
 * is not listed gets nothing.
 */
import { identifierParts } from './text.js';

const DATABASE = 'database db sql table tables rows columns records schema';
const CHAT = 'chat message messages channel team';
const CODE_HOST = 'repository repo code';
const TRACKER = 'tracker ticket tickets task tasks';
const WIKI = 'wiki notes pages';
const BROWSER = 'browser website tab';
const WEB_SEARCH = 'internet online search';
const SCRAPER = 'website scrape crawl';
const EMAIL = 'email mail inbox';
const STORAGE = 'cloud storage drive files';
const MAPS = 'map maps location place';
const MONITORING = 'monitoring metrics logs alerts dashboard';

/** Product name (one word of a server's name) → words for what it is. */
const PRODUCTS: readonly (readonly [string, string])[] = [
  ...['postgres', 'postgresql', 'mysql', 'mariadb', 'sqlite', 'mssql', 'sqlserver', 'supabase', 'neon'].map(
    (p) => [p, DATABASE] as const,
  ),
  ...['bigquery', 'snowflake', 'clickhouse', 'duckdb', 'redshift', 'databricks'].map(
    (p) => [p, `${DATABASE} warehouse analytics`] as const,
  ),
  ['mongodb', 'database db collection documents records'],
  ['mongo', 'database db collection documents records'],
  ['redis', 'database cache key value'],
  ['elasticsearch', 'search index documents'],
  ['airtable', 'database table rows records base spreadsheet'],
  ...['slack', 'discord', 'telegram', 'mattermost', 'whatsapp', 'rocketchat', 'zulip'].map((p) => [p, CHAT] as const),
  ...['github', 'gitlab', 'bitbucket', 'gitea', 'forgejo'].map((p) => [p, CODE_HOST] as const),
  ['git', 'version control repository repo commits'],
  ...['linear', 'jira', 'asana', 'trello', 'clickup', 'youtrack', 'shortcut', 'plane'].map(
    (p) => [p, TRACKER] as const,
  ),
  ...['notion', 'confluence', 'obsidian', 'coda', 'evernote', 'logseq'].map((p) => [p, WIKI] as const),
  ...['playwright', 'puppeteer', 'selenium', 'browserbase', 'chrome', 'chromium', 'browserless'].map(
    (p) => [p, BROWSER] as const,
  ),
  ...['brave', 'tavily', 'exa', 'serper', 'serpapi', 'perplexity', 'bing', 'duckduckgo', 'kagi', 'searxng'].map(
    (p) => [p, WEB_SEARCH] as const,
  ),
  ...['firecrawl', 'apify', 'scrapingbee', 'jina', 'crawl4ai'].map((p) => [p, SCRAPER] as const),
  ...['gmail', 'outlook', 'sendgrid', 'mailgun', 'resend', 'postmark'].map((p) => [p, EMAIL] as const),
  ...['gdrive', 'dropbox', 'onedrive', 'box', 's3'].map((p) => [p, STORAGE] as const),
  ...['maps', 'mapbox', 'osm', 'openstreetmap'].map((p) => [p, MAPS] as const),
  ...['sentry', 'datadog', 'grafana', 'prometheus', 'newrelic', 'pagerduty'].map((p) => [p, MONITORING] as const),
  ['memory', 'remember knowledge facts recall'],
  ['context7', 'library documentation docs reference'],
  ['filesystem', 'files folders disk'],
  ['commander', 'terminal shell command files process'],
  ['stripe', 'payments customers invoices subscriptions billing'],
  ['hubspot', 'crm contacts companies deals customers'],
  ['salesforce', 'crm contacts accounts leads customers'],
  ['zendesk', 'support tickets customers'],
  ['intercom', 'support conversations customers'],
  ['figma', 'design'],
  ['spotify', 'music'],
  ['youtube', 'video'],
  ['docker', 'container image'],
  ['kubernetes', 'cluster pod container deployment'],
  ['k8s', 'cluster pod container deployment'],
  ['vercel', 'deploy hosting'],
  ['netlify', 'deploy hosting'],
  ['cloudflare', 'dns cdn workers'],
];

const WORDS_OF: ReadonlyMap<string, string> = new Map(PRODUCTS);

/**
 * The words for what a server is, from the products its name holds ("google-maps" → maps;
 * "desktop-commander" → commander), once each; empty when its name holds no listed product.
 */
export function productWords(serverName: string): string[] {
  const out = new Set<string>();
  for (const part of identifierParts(serverName)) {
    const words = WORDS_OF.get(part);
    if (words) for (const w of words.split(' ')) out.add(w);
  }
  return [...out];
}
