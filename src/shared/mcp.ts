import { z } from 'zod';

/** An MCP server as Settings shows it. */
const base = { name: z.string(), transport: z.enum(['stdio', 'http']) };
export const McpServerState = z.discriminatedUnion('status', [
  z.object({ ...base, status: z.literal('starting') }),
  /** `tools`: the server's own tool names, for rules made in Settings. */
  z.object({ ...base, status: z.literal('ready'), toolCount: z.number().int().nonnegative(), tools: z.array(z.string().max(200)).max(5_000) }),
  z.object({ ...base, status: z.literal('failed'), error: z.string(), stderrTail: z.string() }),
]);
export type McpServerState = z.infer<typeof McpServerState>;
