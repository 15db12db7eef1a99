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

/** A started server and the configuration it was started with (to see whether an update changes it). */
interface Running {
  key: string;
  connection: McpConnection;
}

/**
 * The MCP servers from a Claude Desktop style `mcpServers` record: starts them, tracks their
 * state, exposes their tools, restarts and disposes them. Nothing it does throws.
 */
export class McpManager implements AsyncDisposable {
  private readonly running = new Map<string, Running>();
  private invalid: InvalidEntry[] = [];
  private readonly changed = new Emitter<McpServerState[]>();
  /** Fires the states of all servers whenever one changes (tools() may have changed too). */
  readonly onDidChange = this.changed.event;
  private disposed = false;
  private readonly timeouts: { connectMs: number; callMs: number };

  constructor(servers: Readonly<Record<string, unknown>>, private readonly options: McpManagerOptions = {}) {
    this.timeouts = { connectMs: options.connectTimeoutMs ?? 30_000, callMs: options.callTimeoutMs ?? 60_000 };
    this.configure(servers);
  }

  /**
   * Sets up connections for the entries not running with that same configuration. Returns the
   * new connections (not started yet) and the ones they or an invalid entry replace (to end).
   */
  private configure(servers: Readonly<Record<string, unknown>>): { added: McpConnection[]; replaced: McpConnection[] } {
    this.invalid = [];
    const added: McpConnection[] = [];
    const replaced: McpConnection[] = [];
    for (const [name, raw] of Object.entries(servers)) {
      const old = this.running.get(name);
      // Config comes from a file or Settings: validate each entry on its own.
      const parsed = McpServerConfig.safeParse(raw);
      if (!parsed.success) {
        const detail = describeZodError(parsed.error);
        this.invalid.push({ name, transport: typeof raw === 'object' && raw !== null && 'url' in raw ? 'http' : 'stdio', error: `Invalid configuration (expected {command, args?, env?} or {url, headers?, client_id?}): ${detail}` });
        if (old) {
          this.running.delete(name);
          replaced.push(old.connection);
        }
        continue;
      }
      const key = JSON.stringify(parsed.data);
      if (old?.key === key) continue;
      if (old) replaced.push(old.connection);
      const connection = new McpConnection(name, parsed.data, this.timeouts, this.options.stderrTailChars ?? 4000, this.options.signIns);
      connection.onDidChange(() => this.fireChange());
      this.running.set(name, { key, connection });
      added.push(connection);
    }
    return { added, replaced };
  }

  private fireChange(): void {
    if (!this.disposed) this.changed.fire(this.states());
  }

  /** Start every server; resolves when each is ready or failed. */
  async start(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.connection.start()));
  }

  /**
   * Moves to a new set of servers touching only what changed: a server whose configuration is
   * the same keeps its process and tools, a changed one restarts, a removed one ends, a new one
   * starts (a rename is a removal and a new server). Resolves when the started ones are ready or failed.
   */
  async update(servers: Readonly<Record<string, unknown>>): Promise<void> {
    if (this.disposed) return;
    const ended: McpConnection[] = [];
    for (const [name, { connection }] of this.running) {
      if (!Object.hasOwn(servers, name)) {
        this.running.delete(name);
        ended.push(connection);
      }
    }
    const { added, replaced } = this.configure(servers);
    ended.push(...replaced);
    this.fireChange();
    // The old processes end in the background; a disposed connection fires no more changes.
    void Promise.all(ended.map((c) => c.dispose()));
    await Promise.all(added.map((c) => c.start()));
  }

  /** Restart one server (e.g. after it crashed). Unknown names are a no-op returning false. */
  async restart(name: string): Promise<boolean> {
    const connection = this.running.get(name)?.connection;
    if (!connection || this.disposed) return false;
    await connection.start();
    return true;
  }

  /** Starts one remote server's sign-in; false when there is no such server or it is not remote. */
  signIn(name: string): boolean {
    const connection = this.running.get(name)?.connection;
    if (!connection || this.disposed) return false;
    return connection.signIn();
  }

  /** Resolves once every sign-in under way has ended (tests). */
  async whenSignedIn(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.connection.whenSignedIn()));
  }

  states(): McpServerState[] {
    const live = [...this.running.values()].map((r) => r.connection.state);
    const bad: McpServerState[] = this.invalid.map(({ name, transport, error }) => ({ name, transport, status: 'failed', error, stderrTail: '' }));
    return [...live, ...bad].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  /** Tools of every ready server, named `<server>__<tool>` within the API's name rules. */
  tools(): ToolDefinition[] {
    const taken = new Set<string>();
    const tools: ToolDefinition[] = [];
    const byName = [...this.running.values()].map((r) => r.connection).sort((a, b) => (a.name < b.name ? -1 : 1));
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
    await Promise.all([...this.running.values()].map((r) => r.connection.dispose()));
  }
}
