export * from './search.js';
export * from './calls.js';
export * from './session.js';
