export * from './core/errors.js';
export * from './core/tool.js';
export * from './core/names.js';
export * from './core/catalog.js';
export * from "./core/search-tool.js";
export * from './search/index.js';
