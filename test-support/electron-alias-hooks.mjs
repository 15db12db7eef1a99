// Module hooks for a plain Node process that runs the built Electron main: `electron` is the
// stand-in (test-support/electron-stand-in.ts), as vi.mock makes it inside vitest.
const STAND_IN = new URL('./electron-stand-in.ts', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'electron') return { url: STAND_IN, shortCircuit: true };
  return nextResolve(specifier, context);
}
