import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { APP_VERSION } from '../../app/app-version';
import { carryOut, type ForwardedRequestTarget } from '../../app/forwarded-requests';
import { createPlanningServices } from '../../app/planning-services';
import type { McpArgs } from '../cli-args';
import { createPlanningServer } from './planning-server';

export interface McpIo {
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

/**
 * `waypoint mcp`: serves the planning tools over stdio until the client goes away (stdin ends or
 * breaks, stdout breaks) or a signal comes. Every plan change is in the chat's log before its
 * result is sent; on the way out the log is flushed and the chat's lock given back, so the app or
 * a restarted server can take the chat on. stdout carries only the protocol; words go to stderr.
 */
export async function serveMcp(args: McpArgs, io: McpIo): Promise<number> {
  const say = (message: string) => io.stderr.write(`waypoint mcp: ${message}\n`);
  // The user's plan edits in the app come through the chat's inbox: applied here as the user's,
  // they reach the client at the end of its next tool result (user-edit-notes.ts).
  let target: ForwardedRequestTarget | null = null;
  const services = await createPlanningServices({
    dataDir: args.dataDir,
    style: args.planningStyle,
    holder: 'waypoint mcp',
    warn: say,
    onRequest: (sessionId, { request, from }) => (target ? carryOut(target, sessionId, request, from.holder) : undefined),
  });
  target = services.requests;
  const { server, dispose } = createPlanningServer(services, APP_VERSION, say);
  const transport = new StdioServerTransport(io.stdin as never, io.stdout as never);

  let closed!: () => void;
  const done = new Promise<void>((resolve) => (closed = resolve));
  let closing = false;
  const shutdown = (why: string): void => {
    if (closing) return;
    closing = true;
    say(`${why}; saving and leaving.`);
    dispose();
    void server
      .close()
      .catch(() => undefined)
      .then(() => services.dispose())
      .then(closed);
  };
  await server.connect(transport);
  server.onclose = () => shutdown('the client closed the connection');
  io.stdin.once('end', () => shutdown('the client closed stdin'));
  io.stdin.once('error', () => shutdown('stdin broke'));
  // A client that vanished mid-call: its answer cannot be written; the plan change is kept.
  io.stdout.once('error', () => shutdown('the client went away'));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => shutdown(`${signal} received`));
  say(`serving the ${services.style} planning tools for ${args.dataDir}.`);
  await done;
  return 0;
}
