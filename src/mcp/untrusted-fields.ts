/**
 * G5 — every third-party string a model reads goes through the untrusted-text rule, not only the
 * description: a tool's `title`, `annotations.title`, and the `title` / `description` texts
 * anywhere inside its input and output schemas (property descriptions are shown to the model as
 * the tool's parameters). `clean` is the rule (cut + neutralize, admission.ts).
 */
import { isRecord } from '../util/records.js';

type Clean = (text: string) => string;

/** The tool's fields besides name/description/schema, with their texts cleaned. */
export function untrustedToolFields<T extends Record<string, unknown>>(fields: T, clean: Clean): T {
  const out: Record<string, unknown> = { ...fields };
  if (typeof out['title'] === 'string') out['title'] = clean(out['title']);
  const annotations = out['annotations'];
  if (isRecord(annotations) && typeof annotations['title'] === 'string')
    out['annotations'] = { ...annotations, title: clean(annotations['title']) };
  if (isRecord(out['outputSchema'])) out['outputSchema'] = untrustedSchema(out['outputSchema'], clean);
  return out as T;
}

/** A JSON Schema with every `title` and `description` string cleaned (other values untouched). */
export function untrustedSchema<T>(schema: T, clean: Clean, depth = 0): T {
  // Schemas nest; one nested past 64 levels is cut there (its text could not be checked).
  if (depth > 64) return {} as T;
  if (Array.isArray(schema)) return schema.map((item) => untrustedSchema(item, clean, depth + 1)) as T;
  if (!isRecord(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'title' || key === 'description') && typeof value === 'string') out[key] = clean(value);
    else out[key] = untrustedSchema(value, clean, depth + 1);
  }
  return out as T;
}
