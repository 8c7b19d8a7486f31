/** G13 — a server a package runner (npx, uvx, …) is still installing, and how that reads. */

/**
 * G13: a pending server that a package runner (npx, uvx, …) is still installing: searches name
 * it apart from servers that are only connecting, since it may take minutes.
 */
export interface InstallingServer {
  readonly server: string;
  /** The runner: `npx`, `uvx`, … */
  readonly runner: string;
  /** Epoch ms the install started. */
  readonly since: number;
}

/** "installing through npx (45 s so far)": how an installing server reads, for people and the model. */
export function installingText(server: Omit<InstallingServer, 'server'>, now: number): string {
  const seconds = Math.max(0, Math.round((now - server.since) / 1000));
  const spent = seconds < 120 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `installing through ${server.runner} (${spent} so far)`;
}
