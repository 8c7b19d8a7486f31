/**
 * G5/G7/A2 — which of a server's listed tools enter the catalog, and as what. One rule per
 * function, applied in this order to every listed tool:
 *
 * 1. `tools.allow` / `tools.deny` (G7): a hidden tool is left out and recorded as hidden, so a call
 *    by its name gets "hidden by the config" instead of "unknown tool"; so is a tool the trust gate
 *    holds or whose class `toolSearch.allow` leaves out (G10), with why.
 * 2. `tools.override` (G7): the description and title clients and search see.
 * 3. Third-party text bounded and defused (G5): `descriptionChars`, no structural tags.
 * 4. Deferral inputs (A2): per-server `defer` / `alwaysLoad`, the global `toolSearch.alwaysLoad`.
 * 5. Names (A3/G5): a valid tool, not listed twice, not another server's or a local tool's name.
 *
 * A bad tool is skipped with a logged reason; the rest stay. One pass, so a 10,000-tool server with
 * one bad tool costs no more than without it.
 */
import { admitTool, modelFacingName, type Catalog, type HiddenTool } from '../core/catalog.js';
import { cutText, type Limits } from '../core/limits.js';
import { ambiguousQualifiedName, qualifyMcpName } from '../core/names.js';
import type { ToolInput } from '../core/tool.js';
import { neutralizeUntrusted } from '../core/untrusted.js';
import { untrustedSchema, untrustedToolFields } from './untrusted-fields.js';
import { errorMessage } from '../util/errors.js';
import type { Logger } from '../util/log.js';
import { drain, type Steps } from '../util/slices.js';
import type { ServerConfig } from './config.js';
import type { UpstreamTool } from './connection.js';
import type { ToolRules } from './tool-rules.js';
import { policyDenial, type ToolClass } from '../trust/classes.js';
import { holdReasonText } from '../trust/messages.js';
import type { HeldVersion } from '../trust/pins.js';

export interface AdmissionContext {
  readonly server: string;
  readonly config: ServerConfig;
  /** The server's compiled `tools` section. */
  readonly rules: ToolRules;
  /** `toolSearch.alwaysLoad`: `mcp__server__tool` or `mcp__server`. */
  readonly globalAlwaysLoad: readonly string[];
  readonly limits: Limits;
  /** For clashes with names other servers and local tools already hold. */
  readonly catalog: Catalog;
  readonly logger: Logger;
  /** G10: tools the trust gate holds (by their own name): left out, with why and how to approve. */
  readonly held?: ReadonlyMap<string, HeldVersion>;
  /** G10: `toolSearch.allow`, the tool classes any client may use (absent: all). */
  readonly allow?: readonly ToolClass[];
  /**
   * G5: what the same server's previous listing admitted for a tool it listed exactly so, under
   * the same rules (a re-list of 20,000 unchanged tools is not admitted anew, nor logged again).
   */
  readonly earlier?: (tool: UpstreamTool) => AdmittedTool | undefined;
}

export interface Admission {
  readonly accepted: Omit<ToolInput, 'origin'>[];
  readonly hidden: HiddenTool[];
  /** The accepted tools by the name their server lists them under. */
  readonly byListedName: ReadonlyMap<string, AdmittedTool>;
}

/** Sort a server's listed tools into what enters the catalog and what the config hides. */
export function admitServerTools(context: AdmissionContext, tools: readonly UpstreamTool[]): Admission {
  return drain(admissionSteps(context, tools));
}

/** `admitServerTools` as steps, one per listed tool, so the hub can run it in slices (util/slices.ts). */
export function* admissionSteps(context: AdmissionContext, tools: readonly UpstreamTool[]): Steps<Admission> {
  const { server, logger } = context;
  const accepted = new Map<string, Omit<ToolInput, 'origin'>>();
  const byListedName = new Map<string, AdmittedTool>();
  const hidden: HiddenTool[] = [];
  for (const tool of tools) {
    yield;
    const visibility = context.rules.visibility(tool.name);
    if (!visibility.visible) {
      hidden.push(hiddenTool(server, tool.name, visibility.reason));
      continue;
    }
    const trust = trustVerdict(context, tool);
    if (trust) {
      hidden.push({
        ...hiddenTool(server, tool.name, trust.reason),
        kind: trust.kind,
        // G10: a search says what policy left out, matching the tool's words (a held tool stays unsaid).
        ...(trust.kind === 'policy' && { description: upstreamDescription(context, tool) }),
      });
      continue;
    }
    const admitted = context.earlier?.(tool) ?? admitListed(context, tool);
    if (!admitted) continue;
    const { name, input } = admitted;
    const first = accepted.get(name);
    if (first) {
      skip(
        context,
        tool,
        `the server lists the name "${first.name}" twice (model-facing "${name}"); the first one is kept`,
      );
      continue;
    }
    const owner = context.catalog.get(name);
    if (owner && !(owner.origin.kind === 'mcp' && owner.origin.server === server)) {
      skip(
        context,
        tool,
        `"${name}" is already registered from ${owner.origin.kind === 'mcp' ? `MCP server "${owner.origin.server}"` : 'a local tool'}`,
      );
      continue;
    }
    accepted.set(name, input);
    byListedName.set(tool.name, admitted);
  }
  for (const name of context.rules.unusedOverrides(listedNames(tools)))
    logger.warn(`"${server}": tools.override names "${name}", which the server does not list`);
  return { accepted: [...accepted.values()], hidden, byListedName };
}

/** A listed tool left out, with why (the rest of its server loads). */
function skip(context: AdmissionContext, tool: UpstreamTool, reason: string): void {
  context.logger.error(`"${context.server}": skipping tool "${tool.name}": ${reason}`);
}

function* listedNames(tools: readonly UpstreamTool[]): Iterable<string> {
  for (const tool of tools) yield tool.name;
}

/** An accepted tool: its model-facing name and what enters the catalog. */
export interface AdmittedTool {
  readonly name: string;
  readonly input: Omit<ToolInput, 'origin'>;
}

/** A listed tool as a catalog input under its model-facing name; undefined (logged) when the catalog cannot take it. */
function admitListed(context: AdmissionContext, tool: UpstreamTool) {
  const { server, logger } = context;
  const input = toToolInput(context, tool);
  let name: string;
  try {
    name = admitTool({ ...input, origin: { kind: 'mcp', server } }).name;
  } catch (error) {
    skip(context, tool, errorMessage(error));
    return undefined;
  }
  const clash = ambiguousQualifiedName(server, tool.name);
  if (clash !== undefined) logger.warn(`"${server}": tool "${tool.name}" is exposed as "${name}": ${clash}`);
  return { name, input };
}

/** G10: held by the trust gate, or of a class `toolSearch.allow` leaves out. */
function trustVerdict(
  context: AdmissionContext,
  tool: UpstreamTool,
): { kind: 'held' | 'policy'; reason: string } | undefined {
  const held = context.held?.get(tool.name);
  if (held) return { kind: 'held', reason: holdReasonText(context.server, tool.name, held) };
  const denial = policyDenial(tool['annotations'], context.allow, 'this gateway (toolSearch.allow)');
  return denial === undefined ? undefined : { kind: 'policy', reason: denial };
}

function hiddenTool(server: string, tool: string, reason: string): HiddenTool {
  return { server, tool, name: modelFacingName({ name: tool, origin: { kind: 'mcp', server } }), reason };
}

/** One listed tool as a catalog input: overrides, bounded text, deferral inputs, every other field kept (G4). */
function toToolInput(context: AdmissionContext, tool: UpstreamTool): Omit<ToolInput, 'origin'> {
  const alwaysLoad = configuredAlwaysLoad(context.server, context.config, tool.name, context.globalAlwaysLoad);
  const override = context.rules.override(tool.name);
  const { name: _name, description: _description, inputSchema: _inputSchema, _meta, ...fields } = tool;
  // G5: the title, annotations and schema texts reach the model too (tools/list, search results).
  const ownFields = untrustedToolFields(fields, (text) => untrustedText(text, context.limits));
  const mcpFields = override?.title !== undefined ? { ...ownFields, title: override.title } : ownFields;
  const description =
    override?.description !== undefined
      ? cutText(override.description, context.limits.descriptionChars)
      : upstreamDescription(context, tool);
  return {
    name: tool.name,
    originalName: tool.name,
    description,
    inputSchema: untrustedSchema(tool.inputSchema, (text) => untrustedText(text, context.limits)),
    ...(typeof tool.inputSchema['$schema'] === 'string' && { inputSchemaDialect: tool.inputSchema['$schema'] }),
    ...(_meta !== undefined && { meta: _meta }),
    ...(Object.keys(mcpFields).length > 0 && { mcpFields }),
    ...(alwaysLoad !== undefined && { alwaysLoad }),
  };
}

/**
 * G5: third-party text, bounded (`descriptionChars`) and unable to pose as the structure the
 * gateway writes around it (fake `</available-deferred-tools>`, `<system>` tags).
 */
function upstreamDescription(context: AdmissionContext, tool: UpstreamTool): string {
  const raw = tool.description ?? '';
  const limit = context.limits.descriptionChars;
  if (raw.length > limit) {
    context.logger.warn(
      `"${context.server}": tool "${tool.name}" has a ${raw.length}-character description; kept ${limit} (limit descriptionChars)`,
    );
  }
  return untrustedText(raw, context.limits);
}

/** Third-party text as the catalog keeps it: at most `descriptionChars`, no structural tags. */
export function untrustedText(text: string, limits: Limits): string {
  return neutralizeUntrusted(cutText(text, limits.descriptionChars));
}

/**
 * A2 inputs from config: per-server `defer`, `alwaysLoad` (true or tool list), and the global
 * `toolSearch.alwaysLoad` list (`mcp__server__tool` or `mcp__server`). The server's own
 * `_meta["anthropic/alwaysLoad"]` applies unless the config says `defer: true`.
 */
export function configuredAlwaysLoad(
  server: string,
  config: ServerConfig,
  tool: string,
  globalList: readonly string[],
): boolean | undefined {
  if (config.defer === true) return false;
  if (config.defer === false || config.alwaysLoad === true) return true;
  if (Array.isArray(config.alwaysLoad) && config.alwaysLoad.includes(tool)) return true;
  if (globalList.includes(qualifyMcpName(server, tool)) || globalList.includes(`mcp__${server}`)) return true;
  return undefined;
}
