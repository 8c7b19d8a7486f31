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
declare const WebAssembly: { compile(bytes: Uint8Array): Promise<CompiledEngine> };

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

/** A fresh engine instance (its own memory), from the compiled module when given. */
export function instantiateEngine(wasmModule?: CompiledEngine): Promise<QuickJSWASMModule> {
  return newQuickJSWASMModuleFromVariant(
    wasmModule ? newVariant(variant, { wasmModule: wasmModule as never }) : variant,
  );
}
