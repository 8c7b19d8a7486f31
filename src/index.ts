/**
 * toolsearch — deferred tool loading for LLM agents. The core is pure: plain data in, plain data
 * out. Subpath exports carry the edges (providers, MCP, gateway).
 */
export * from './core/errors.js';
export * from './core/tool.js';
export * from './core/names.js';
export * from './core/catalog.js';
export * from './core/search-tool.js';
export * from './core/search-instructions.js';
export * from './core/policy.js';
export * from './core/mode.js';
export * from './core/threshold.js';
export * from './core/model-support.js';
export * from './core/gates.js';
export * from './core/markers.js';
export * from './core/history.js';
export * from './core/anthropic-history.js';
export * from './core/compaction.js';
export * from './core/announce.js';
export * from './core/plan.js';
export * from './search/index.js';
