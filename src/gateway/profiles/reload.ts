/**
 * G7/G9 — the config's `profiles` section in a live reload: parsed and checked with the rest of
 * the new file (an unknown server, a bad glob or a removed `serve --profile` refuses the whole
 * reload), applied once the hub has the new servers.
 */
import { changeParts, type ReloadPart } from '../../mcp/config-reloader.js';
import { parseProfiles } from './config.js';
import type { ProfileChanges, Profiles } from './profiles.js';

export function profilesReloadPart(profiles: Profiles): ReloadPart {
  return {
    prepare: (next) => {
      const configs = parseProfiles(next.profiles, next.source, Object.keys(next.servers));
      profiles.check(configs, next.source);
      return async () => describeProfileChanges(await profiles.apply(configs));
    },
  };
}

/** `profiles: added ops; removed qa; updated support` (undefined when no profile changed). */
export function describeProfileChanges(changes: ProfileChanges): string | undefined {
  const parts = changeParts(changes, 'updated');
  return parts.length > 0 ? `profiles: ${parts.join('; ')}` : undefined;
}
