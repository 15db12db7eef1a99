import { McpServerConfig } from '../../../shared/settings';
import { describeZodError } from '../../../shared/zod-error';
import { Emitter, type AsyncDisposable } from '../../common/emitter';
import type { ToolDefinition } from '../tool';
import { McpConnection } from './mcp-connection';
import type { McpManagerOptions, McpServerState, McpTransportKind } from './mcp-state';
import { createMcpTool } from './mcp-tool';
import { mcpToolName } from './tool-name';

/** An entry that failed validation: shown as failed, never started. */
interface InvalidEntry {
  name: string;
  transport: McpTransportKind;
  error: string;
}

/**
 * The MCP servers from a Claude Desktop style `mcpServers` record: starts them, tracks their
 * state, exposes their tools, restarts and disposes them. Nothing it does throws.
 */
export class McpManager implements AsyncDisposable {
  private readonly connections = new Map<string, McpConnection>();
  private readonly invalid: InvalidEntry[] = [];
  private readonly changed = new Emitter<McpServerState[]>();
  /** Fires the states of all servers whenever one changes (tools() may have changed too). */
  readonly onDidChange = this.changed.event;
  private disposed = false;

  constructor(servers: Readonly<Record<string, unknown>>, options: McpManagerOptions = {}) {
    const timeouts = { connectMs: options.connectTimeoutMs ?? 30_000, callMs: options.callTimeoutMs ?? 60_000 };
    for (const [name, raw] of Object.entries(servers)) {
      // Config comes from a file or Settings: validate each entry on its own.
      const parsed = McpServerConfig.safeParse(raw);
      if (!parsed.success) {
        const detail = describeZodError(parsed.error);
        this.invalid.push({ name, transport: typeof raw === 'object' && raw !== null && 'url' in raw ? 'http' : 'stdio', error: `Invalid configuration (expected {command, args?, env?} or {url, headers?}): ${detail}` });
        continue;
      }
      const connection = new McpConnection(name, parsed.data, timeouts, options.stderrTailChars ?? 4000, options.signIns);
      connection.onDidChange(() => this.fireChange());
      this.connections.set(name, connection);
    }
  }

  private fireChange(): void {
    if (!this.disposed) this.changed.fire(this.states());
  }

  /** Start every server; resolves when each is ready or failed. */
  async start(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.start()));
  }

  /** Restart one server (e.g. after it crashed). Unknown names are a no-op returning false. */
  async restart(name: string): Promise<boolean> {
    const connection = this.connections.get(name);
    if (!connection || this.disposed) return false;
    await connection.start();
    return true;
  }

  /** Starts one remote server's sign-in; false when there is no such server or it is not remote. */
  signIn(name: string): boolean {
    const connection = this.connections.get(name);
    if (!connection || this.disposed) return false;
    return connection.signIn();
  }

  /** Resolves once every sign-in under way has ended (tests). */
  async whenSignedIn(): Promise<void> {
    await Promise.all([...this.connections.values()].map((c) => c.whenSignedIn()));
  }

  states(): McpServerState[] {
    const live = [...this.connections.values()].map((c) => c.state);
    const bad: McpServerState[] = this.invalid.map(({ name, transport, error }) => ({ name, transport, status: 'failed', error, stderrTail: '' }));
    return [...live, ...bad].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Tools of every ready server, named `<server>__<tool>` within the API's name rules. */
  tools(): ToolDefinition[] {
    const taken = new Set<string>();
    const tools: ToolDefinition[] = [];
    const byName = [...this.connections.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const connection of byName) {
      for (const tool of connection.tools) {
        const apiName = mcpToolName(connection.name, tool.name, taken);
        taken.add(apiName);
        tools.push(createMcpTool(connection, tool, apiName));
      }
    }
    return tools;
  }

  /** End every server process and stop emitting. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    this.changed.dispose();
    await Promise.all([...this.connections.values()].map((c) => c.dispose()));
  }
}
