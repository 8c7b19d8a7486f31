/**
 * G10 — the config's trust settings, in one place:
 *
 *     "toolSearch": {
 *       "trust": { "enabled": true, "newServers": "quarantine",    // default: enabled under `serve`, "trust"
 *                  "markResults": true },                          // default false: results pass verbatim
 *       "allow": ["read", "open-world"]                            // classes any client may use (default: all)
 *     },
 *     "mcpServers": { "scratch": { "command": "…", "trust": "off" } } // this server is never pinned
 *
 * and per profile `"allow": ["read"]` (gateway/profiles/config.ts).
 */
import { z } from 'zod';
import { TOOL_CLASSES } from '../trust/classes.js';

export const allowSchema = z.array(
  z.enum(TOOL_CLASSES, { error: `expected classes among ${TOOL_CLASSES.join(', ')}` }),
);

export const trustSettingsSchema = z.union([
  z.boolean(),
  z.strictObject({
    enabled: z.boolean().optional(),
    newServers: z
      .enum(['trust', 'quarantine'], {
        error: 'expected "trust" (the default: pinned on first use) or "quarantine" (waits for approval)',
      })
      .optional(),
    markResults: z.boolean().optional(),
  }),
]);

/** Per server: `"off"` keeps it out of pinning and the scanner's holds (a server under development). */
export const serverTrustSchema = z.enum(['on', 'off'], { error: 'expected "on" (the default) or "off"' });

export type TrustSettingsConfig = z.infer<typeof trustSettingsSchema>;

export interface TrustSettings {
  readonly enabled: boolean;
  readonly newServers: 'trust' | 'quarantine';
  /** Mark suspicious spans in tool results' text (off: results pass verbatim). */
  readonly markResults: boolean;
}

/** The config's `toolSearch.trust` with defaults; `byDefault` is whether pinning is on when the config is silent. */
export function resolveTrust(config: TrustSettingsConfig | undefined, byDefault: boolean): TrustSettings {
  if (typeof config === 'boolean') return { enabled: config, newServers: 'trust', markResults: false };
  return {
    enabled: config?.enabled ?? (config !== undefined || byDefault),
    newServers: config?.newServers ?? 'trust',
    markResults: config?.markResults ?? false,
  };
}
