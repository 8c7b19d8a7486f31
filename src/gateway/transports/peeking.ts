/**
 * A transport that lets the gateway see each inbound message before the SDK entry does (G8: the
 * stdio probe-cost rule and listen streams' resource subscriptions), and learn when it closed.
 */
import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/server';

export interface PeekHooks {
  peek(message: JSONRPCMessage): void;
  closed(): void;
}

export class PeekingTransport implements Transport {
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;

  constructor(
    private readonly inner: Transport,
    hooks: PeekHooks,
  ) {
    inner.onmessage = (message, extra) => {
      hooks.peek(message);
      this.onmessage?.(message, extra);
    };
    inner.onclose = () => {
      hooks.closed();
      this.onclose?.();
    };
    inner.onerror = (error) => this.onerror?.(error);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
