/**
 * G11 — where the engine comes from: QuickJS compiled to WebAssembly (the `quickjs-emscripten`
 * family's sync release build, shipped in the npm package: nothing downloads at run time). The
 * WebAssembly is compiled once per process and handed to each worker, so a run pays for an
 * instance, not a compile.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import variantModule from '@jitl/quickjs-wasmfile-release-sync';
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSSyncVariant,
  type QuickJSWASMModule,
} from 'quickjs-emscripten-core';

/** A compiled `WebAssembly.Module` (the project's TypeScript libraries carry no WebAssembly types). */
export type CompiledEngine = object;
/** The engine's memory: what it has grown to, in bytes. */
export interface EngineMemory {
  readonly buffer: { readonly byteLength: number };
}
declare const WebAssembly: {
  compile(bytes: Uint8Array): Promise<CompiledEngine>;
  Memory: new (descriptor: { initial: number; maximum: number }) => EngineMemory;
};

const PAGE_BYTES = 64 * 1024;
/** The engine's own starting size (its build's INITIAL_MEMORY). */
const INITIAL_BYTES = 16 * 1024 * 1024;

// The package's types describe its CommonJS build; as ESM the variant is the default export.
const variant = ((variantModule as { default?: QuickJSSyncVariant }).default ??
  variantModule) as unknown as QuickJSSyncVariant;

let compiled: Promise<CompiledEngine> | undefined;

/** The engine's WebAssembly, compiled once (memoized). */
export function compiledEngine(): Promise<CompiledEngine> {
  compiled ??= (async () => {
    const path = createRequire(import.meta.url).resolve('@jitl/quickjs-wasmfile-release-sync/wasm');
    return WebAssembly.compile(await readFile(path));
  })();
  return compiled;
}

/**
 * A fresh engine instance (its own memory), from the compiled module when given. With
 * `maximumBytes` its WebAssembly memory can never grow past that (G11: the hard bound of one
 * run's memory; without it the build's own maximum, 2 GiB, applies); `memory` is that memory.
 */
export async function instantiateEngine(
  wasmModule?: CompiledEngine,
  maximumBytes?: number,
): Promise<{ engine: QuickJSWASMModule; memory?: EngineMemory }> {
  const memory =
    maximumBytes === undefined
      ? undefined
      : new WebAssembly.Memory({
          initial: INITIAL_BYTES / PAGE_BYTES,
          maximum: Math.max(INITIAL_BYTES, maximumBytes) / PAGE_BYTES,
        });
  const options = {
    ...(wasmModule && { wasmModule: wasmModule as never }),
    ...(memory && { wasmMemory: memory as never }),
  };
  const engine = await newQuickJSWASMModuleFromVariant(
    Object.keys(options).length > 0 ? newVariant(variant, options) : variant,
  );
  return { engine, ...(memory && { memory }) };
}
