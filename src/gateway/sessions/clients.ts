/**
 * C15/G11 — the clients of one gateway: who each session (and each 2026 client) is, as the
 * transport that took its first request said (sessions/identity.ts), and which one identity, if
 * any, reaches the gateway alone. Learning reads both (who teaches, whose word lifts alone); code
 * mode reads a client's key for its share of the slots.
 */
import type { Learner } from '../../usage/learner.js';
import { statelessClient, statelessRequestId, usageKey } from '../tools/stateless.js';
import type { ClientIdentity } from './identity.js';

/** 2026 clients remembered at once (the least recently seen dropped first). */
const MAX_STATELESS_CLIENTS = 10_000;

export class GatewayClients {
  private readonly sessions = new Map<string, ClientIdentity>();
  private readonly stateless = new Map<string, ClientIdentity>();
  /** Per endpoint serving the gateway, the one identity that reaches it (undefined: none, or several). */
  private readonly endpoints = new Map<object, string | undefined>();

  constructor(private readonly learner: Learner | undefined) {}

  /** A 2025 session's client: the first request's wins. */
  identify(sessionId: string, identity: ClientIdentity): void {
    if (!this.sessions.has(sessionId)) this.sessions.set(sessionId, identity);
  }

  /** A 2026 request's pseudo session id, whose client is `identity` (its searches pair with its calls). */
  statelessId(identity: ClientIdentity): string {
    const id = statelessRequestId(statelessClient(identity.key));
    const client = usageKey(id);
    this.stateless.delete(client);
    this.stateless.set(client, identity);
    if (this.stateless.size > MAX_STATELESS_CLIENTS) this.stateless.delete(this.stateless.keys().next().value!);
    return id;
  }

  identityOf(sessionId: string): ClientIdentity | undefined {
    return this.sessions.get(sessionId) ?? this.stateless.get(usageKey(sessionId));
  }

  ended(sessionId: string): void {
    this.sessions.delete(sessionId);
  }

  /**
   * C15: an endpoint says which one identity reaches it (stdio's user, the holder of its only
   * token), or that none does alone (undefined). The learner trusts that identity's word alone only
   * while every endpoint of the gateway names the same one.
   */
  learnFrom(endpoint: object, sole: string | undefined): void {
    if (this.endpoints.has(endpoint) && this.endpoints.get(endpoint) === sole) return;
    this.endpoints.set(endpoint, sole);
    this.learner?.learnFrom(this.sole());
  }

  /** C15: who teaches what this session's searches and calls teach (undefined: nobody). */
  teacherOf(sessionId: string): string | undefined {
    return this.learner?.teacher(this.sole(), this.identityOf(sessionId)?.proven);
  }

  /** G11: whose share a session's code runs take. */
  shareOf(sessionId: string): string {
    return this.identityOf(sessionId)?.key ?? 'unknown';
  }

  private sole(): string | undefined {
    const soles = new Set(this.endpoints.values());
    return soles.size === 1 ? [...soles][0] : undefined;
  }
}
