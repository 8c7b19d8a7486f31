/**
 * G13 — a registry server (server.json) as a servers-file entry.
 *
 * Ways to run it, in this order unless `use` picks one: an npm package (`npx -y <id>@<version>`,
 * pinned), a PyPI package (`uvx <id>==<version>`), an OCI image (`docker run -i --rm … <image>`, each
 * variable passed in with `-e NAME`), a NuGet package (`dnx <id>@<version> --yes`), a remote
 * (`url` entry, `type` http or sse, with its headers). An MCP bundle, and a package that serves
 * HTTP on a port of its own, are not ways the gateway can start.
 *
 * Inputs (environment variables, headers, arguments, URL variables) become values:
 * - a value given with `--set NAME=value` is written as it is;
 * - a fixed `value` from the registry is written, its `{name}` parts filled the same way;
 * - a required input becomes a `${NAME}` placeholder (`${NAME:-default}` when it has a default):
 *   an environment variable under its own name, an argument, header or URL part under the
 *   server's name and its own (`${CRM_TENANT_ID}`);
 *   when NAME is not set in the environment here either, the entry is written disabled, so the
 *   file stays one the gateway accepts (a missing variable would refuse the whole file);
 * - an optional environment variable or header is left out and listed; an optional argument
 *   takes its default, or is left out.
 *
 * The registry is outside: a value it gives that holds `${` is refused (the gateway would fill it
 * from its own environment, handing a secret to the server), and package names and versions
 * must look like package names and versions (they become program arguments).
 */
import type { Environment } from '../variables.js';
import { UnrunnableServerError } from './errors.js';
import type {
  RegistryArgument,
  RegistryInput,
  RegistryPackage,
  RegistryTransport,
  ServerJson,
} from './registry-schema.js';
import { variableName } from './variable-names.js';

export const WAYS = ['npm', 'pypi', 'oci', 'nuget', 'remote'] as const;
export type Way = (typeof WAYS)[number];

/** One input of the server and what became of it. */
export interface EntryInput {
  /** The variable it is read from (`BRAVE_API_KEY`). */
  readonly name: string;
  /** `env`, `header X-API-Key`, `argument --port`, `URL`. */
  readonly where: string;
  readonly description?: string;
  readonly required: boolean;
  readonly secret: boolean;
  readonly default?: string;
  /**
   * `set`: given with --set and written; `environment`: a placeholder, set here; `missing`: a
   * placeholder not set here (the entry is written disabled); `default`: a placeholder with a
   * default; `optional`: left out.
   */
  readonly state: 'set' | 'environment' | 'missing' | 'default' | 'optional';
}

export interface RegistryEntry {
  /** The name it is suggested under in the servers file. */
  readonly name: string;
  readonly entry: Record<string, unknown>;
  readonly way: Way;
  /** `npm @scope/pkg@1.2.3`, `remote https://…`. */
  readonly via: string;
  readonly inputs: readonly EntryInput[];
  /** The other ways it could run (`--use`). */
  readonly others: readonly Way[];
  readonly notes: readonly string[];
}

export interface EntryOptions {
  /** Its name in the servers file (default `suggestedName`): the prefix of the variables its arguments, headers and URL read. */
  readonly name?: string;
  readonly use?: Way;
  /** `--set NAME=value`. */
  readonly values?: Readonly<Record<string, string>>;
  /** The environment here, to tell which placeholders are set. */
  readonly env?: Environment;
}

const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/i;
const PYPI_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;
const NUGET_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const IMAGE = /^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/;
const VERSION = /^[A-Za-z0-9][A-Za-z0-9.+_-]*$/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const TEMPLATE = /\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/** The server's short name: `io.github.acme/mcp-server-weather` → `weather`. */
export function suggestedName(registryName: string): string {
  const last = (registryName.split('/').at(-1) ?? registryName)
    .toLowerCase()
    .replace(/[^a-z0-9_.-]+/g, '-')
    .replace(/_{2,}/g, '_')
    .replace(/^[-.]+|[-.]+$/g, '');
  const trimmed = last.replace(/^(?:mcp-server-|server-|mcp-)/, '').replace(/(?:-mcp-server|-mcp|-server)$/, '');
  return trimmed || last || 'server';
}

/** What `server` offers, in the order tried. */
function waysOf(server: ServerJson): { way: Way; pkg?: RegistryPackage; remote?: RegistryTransport }[] {
  const ways: { way: Way; pkg?: RegistryPackage; remote?: RegistryTransport }[] = [];
  for (const way of WAYS) {
    if (way === 'remote') {
      for (const remote of server.remotes ?? [])
        if (remote.type === 'streamable-http' || remote.type === 'sse') ways.push({ way, remote });
    } else {
      for (const pkg of server.packages ?? [])
        if (pkg.registryType === way && (pkg.transport === undefined || pkg.transport.type === 'stdio'))
          ways.push({ way, pkg });
    }
  }
  return ways;
}

export function registryEntry(server: ServerJson, options: EntryOptions = {}): RegistryEntry {
  const ways = waysOf(server);
  const chosen = options.use === undefined ? ways[0] : ways.find((way) => way.way === options.use);
  if (chosen === undefined) throw new UnrunnableServerError(server.name, noWay(server, options.use, ways));
  const name = options.name ?? suggestedName(server.name);
  const builder = new EntryBuilder(server, options, variableName(name.toUpperCase()));
  const built = chosen.pkg ? builder.package(chosen.way, chosen.pkg) : builder.remote(chosen.remote!);
  const entry = {
    ...built.entry,
    ...(builder.inputs.some((input) => input.state === 'missing') && { disabled: true }),
  };
  return {
    name,
    entry,
    way: chosen.way,
    via: built.via,
    inputs: builder.inputs,
    others: [...new Set(ways.map((way) => way.way))].filter((way) => way !== chosen.way),
    notes: builder.notes,
  };
}

function noWay(server: ServerJson, use: Way | undefined, ways: readonly { way: Way }[]): string {
  if (use !== undefined && ways.length > 0)
    return `it offers no ${use} way to run it (it offers: ${[...new Set(ways.map((way) => way.way))].join(', ')})`;
  const offered = [
    ...(server.packages ?? []).map((pkg) =>
      pkg.transport && pkg.transport.type !== 'stdio'
        ? `${pkg.registryType} serving ${pkg.transport.type}`
        : pkg.registryType,
    ),
    ...(server.remotes ?? []).map((remote) => `remote ${remote.type}`),
  ];
  return offered.length === 0
    ? 'it lists no package and no remote'
    : `the gateway cannot start what it offers (${offered.join(', ')}): an MCP bundle is installed by a desktop app, and a package serving HTTP is started by you (then add its URL to the servers file)`;
}

class EntryBuilder {
  readonly inputs: EntryInput[] = [];
  readonly notes: string[] = [];

  constructor(
    private readonly server: ServerJson,
    private readonly options: EntryOptions,
    private readonly prefix: string,
  ) {}

  /**
   * The variable an argument, header or URL part reads: the server's name in front, since their
   * own names (`host`, `port`, `token`) are too common to be taken from the environment as they
   * are (`${HOST}` is often the machine's name). Environment variables keep their own names.
   */
  private own(name: string): string {
    return variableName(`${this.prefix}_${name}`.toUpperCase());
  }

  package(way: Way, pkg: RegistryPackage): { entry: Record<string, unknown>; via: string } {
    const id = pkg.identifier;
    const runtime = this.arguments(pkg.runtimeArguments);
    const args = this.arguments(pkg.packageArguments);
    const env = this.environment(pkg);
    const withEnv = Object.keys(env).length > 0 ? { env } : {};
    switch (way) {
      case 'npm': {
        const spec = `${this.checked(id, NPM_NAME, 'npm package name')}@${this.version(pkg)}`;
        return { entry: { command: 'npx', args: ['-y', ...runtime, spec, ...args], ...withEnv }, via: `npm ${spec}` };
      }
      case 'pypi': {
        const spec = `${this.checked(id, PYPI_NAME, 'PyPI package name')}==${this.version(pkg)}`;
        return { entry: { command: 'uvx', args: [...runtime, spec, ...args], ...withEnv }, via: `PyPI ${spec}` };
      }
      case 'oci': {
        const image = this.image(pkg);
        const passEnv = Object.keys(env).flatMap((name) => ['-e', name]);
        return {
          entry: { command: 'docker', args: ['run', '-i', '--rm', ...runtime, ...passEnv, image, ...args], ...withEnv },
          via: `OCI image ${image}`,
        };
      }
      default: {
        const spec = `${this.checked(id, NUGET_NAME, 'NuGet package name')}@${this.version(pkg)}`;
        const rest = args.length > 0 ? ['--', ...args] : [];
        return {
          entry: { command: 'dnx', args: [spec, '--yes', ...runtime, ...rest], ...withEnv },
          via: `NuGet ${spec}`,
        };
      }
    }
  }

  remote(remote: RegistryTransport): { entry: Record<string, unknown>; via: string } {
    const url = this.template(remote.url ?? '', remote.variables, 'URL');
    if (!/^https?:\/\/|^\$\{/.test(url))
      throw new UnrunnableServerError(this.server.name, 'its remote has no http or https URL');
    const headers: Record<string, string> = {};
    for (const header of remote.headers ?? []) {
      const name = this.checked(header.name, HEADER_NAME, 'header name');
      const value = this.input(this.own(name), header, `header ${name}`, 'left out');
      if (value !== undefined) headers[name] = value;
    }
    const type = remote.type === 'sse' ? 'sse' : 'http';
    return {
      entry: { type, url, ...(Object.keys(headers).length > 0 && { headers }) },
      via: `remote ${remote.type} ${url}`,
    };
  }

  private version(pkg: RegistryPackage): string {
    const version = pkg.version ?? this.server.version;
    if (version === undefined)
      throw new UnrunnableServerError(this.server.name, `its ${pkg.registryType} package names no version to pin`);
    if (pkg.version === undefined)
      this.notes.push(`the package names no version; pinned to the server's version ${version}`);
    return this.checked(version, VERSION, 'version');
  }

  /** An OCI reference with its tag (the package's version when the identifier has none). */
  private image(pkg: RegistryPackage): string {
    const image = this.checked(pkg.identifier, IMAGE, 'image reference');
    const last = image.split('/').at(-1) ?? image;
    if (last.includes(':') || last.includes('@')) return image;
    if (pkg.version === undefined) {
      this.notes.push('the image names no tag or version: docker runs its "latest"');
      return image;
    }
    return `${image}:${this.checked(pkg.version, VERSION, 'version')}`;
  }

  private environment(pkg: RegistryPackage): Record<string, string> {
    const env: Record<string, string> = {};
    for (const variable of pkg.environmentVariables ?? []) {
      const value = this.input(variable.name, variable, 'env', 'left out');
      if (value !== undefined) env[variable.name] = value;
    }
    return env;
  }

  private arguments(args: readonly RegistryArgument[] | undefined): string[] {
    const out: string[] = [];
    for (const arg of args ?? []) {
      if (arg.type === 'positional') {
        const hint = arg.valueHint ?? 'value';
        const value = this.input(this.own(hint), arg, `argument <${hint}>`, 'default');
        if (value !== undefined) out.push(value);
        continue;
      }
      if (arg.name === undefined) continue;
      const flag = this.literal(arg.name, `argument ${arg.name}`);
      if (flag.startsWith('-') === false)
        throw new UnrunnableServerError(this.server.name, `its named argument "${flag}" is not a flag`);
      const value = this.input(this.own(flag.replace(/^-+/, '')), arg, `argument ${flag}`, 'default');
      if (value !== undefined) out.push(flag, value);
    }
    return out;
  }

  /**
   * The value of one input: `--set`, the registry's fixed value, a placeholder when required, the
   * default (`optional: "default"`) or nothing (`"left out"`) when optional.
   */
  private input(
    wished: string,
    input: RegistryInput & { variables?: Record<string, RegistryInput> },
    where: string,
    optional: 'default' | 'left out',
  ): string | undefined {
    const name = variableName(wished);
    const given = this.options.values?.[name];
    const base = {
      name,
      where,
      ...(input.description !== undefined && { description: input.description }),
      required: input.isRequired === true,
      secret: input.isSecret === true,
      ...(input.default !== undefined && { default: input.default }),
    };
    if (given !== undefined) {
      this.inputs.push({ ...base, state: 'set' });
      return given;
    }
    if (input.value !== undefined) return this.template(input.value, input.variables, where);
    if (input.isRequired === true) {
      const fallback =
        input.default !== undefined && !input.default.includes('}') ? this.literal(input.default, where) : undefined;
      if (fallback !== undefined) {
        this.inputs.push({ ...base, state: 'default' });
        return `\${${name}:-${fallback}}`;
      }
      const set = this.options.env?.[name] !== undefined && this.options.env[name] !== '';
      this.inputs.push({ ...base, state: set ? 'environment' : 'missing' });
      return `\${${name}}`;
    }
    if (optional === 'default' && input.default !== undefined) return this.literal(input.default, where);
    this.inputs.push({ ...base, state: 'optional' });
    return undefined;
  }

  /** A fixed value with its `{name}` parts filled from `variables` (an unknown `{name}` stays, as the spec says). */
  private template(value: string, variables: Record<string, RegistryInput> | undefined, where: string): string {
    return this.literal(value, where).replace(TEMPLATE, (whole, name: string) => {
      const variable = variables?.[name];
      return variable === undefined ? whole : (this.input(this.own(name), variable, where, 'default') ?? '');
    });
  }

  /** A value from the registry, written as it is: never one the gateway would expand. */
  private literal(value: string, where: string): string {
    if (value.includes('${') || value.includes('\u0000'))
      throw new UnrunnableServerError(
        this.server.name,
        `its ${where} holds "\${" (the gateway would fill it from its own environment) or a NUL byte; refused`,
      );
    return value;
  }

  private checked(value: string, pattern: RegExp, what: string): string {
    if (!pattern.test(value))
      throw new UnrunnableServerError(
        this.server.name,
        `its ${what} ${JSON.stringify(value.slice(0, 80))} does not look like one; refused`,
      );
    return value;
  }
}
