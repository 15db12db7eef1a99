import type { McpServerState } from '../../../shared/mcp';
import type { AppServices } from '../../app/app-services';
import type { Disposable } from '../../common/emitter';

/** What the note needs of the services: the MCP states now and as they change. */
type McpStateSource = Pick<AppServices, 'onEvent' | 'router'>;

/** The line `waypoint run` prints for a remote server that wants a sign-in. */
function signInNeededLine(server: McpServerState & { status: 'sign_in' }): string {
  const why = server.signedOut ? 'is signed out' : 'needs a sign-in';
  return `waypoint: MCP server "${server.name}" ${why}, which waypoint run never does (it opens no browser): sign in to it from the Waypoint app (Settings, MCP servers, "Sign in"). This run goes on without its tools.\n`;
}

/**
 * A headless run never signs in: each remote server that asks for it is said once on stderr,
 * and the run goes on (MCP servers start in the background; nothing here waits for them).
 */
export function reportSignInsNeeded(services: McpStateSource, stderr: { write(text: string): unknown }): Disposable {
  const told = new Set<string>();
  const look = (servers: readonly McpServerState[]) => {
    for (const server of servers) {
      if (server.status !== 'sign_in' || told.has(server.name)) continue;
      told.add(server.name);
      stderr.write(signInNeededLine(server));
    }
  };
  const subscription = services.onEvent((event) => {
    if (event.type === 'mcp_state') look(event.servers);
  });
  void services.router('getMcpStates', {}).then((result) => {
    if (result.ok) look((result.value as { servers: McpServerState[] }).servers);
  });
  return subscription;
}
