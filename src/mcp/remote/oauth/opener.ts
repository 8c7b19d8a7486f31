/**
 * G7 — what may reach a browser opener, and how. An authorization server names the URL a sign-in
 * opens; a hostile one can name `file:///etc/passwd`, `smb://host/x.exe` or a custom handler
 * (`x-handler://run?cmd=…`) that the desktop would launch. Only `https:` URLs, and `http:` ones
 * on this machine's loopback, are opened; anything else fails the sign-in naming the scheme.
 *
 * The URL reaches the opener as one argument of an argument array: no shell parses it (the
 * Windows `cmd /c start "" <url>` form split an unquoted URL at every `&`).
 */

/** The authorization server asked to open something that is not a web page. */
export class UnsafeAuthorizationUrlError extends Error {
  override name = 'UnsafeAuthorizationUrlError';
  constructor(readonly url: string) {
    super(
      `the authorization server asked to open ${describe(url)}; only https URLs (or http on this machine) are opened for a sign-in`,
    );
  }
}

/** Scheme and host only: the rest may be long or hostile, and is not needed to see the problem. */
function describe(url: string): string {
  try {
    const parsed = new URL(url);
    return `a ${parsed.protocol} URL${parsed.host ? ` on ${parsed.host}` : ''}`;
  } catch {
    return 'something that is not a URL';
  }
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

function isLoopbackHost(hostname: string): boolean {
  return LOOPBACK_NAMES.has(hostname) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/** The URL to open, normalized (WHATWG: spaces, quotes and controls percent-encoded), or UnsafeAuthorizationUrlError. */
export function openableUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UnsafeAuthorizationUrlError(url);
  }
  if (parsed.protocol === 'https:') return parsed.href;
  if (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname)) return parsed.href;
  throw new UnsafeAuthorizationUrlError(url);
}

/**
 * The command and arguments that open `url`: `$BROWSER` (the user's own command line, given the
 * URL as its one argument `"$1"`), else the platform's opener. Every form passes the URL as a
 * single argument-array element.
 */
export function openerCommand(
  url: string,
  env: NodeJS.ProcessEnv,
  platform: NodeJS.Platform = process.platform,
): [string, string[]] {
  const browser = env['BROWSER'];
  if (browser) return ['sh', ['-c', `${browser} "$1"`, 'sh', url]];
  if (platform === 'darwin') return ['open', [url]];
  // rundll32 takes the URL as its own argument: no cmd.exe, so `&` and `^` stay characters.
  if (platform === 'win32') return ['rundll32', ['url.dll,FileProtocolHandler', url]];
  return ['xdg-open', [url]];
}
