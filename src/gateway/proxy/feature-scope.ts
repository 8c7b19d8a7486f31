/**
 * G9 — the merged upstream features as one gateway may see them: all of them on the main
 * endpoint, only its servers' on a profile (lists and routes alike, McpAggregate's `scope`), so a
 * profile's session can neither list nor read, subscribe to, complete or get another team's
 * resources and prompts.
 */
import type { ExposedList, McpAggregate, Route, Scope } from '../../mcp/aggregate.js';
import type { UpstreamPrompt, UpstreamResource, UpstreamResourceTemplate } from '../../mcp/connection.js';

/** What the resource, prompt and completion handlers read. */
export interface FeatureDirectory {
  resources(): ExposedList<UpstreamResource>;
  templates(): ExposedList<UpstreamResourceTemplate>;
  prompts(): ExposedList<UpstreamPrompt>;
  routeUri(uri: string): Route | undefined;
  routeTemplate(uriTemplate: string): Route | undefined;
  routePrompt(name: string): Route | undefined;
  /** Why a client's URI is refused before routing, if it is. */
  uriProblem(uri: string): string | undefined;
}

/** `scope` is read at each call: a profile's reload changes it in place (profiles.ts). */
export function scopedFeatures(all: McpAggregate, scope: Scope | undefined): FeatureDirectory {
  return {
    resources: () => all.resources(scope),
    templates: () => all.templates(scope),
    prompts: () => all.prompts(scope),
    routeUri: (uri) => all.routeUri(uri, scope),
    routeTemplate: (uriTemplate) => all.routeTemplate(uriTemplate, scope),
    routePrompt: (name) => all.routePrompt(name, scope),
    uriProblem: (uri) => all.uriProblem(uri),
  };
}
