/**
 * Progress that arrives just before its result must not be lost (G4).
 *
 * The SDK client runs a notification's handler one microtask after reading it, but settles a
 * response at once — and forgets the request's progress handler as it does. A stdio server's last
 * progress tick and its result often come in the same read, so that tick reached a handler that
 * was already gone and never got to the client (the conformance suite's tools-call-with-progress
 * found it). Delivering responses one microtask late puts them behind the notifications read
 * before them, which is the order the server sent.
 */

type MessageHandler = (message: object, extra?: unknown) => void;
const RAW = Symbol('toolsearch.rawOnMessage');
type Tagged = MessageHandler & { [RAW]?: MessageHandler };

function isResponse(message: object): boolean {
  return 'id' in message && !('method' in message);
}

/**
 * Whatever handler the client installs as `transport.onmessage` (it swaps handlers while it
 * negotiates the protocol era and restores them after) gets responses one microtask late. Reading
 * the property back and setting it again does not defer twice.
 */
export function deliverResponsesAfterNotifications<T extends object>(transport: T): T {
  let current: Tagged | undefined;
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => current,
    set: (handler: Tagged | undefined) => {
      const raw = handler?.[RAW] ?? handler;
      if (raw === undefined) {
        current = undefined;
        return;
      }
      const ordered: Tagged = (message, extra) => {
        if (isResponse(message)) queueMicrotask(() => raw(message, extra));
        else raw(message, extra);
      };
      ordered[RAW] = raw;
      current = ordered;
    },
  });
  return transport;
}
