/**
 * G1: an HTTP upstream URL may carry credentials (`https://user:password@host/mcp`), as users
 * copy them from dashboards. `fetch` refuses such URLs outright ("Request cannot be constructed
 * from a URL that includes credentials"), so the server could never connect. The credentials move
 * to an `Authorization: Basic …` header, which is what a browser or curl would send for that URL;
 * an Authorization header set in the config wins (the user said exactly what to send).
 */
export interface HttpTarget {
  /** The URL without `user:password@`. */
  readonly url: URL;
  /** The configured headers, plus `Authorization: Basic …` when the URL carried credentials. */
  readonly headers: Record<string, string> | undefined;
}

export function httpTarget(rawUrl: string, headers: Record<string, string> | undefined): HttpTarget {
  const url = new URL(rawUrl);
  if (url.username === '' && url.password === '') return { url, headers };
  // URL keeps them percent-encoded (`p%40ss` for `p@ss`); Basic auth carries the decoded text.
  const credentials = `${safeDecode(url.username)}:${safeDecode(url.password)}`;
  url.username = '';
  url.password = '';
  if (hasAuthorization(headers)) return { url, headers };
  return {
    url,
    headers: { ...headers, Authorization: `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}` },
  };
}

function hasAuthorization(headers: Record<string, string> | undefined): boolean {
  return Object.keys(headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}
