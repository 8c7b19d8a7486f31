/** G7 — OAuth for HTTP upstreams: what the hub and the `auth` commands use. */
export { CredentialStore, type StoredCredentials } from './store.js';
export { isNeedsSignIn, NeedsSignInError, REFRESH_SKEW_MS, ServerAuth, StoredOAuthProvider } from './provider.js';
export { watchCredentials } from './watch.js';
export { withRefreshLock } from './lock.js';
