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

export interface ProfileEndpoints {
  /** Answers `/mcp/<name>` of known profiles, hands every other path to `next`. */
  readonly routes: ExtraRoutes;
  /** What the status page shows of each profile. */
  status(): StatusProfile[];
  close(): Promise<void>;
}

export function profileEndpoints(
  profiles: Profiles,
  options: Omit<HttpGatewayOptions, 'path' | 'routes' | 'observe'>,
  next: ExtraRoutes,
): ProfileEndpoints {
  const handlers = new Map<string, { profile: Profile; handler: HttpGatewayHandler }>(
    profiles.list.map((profile) => [
      profile.path,
      {
        profile,
        handler: createHttpGatewayHandler(profile.gateway, {
          ...options,
          path: profile.path,
          ...(profile.token !== undefined && { token: profile.token }),
        }),
      },
    ]),
  );
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
    close: async () => {
      await Promise.allSettled([...handlers.values()].map(({ handler }) => handler.close()));
    },
  };
}
