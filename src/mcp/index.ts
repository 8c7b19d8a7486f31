/** G1/G2 — MCP hub: config, connections, catalog feeding. */
export * from './aggregate.js';
export * from './config.js';
export * from './connection.js';
export * from './defaults.js';
export * from './errors.js';
export * from './hub.js';
export * from './load.js';
export * from '../util/log.js';
export { sdkConnectionFactory, HUB_CLIENT_INFO } from './sdk-connection.js';
export {
  BackoffState,
  DEFAULT_RECONNECT,
  describeFailure,
  type FailureEvidence,
  type RetryDecision,
} from './server-state.js';
