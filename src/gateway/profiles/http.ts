/**
 * G9 — profiles over HTTP: each profile's endpoint (`/mcp/<name>`) mounted on the main gateway's
 * port through its extra routes, with the same guards, limits and options as `/mcp` and the
 * profile's own token when it has one.
 */
import type { StatusProfile } from '../status/routes.js';
import {
  createHttpGatewayHandler,
  type ExtraRoutes,
  type HttpGatewayHandler,
  type HttpGatewayOptions,
} from '../transports/http/server.js';
import type { Profile, Profiles } from './profiles.js';
import { tokenList } from '../transports/http/guards.js';

export interface ProfileEndpoints {
  /** Answers `/mcp/<name>` of known profiles, hands every other path to `next`. */
  readonly routes: ExtraRoutes;
  /** What the status page shows of each profile. */
  status(): StatusProfile[];
  /** G3: profiles whose token is not the gateway's: their sessions' queries are theirs alone. */
  withOwnToken(): string[];
  close(): Promise<void>;
}

export function profileEndpoints(
  profiles: Profiles,
  options: Omit<HttpGatewayOptions, 'path' | 'routes' | 'observe'>,
  next: ExtraRoutes,
): ProfileEndpoints {
  const mainToken = options.token;
  const mount = (profile: Profile) => ({
    profile,
    handler: createHttpGatewayHandler(profile.gateway, {
      ...options,
      path: profile.path,
      // Read per request: a reload may give the profile a token, change it or take it away.
      token: () => profile.token ?? (typeof mainToken === 'function' ? mainToken() : mainToken),
      profile: profile.name,
    }),
  });
  const handlers = new Map<string, { profile: Profile; handler: HttpGatewayHandler }>(
    profiles.list.map((profile) => [profile.path, mount(profile)]),
  );
  // G7: a reload's new profiles are served at once; a removed one's path is gone and its sessions closed.
  const stop = profiles.onChange(async (changes) => {
    for (const profile of profiles.list) if (!handlers.has(profile.path)) handlers.set(profile.path, mount(profile));
    const removed = [...handlers.values()].filter(({ profile }) => changes.removed.includes(profile.name));
    for (const { profile } of removed) handlers.delete(profile.path);
    await Promise.allSettled(removed.map(({ handler }) => handler.close()));
  });
  return {
    routes: async (req, res, url, authorized) => {
      const entry = handlers.get(url.pathname);
      if (!entry) return next(req, res, url, authorized);
      await entry.handler.handle(req, res);
      return true;
    },
    status: () =>
      [...handlers.values()].map(({ profile, handler }) => ({
        name: profile.name,
        path: profile.path,
        servers: profile.servers,
        tools: profile.gateway.catalog.size,
        sessions: handler.sessionCount(),
      })),
    withOwnToken: () => {
      const main = tokenList(mainToken);
      return profiles.list.filter((p) => p.token !== undefined && !main.includes(p.token)).map((p) => p.name);
    },
    close: async () => {
      stop();
      await Promise.allSettled([...handlers.values()].map(({ handler }) => handler.close()));
    },
  };
}
