import { z } from 'zod';

/** An MCP server as Settings shows it. */
const base = { name: z.string(), transport: z.enum(['stdio', 'http']) };
export const McpServerState = z.discriminatedUnion('status', [
  z.object({ ...base, status: z.literal('starting') }),
  /** `tools`: the server's own tool names, for rules made in Settings. */
  z.object({ ...base, status: z.literal('ready'), toolCount: z.number().int().nonnegative(), tools: z.array(z.string().max(200)).max(5_000) }),
  z.object({ ...base, status: z.literal('failed'), error: z.string(), stderrTail: z.string() }),
  /**
   * A remote server that wants an OAuth sign-in: `signedOut` once its tokens were refused (it had
   * been signed in), `signInUrl` while a sign-in waits for the browser (never a token: the
   * authorization page's address), `error` when the last sign-in was refused.
   */
  z.object({
    ...base,
    status: z.literal('sign_in'),
    signedOut: z.boolean(),
    signInUrl: z.url({ protocol: /^https?$/ }).max(8_000).optional(),
    error: z.string().max(2_000).optional(),
  }),
]);
export type McpServerState = z.infer<typeof McpServerState>;
