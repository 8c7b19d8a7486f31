/**
 * G13 — what the MCP Registry's API answers, as far as `add` reads it (the registry's
 * `docs/reference/api/openapi.yaml`: `ServerList`, `ServerResponse`, `ServerDetail` = server.json).
 *
 * `GET /v0.1/servers` answers `{servers: [{server: <server.json>, _meta}], metadata: {nextCursor,
 * count}}`. A server.json has `packages[]` (`registryType` npm | pypi | oci | nuget | mcpb,
 * `identifier`, `version`, `transport`, `runtimeArguments`, `packageArguments`,
 * `environmentVariables[]`) and `remotes[]` (`type` streamable-http | sse, `url`, `headers[]`,
 * `variables`). Inputs (variables, headers, arguments) carry `description`, `isRequired`,
 * `isSecret`, `default`, a fixed `value` (with `{name}` references to its `variables`).
 *
 * Checked loosely (keys the registry adds later are kept); a page whose shape is wrong is refused
 * whole, one server entry whose shape is wrong is skipped and counted.
 */
import { z } from 'zod';

const input = z.looseObject({
  description: z.string().optional(),
  isRequired: z.boolean().optional(),
  isSecret: z.boolean().optional(),
  format: z.string().optional(),
  value: z.string().optional(),
  default: z.string().optional(),
  placeholder: z.string().optional(),
  choices: z.array(z.string()).optional(),
});

const withVariables = input.extend({ variables: z.record(z.string(), input).optional() });

/** An environment variable or a header. */
const keyValue = withVariables.extend({ name: z.string().min(1) });

const argument = withVariables.extend({
  type: z.enum(['positional', 'named']),
  name: z.string().min(1).optional(),
  valueHint: z.string().min(1).optional(),
  isRepeated: z.boolean().optional(),
});

const transport = z.looseObject({
  type: z.string(),
  url: z.string().optional(),
  headers: z.array(keyValue).optional(),
  variables: z.record(z.string(), input).optional(),
});

const registryPackage = z.looseObject({
  registryType: z.string(),
  registryBaseUrl: z.string().optional(),
  identifier: z.string().min(1),
  version: z.string().optional(),
  runtimeHint: z.string().optional(),
  transport: transport.optional(),
  runtimeArguments: z.array(argument).optional(),
  packageArguments: z.array(argument).optional(),
  environmentVariables: z.array(keyValue).optional(),
});

export const serverJsonSchema = z.looseObject({
  /** Reverse-DNS `namespace/name`, as the API documents it: a name that is not is an entry of the wrong shape. */
  name: z
    .string()
    .max(200)
    .regex(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/),
  description: z.string().optional(),
  title: z.string().optional(),
  version: z.string().optional(),
  websiteUrl: z.string().optional(),
  packages: z.array(registryPackage).optional(),
  remotes: z.array(transport).optional(),
});

/** The registry's own metadata on an answer (`_meta["io.modelcontextprotocol.registry/official"]`). */
export const OFFICIAL_META = 'io.modelcontextprotocol.registry/official';

export const serverResponseSchema = z.looseObject({
  server: serverJsonSchema,
  _meta: z.record(z.string(), z.unknown()).optional(),
});

export const serverListSchema = z.looseObject({
  servers: z.array(z.unknown()),
  metadata: z.looseObject({ nextCursor: z.string().nullable().optional(), count: z.number().optional() }).optional(),
});

export type RegistryInput = z.infer<typeof input>;
export type RegistryKeyValue = z.infer<typeof keyValue>;
export type RegistryArgument = z.infer<typeof argument>;
export type RegistryTransport = z.infer<typeof transport>;
export type RegistryPackage = z.infer<typeof registryPackage>;
export type ServerJson = z.infer<typeof serverJsonSchema>;
export type ServerResponse = z.infer<typeof serverResponseSchema>;
