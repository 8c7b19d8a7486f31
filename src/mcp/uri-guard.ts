/**
 * G5 — a client's resource URI is checked before it is routed: a length cap (`resourceUriChars`)
 * and no control characters (U+0000–U+001F, DEL, U+0080–U+009F), which no URI holds and which only serve to confuse
 * logs, matchers and upstream parsers.
 */

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** Why `uri` is refused, or undefined when it may be routed. */
export function uriProblem(uri: string, maxChars: number): string | undefined {
  if (uri.length > maxChars)
    return `the URI is ${uri.length} characters long; the limit is ${maxChars} (resourceUriChars)`;
  const control = CONTROL.exec(uri);
  if (control)
    return `the URI holds a control character (U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}) at ${control.index}`;
  return undefined;
}
