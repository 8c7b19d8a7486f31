/**
 * G13 — the typed errors of moving in (`import`, `add`, `remove`). Each message is one line that
 * names the file or the registry and says what to do; none carries a secret value.
 */
import { ToolsearchError } from '../../core/errors.js';
import { sanitizeLogText } from '../../util/log.js';

/** A client config that cannot be read, parsed or recognised. Nothing was written. */
export class ClientConfigError extends ToolsearchError {
  override name = 'ClientConfigError';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

/** The gateway's servers file cannot be read or would not be valid. Nothing was written. */
export class ServersFileError extends ToolsearchError {
  override name = 'ServersFileError';
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file}: ${reason}`);
  }
}

/** A server name that is already taken by a different entry. Nothing was written. */
export class NameClashError extends ToolsearchError {
  override name = 'NameClashError';
  constructor(
    readonly server: string,
    readonly existing: string,
    readonly incoming: string,
    hint: string,
  ) {
    super(`server "${server}" is already in ${existing}, and ${incoming} has a different "${server}"; ${hint}`);
  }
}

/**
 * Another program saved the file between our read and our write (an editor, a client that keeps
 * its config up to date, a second toolsearch). Our write did not happen; theirs is kept whole.
 */
export class ConcurrentChangeError extends ToolsearchError {
  override name = 'ConcurrentChangeError';
  constructor(
    readonly file: string,
    readonly attempts: number,
  ) {
    super(
      `${file} was changed by another program while toolsearch was writing it (${attempts} ${attempts === 1 ? 'try' : 'tries'}); nothing was written: run the command again once it is quiet`,
    );
  }
}

/** The MCP Registry could not be reached, or did not answer as its API says. Nothing was written. */
export class RegistryError extends ToolsearchError {
  override name = 'RegistryError';
  constructor(
    readonly registry: string,
    readonly reason: string,
  ) {
    // The reason may quote the registry's own text: escaped, so it cannot drive the terminal.
    super(sanitizeLogText(`MCP Registry at ${registry}: ${reason}; nothing was written`));
  }
}

/** A registry server the gateway has no way to run (only an MCP bundle, or a package that serves HTTP). */
export class UnrunnableServerError extends ToolsearchError {
  override name = 'UnrunnableServerError';
  constructor(
    readonly server: string,
    readonly reason: string,
  ) {
    super(sanitizeLogText(`registry server "${server}": ${reason}; nothing was written`));
  }
}
