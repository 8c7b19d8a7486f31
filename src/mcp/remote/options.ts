/**
 * G7 — what a hub's connections share about remote servers: the state directory's memory of
 * eras and transports (and, for OAuth servers, the token store).
 */
import type { Limits } from '../../core/limits.js';
import type { SdkConnectionOptions } from '../sdk-connection.js';
import { defaultStateDir } from '../state-dir.js';
import { ServerMemoryStore } from './memory.js';

export function remoteOptions(limits: Limits, stateDir: string = defaultStateDir()): SdkConnectionOptions {
  return { limits, memory: new ServerMemoryStore(stateDir) };
}
