export { AISdkToolSearch, readModelMessages, type AISdkToolSearchOptions } from './tool-search.js';
export * from '../shared/index.js';
