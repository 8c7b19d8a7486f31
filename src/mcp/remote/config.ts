/**
 * G7 — the server-entry keys for remote servers and protocol eras: `type: "sse"`, `protocol`
 * and `oauth`. Kept apart from config.ts so the entry schemas there only spread them in.
 */
import { z } from 'zod';

/** Which protocol revision to speak: probe (`auto`), or pin one era. */
export const protocolSchema = z.enum(['auto', '2025', '2026-07-28']);
export type ProtocolSetting = z.infer<typeof protocolSchema>;

const envName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'expected an environment variable name (the secret itself stays out of the file)');

/**
 * OAuth 2.1 for an HTTP server. `true` (or absent: a 401 asks for it) discovers everything and
 * registers dynamically; an object pre-registers a client or narrows the request.
 */
export const oauthSchema = z.union([
  z.boolean(),
  z.strictObject({
    /** A client registered with the authorization server beforehand (no dynamic registration). */
    clientId: z.string().min(1).optional(),
    /** The variable holding that client's secret (confidential clients). */
    clientSecretEnv: envName.optional(),
    scopes: z.array(z.string().min(1)).optional(),
    /** `false`: leave out the RFC 8707 `resource` parameter (Entra and a few others reject it). */
    resource: z.literal(false).optional(),
    /** The name dynamic registration gives the client. Default "toolsearch". */
    clientName: z.string().min(1).optional(),
  }),
]);
export type OAuthSetting = z.infer<typeof oauthSchema>;

/** Keys every server entry may carry. */
export const eraFields = {
  protocol: protocolSchema.optional(),
};

/** Keys an HTTP entry may carry. */
export const remoteFields = {
  oauth: oauthSchema.optional(),
};

/** HTTP entry `type`s: Streamable HTTP under its three spellings, and legacy HTTP+SSE. */
export const HTTP_TYPES = ['http', 'streamable-http', 'streamableHttp', 'sse'] as const;
