/** A small catalog whose terse descriptions lack their callers' words, and a log of those callers (C13, C14 tests). */
import type { LearnedLog } from '../../src/search/learned/log.js';
import { mcp } from './helpers.js';

/** Terse descriptions that lack the words their callers use (as many real catalogs' do). */
export const kitchen = [
  mcp('kitchen', 'suggest', 'Suggest dishes'),
  mcp('pantry', 'stock', 'List stored items'),
  mcp('travel', 'trip', 'Plan an itinerary'),
  mcp('files', 'read_file', 'Read a file from disk'),
  mcp('weather', 'forecast', 'Get the weather forecast for a city'),
  mcp('notes', 'write', 'Write a note'),
];

/**
 * Fifteen searches into `log`, three intents in varied words: each tool's callers keep using the
 * same words for it, in different searches. `sourceOf(i)`: who made the i-th (absent: each its own).
 */
export function kitchenLog(log: LearnedLog, sourceOf?: (i: number) => string, start = Date.now() - 60_000): LearnedLog {
  let at = start;
  let i = 0;
  const add = (query: string, tool: string) => {
    const source = sourceOf?.(i++);
    log.record({ query, tool, at: at++, ...(source !== undefined && { source }) });
  };
  for (const food of ['salmon', 'eggs', 'leftover rice', 'tofu', 'lentils'])
    add(`what can I cook quickly with ${food}`, 'mcp__kitchen__suggest');
  for (const food of ['flour', 'olive oil', 'coffee beans', 'tea', 'sugar'])
    add(`do we still have ${food} in the cupboard quickly`, 'mcp__pantry__stock');
  for (const city of ['lisbon', 'kyoto', 'oslo', 'lima', 'cairo'])
    add(`holiday route through ${city} quickly`, 'mcp__travel__trip');
  return log;
}
