import type Anthropic from '@anthropic-ai/sdk';
import type { ClientOptions } from '@anthropic-ai/sdk';

let loading: Promise<typeof Anthropic> | null = null;

/**
 * The SDK's client, loaded the first time a chat asks Claude (or the model list is asked for),
 * not at start-up: the SDK was the largest part of main's module loading (≈ 0.1–0.4 s of the web
 * shell's start on the 2-core machine, bench/README "where the start goes"), and the window has
 * nothing to ask Claude before the user sends. The error classes come from
 * '@anthropic-ai/sdk/error', a small module of their own (the same classes the client throws).
 */
export async function anthropicClient(options: ClientOptions): Promise<Anthropic> {
  const Sdk = await (loading ??= import('@anthropic-ai/sdk').then((sdk) => sdk.default));
  return new Sdk(options);
}
