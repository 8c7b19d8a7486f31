/**
 * G9 — Prometheus metrics (`/metrics`, text format, prom-client), every name prefixed
 * `toolsearch_`. Counters and histograms follow the operations events (events.ts); upstream
 * state, sessions and HTTP bytes are read when scraped. Label values are bounded: methods and
 * eras are checked against known sets upstream of here, servers come from the config, and tool
 * names are capped (`toolLabels`, default 200) with the rest counted as `other`, so a 10,000-tool
 * catalog cannot explode a time-series database.
 */
import type { Server as HttpServer } from 'node:http';
import type { Socket } from 'node:net';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { ServerState, ServerStatus } from '../../mcp/server-state.js';
import type { ToolsearchGateway } from '../gateway.js';
import type { OperationsEvent } from './events.js';
import { type CatalogSummary, summarizeGateway } from './summary.js';
import { toolDefinitionJson, type ToolDefinitionLike } from '../../core/tool.js';
import { o200kTokens } from '../../inspect/tokenizer.js';

export const METRICS_PATH = '/metrics';
export const DEFAULT_TOOL_LABELS = 200;
const STATES: readonly ServerState[] = [
  'connected',
  'connecting',
  'installing',
  'failed',
  'quarantined',
  'needs-sign-in',
  'closed',
];
/** Seconds: upstream calls range from a local echo (~1 ms) to a slow API (tens of seconds). */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

export interface MetricsSource {
  readonly gateway: ToolsearchGateway;
  /** The upstream servers' states (`McpHub.status()`). */
  servers(): readonly ServerStatus[];
  /** Tool names with their own label value; the rest are `other`. Default 200. */
  toolLabels?: number;
  /** Process metrics (CPU, memory, event loop, GC) besides the gateway's. Default true. */
  processMetrics?: boolean;
  /** The audit log, for its dropped-records count (a disk that cannot keep up). */
  audit?: { readonly droppedSinceStart: number };
}

/** Bounded label values: the first `cap` distinct names keep theirs, later ones are `other`. */
export function boundedLabel(cap: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= cap) return 'other';
    seen.add(value);
    return value;
  };
}

export class GatewayMetrics {
  readonly registry = new Registry();
  private readonly unsubscribe: () => void;
  private readonly sockets = new Set<Socket>();
  private closedBytes = { read: 0, written: 0 };
  private saved: { version: number; tokens: Promise<CatalogSummary> } | undefined;
  /** Tokens of each tool definition listed, by its JSON (cleared when the catalog changes). */
  private listedTokens = new Map<string, number>();
  private tokensSavedTotal = 0;

  constructor(private readonly source: MetricsSource) {
    const registers = [this.registry];
    const toolLabel = boundedLabel(source.toolLabels ?? DEFAULT_TOOL_LABELS);
    const requests = new Counter({
      name: 'toolsearch_requests_total',
      help: 'Client requests answered, by JSON-RPC method and protocol era (negotiated version).',
      labelNames: ['method', 'era'],
      registers,
    });
    const requestSeconds = new Histogram({
      name: 'toolsearch_request_duration_seconds',
      help: 'Time from a client request to its answer, by method.',
      labelNames: ['method'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    const calls = new Counter({
      name: 'toolsearch_tool_calls_total',
      help: 'Tool calls by server, tool (capped, then "other") and outcome (ok, tool-error, error).',
      labelNames: ['server', 'tool', 'outcome'],
      registers,
    });
    const callSeconds = new Histogram({
      name: 'toolsearch_tool_call_duration_seconds',
      help: 'Tool call latency through the gateway, by server and outcome.',
      labelNames: ['server', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    const searches = new Counter({
      name: 'toolsearch_searches_total',
      help: 'tool_search calls, by result: found (at least one match) or zero.',
      labelNames: ['result'],
      registers,
    });
    const lowConfidence = new Counter({
      name: 'toolsearch_searches_low_confidence_total',
      help: 'Searches whose best match was weak (low confidence).',
      registers,
    });
    const followed = new Counter({
      name: 'toolsearch_searches_followed_total',
      help: 'Searches followed by a call of one of their matches in the same session.',
      registers,
    });
    const opened = new Counter({
      name: 'toolsearch_sessions_opened_total',
      help: 'Client sessions opened.',
      registers,
    });
    const oauth = new Counter({
      name: 'toolsearch_oauth_refreshes_total',
      help: 'OAuth token refreshes of upstream servers, by server and outcome.',
      labelNames: ['server', 'outcome'],
      registers,
    });
    const signIns = new Counter({
      name: 'toolsearch_sign_ins_total',
      help: 'Interactive sign-ins to upstream servers, by server and outcome.',
      labelNames: ['server', 'outcome'],
      registers,
    });
    const limitsApplied = new Counter({
      name: 'toolsearch_limits_applied_total',
      help: 'Limits applied to HTTP clients (a stream closed, an initialize refused, the gateway full), by limit.',
      labelNames: ['limit'],
      registers,
    });
    const reloads = new Counter({
      name: 'toolsearch_config_reloads_total',
      help: 'Config reloads, by outcome.',
      labelNames: ['outcome'],
      registers,
    });
    const trust = new Counter({
      name: 'toolsearch_trust_decisions_total',
      help: 'Tools held by the trust gate (reason: changed, new-server, findings) and approved by an operator.',
      labelNames: ['server', 'action', 'reason'],
      registers,
    });
    const tokensSaved = new Counter({
      name: 'toolsearch_tokens_saved_total',
      help: 'Tool-definition tokens (o200k_base) not sent to clients: per tools/list answered, every tool of the catalog minus the definitions that answer carried.',
      registers,
    });
    this.scrapedMetrics(registers);
    if (source.processMetrics !== false) collectDefaultMetrics({ register: this.registry, prefix: 'toolsearch_' });

    this.unsubscribe = source.gateway.operations.events.subscribe((event: OperationsEvent) => {
      switch (event.type) {
        case 'request':
          requests.inc({ method: event.method, era: event.era });
          requestSeconds.observe({ method: event.method }, event.durationMs / 1000);
          if (event.method === 'tools/list')
            void this.savedBy(event.listed).then((n) => {
              this.tokensSavedTotal += n;
              tokensSaved.inc(n);
            });
          return;
        case 'tool-call': {
          // G5: only catalog tools get a label (a client's made-up names would spend the cap).
          const known = source.gateway.catalog.has(event.tool);
          const server = event.server ?? (known ? 'none' : 'unknown');
          calls.inc({ server, tool: known ? toolLabel(event.tool) : 'unknown', outcome: event.outcome });
          callSeconds.observe({ server, outcome: event.outcome }, event.durationMs / 1000);
          return;
        }
        case 'search':
          searches.inc({ result: event.matches.length > 0 ? 'found' : 'zero' });
          if (event.lowConfidence) lowConfidence.inc();
          return;
        case 'search-followed':
          followed.inc();
          return;
        case 'session':
          if (event.change === 'opened') opened.inc();
          return;
        case 'oauth-refresh':
          oauth.inc({ server: event.server, outcome: event.outcome });
          return;
        case 'sign-in':
          signIns.inc({ server: event.server, outcome: event.outcome });
          return;
        case 'reload':
          reloads.inc({ outcome: event.outcome });
          return;
        case 'limit':
          limitsApplied.inc({ limit: event.limit });
          return;
        case 'trust':
          trust.inc({ server: event.server, action: event.action, reason: event.reason ?? 'approved' });
          return;
      }
    });
  }

  /** The running tokens-saved total (the status page shows it). */
  get tokensSaved(): number {
    return this.tokensSavedTotal;
  }

  /** Count this HTTP server's bytes in and out (read from its sockets when scraped). */
  observeHttp(server: HttpServer): void {
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => {
        this.sockets.delete(socket);
        this.closedBytes = {
          read: this.closedBytes.read + socket.bytesRead,
          written: this.closedBytes.written + socket.bytesWritten,
        };
      });
    });
  }

  /** The text a scrape gets. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  close(): void {
    this.unsubscribe();
    this.registry.clear();
  }

  /**
   * Tokens one tools/list saved: the whole catalog sent eagerly, minus the definitions that answer
   * carried (a session that loaded half the catalog saves half, not all of it). Without the answer,
   * a new session's list. The catalog's figures are memoized by its version, each listed
   * definition by its text (tokenizing a big catalog on every list is not free).
   */
  private async savedBy(listed: readonly ToolDefinitionLike[] | undefined): Promise<number> {
    const { gateway } = this.source;
    const version = gateway.catalog.version;
    if (this.saved?.version !== version) {
      this.saved = { version, tokens: summarizeGateway(gateway) };
      this.listedTokens.clear();
    }
    try {
      const summary = await this.saved.tokens;
      const carried = listed === undefined ? summary.deferredTokens : this.tokensOf(listed);
      return Math.max(0, summary.eagerTokens - carried);
    } catch {
      return 0;
    }
  }

  private tokensOf(listed: readonly ToolDefinitionLike[]): number {
    let total = 0;
    for (const tool of listed) {
      const json = toolDefinitionJson(tool);
      let tokens = this.listedTokens.get(json);
      if (tokens === undefined) {
        tokens = o200kTokens(json);
        this.listedTokens.set(json, tokens);
      }
      total += tokens;
    }
    return total;
  }

  /** Gauges and counters read at scrape time from the hub, the gateway and the sockets. */
  private scrapedMetrics(registers: Registry[]): void {
    const source = this.source;
    new Gauge({
      name: 'toolsearch_upstream_state',
      help: 'Upstream server state: 1 for the state it is in, 0 for the others.',
      labelNames: ['server', 'state'],
      registers,
      collect() {
        this.reset();
        for (const status of source.servers())
          for (const state of STATES) this.set({ server: status.server, state }, status.state === state ? 1 : 0);
      },
    });
    new Gauge({
      name: 'toolsearch_upstream_tools',
      help: 'Tools each upstream server offers now.',
      labelNames: ['server'],
      registers,
      collect() {
        this.reset();
        for (const status of source.servers()) this.set({ server: status.server }, status.tools);
      },
    });
    new Gauge({
      name: 'toolsearch_upstream_session_connections',
      help: 'Per-session connections open to each "isolation": "session" server (capped by sessionConnectionsPerServer).',
      labelNames: ['server'],
      registers,
      collect() {
        this.reset();
        for (const status of source.servers())
          if (status.sessionConnections !== undefined) this.set({ server: status.server }, status.sessionConnections);
      },
    });
    new Counter({
      name: 'toolsearch_upstream_reconnects_total',
      help: 'Reconnects (attempts after the first connect) per upstream server.',
      labelNames: ['server'],
      registers,
      collect() {
        this.reset();
        for (const status of source.servers()) this.inc({ server: status.server }, status.reconnects);
      },
    });
    new Gauge({
      name: 'toolsearch_sessions',
      help: 'Client sessions open on this process.',
      registers,
      collect() {
        this.set(source.gateway.liveSessions);
      },
    });
    if (source.audit) {
      const audit = source.audit;
      new Counter({
        name: 'toolsearch_audit_dropped_records_total',
        help: 'Audit records dropped because the disk could not keep up.',
        registers,
        collect() {
          this.reset();
          this.inc(audit.droppedSinceStart);
        },
      });
    }
    const bytes = (direction: 'read' | 'written') => {
      let total = this.closedBytes[direction];
      for (const socket of this.sockets) total += direction === 'read' ? socket.bytesRead : socket.bytesWritten;
      return total;
    };
    new Counter({
      name: 'toolsearch_http_received_bytes_total',
      help: 'Bytes received from HTTP clients (all paths).',
      registers,
      collect() {
        this.reset();
        this.inc(bytes('read'));
      },
    });
    new Counter({
      name: 'toolsearch_http_sent_bytes_total',
      help: 'Bytes sent to HTTP clients (all paths).',
      registers,
      collect() {
        this.reset();
        this.inc(bytes('written'));
      },
    });
  }
}
