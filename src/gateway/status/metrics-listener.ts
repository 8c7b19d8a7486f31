/**
 * G9 — `serve --metrics HOST:PORT`: `/metrics` on a listener of its own (as MCPProxy does), for a
 * Prometheus that reaches a private port but should not reach the MCP endpoint. Loopback by
 * default; a token, when given, is required as on the main port. The same Host and Origin checks
 * as the main listener (a web page on another loopback origin, or a DNS-rebinding name, reads
 * nothing), and beyond loopback it needs a token (or the explicit opt-out), as the main port does.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ListenError, UnauthenticatedBindError } from '../errors.js';
import { bearerChecker, hostChecker, isLoopbackHost, isOriginAllowed } from '../transports/http/guards.js';
import { METRICS_PATH, type GatewayMetrics } from './metrics.js';
import { sendMetrics } from './routes.js';

export interface MetricsListener {
  /** `http://HOST:PORT/metrics`. */
  readonly url: string;
  close(): Promise<void>;
}

export async function startMetricsListener(
  metrics: GatewayMetrics,
  options: {
    host: string;
    port: number;
    /** The operator's token; of several (one per client), the first: metrics are the operator's. */
    token?: string | readonly string[];
    /** Extra Host names and browser Origins accepted (`--allow-host`, `--allow-origin`). */
    allowHost?: readonly string[];
    allowOrigin?: readonly string[];
    allowUnauthenticated?: boolean;
  },
): Promise<MetricsListener> {
  const operator = typeof options.token === 'string' ? options.token : options.token?.[0];
  const checkToken = operator !== undefined ? bearerChecker(operator) : undefined;
  const loopbackOnly = isLoopbackHost(options.host);
  if (!loopbackOnly && checkToken === undefined && options.allowUnauthenticated !== true)
    throw new UnauthenticatedBindError(options.host);
  const allowHost = options.allowHost ?? [];
  const checkHost = loopbackOnly || allowHost.length > 0 ? hostChecker(options.host, allowHost) : undefined;
  const server = createServer((req, res) => {
    if (!isOriginAllowed(req.headers.origin, options.allowOrigin ?? [])) {
      res.writeHead(403, { 'content-type': 'text/plain' }).end('origin not allowed\n');
      return;
    }
    // The SDK's Host guard answers a refused Host with 403 itself.
    if (checkHost && !checkHost(req, res)) return;
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== METRICS_PATH || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`not found; metrics are at ${METRICS_PATH}\n`);
      return;
    }
    if (checkToken && !checkToken(req.headers.authorization)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer', 'content-type': 'text/plain' }).end('bearer token required\n');
      return;
    }
    sendMetrics(res, metrics).catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(new ListenError(options.host, options.port, error.code)),
    );
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}${METRICS_PATH}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
