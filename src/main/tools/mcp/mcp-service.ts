import type { McpServerState } from '../../../shared/mcp';
import type { Settings } from '../../../shared/settings';
import type { ToolRegistry } from '../tool-registry';
import { Emitter, type AsyncDisposable, type Disposable } from '../../common/emitter';
import { McpManager, type McpManagerOptions } from './';
import type { McpServers } from './mcp-config-file';

/**
 * The app's MCP servers: Settings' `mcpServers` plus the --mcp-config file's (the file wins a
 * name clash: it was named on the command line). Servers start in the background, never
 * blocking start-up; their tools are (re-)registered whenever a server's state changes. When the
 * mcpServers setting changes only the servers added, changed or removed start or end: saving
 * one server in Settings never cuts off the others' running calls.
 */
export class McpService implements AsyncDisposable {
  private manager: McpManager | null = null;
  private configKey: string | null = null;
  private registered: Disposable[] = [];
  private starting: Promise<void> = Promise.resolve();
  private readonly changed = new Emitter<McpServerState[]>();
  /** The states of all servers, whenever one changes. */
  readonly onDidChange = this.changed.event;
  private disposed = false;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly fileServers: McpServers,
    private readonly options: McpManagerOptions = {},
  ) {}

  /** Starts the servers for these settings; a no-op when the configuration did not change. */
  apply(settingsServers: Settings['mcpServers']): void {
    if (this.disposed) return;
    const merged = { ...settingsServers, ...this.fileServers };
    const key = JSON.stringify(merged);
    if (key === this.configKey) return;
    this.configKey = key;
    if (this.manager) {
      this.starting = this.manager.update(merged);
      return;
    }
    const manager = new McpManager(merged, this.options);
    this.manager = manager;
    manager.onDidChange(() => this.sync(manager));
    this.sync(manager);
    this.starting = manager.start();
  }

  /** Resolves once every server of the current configuration is ready or failed (tests, CLI). */
  whenStarted(): Promise<void> {
    return this.starting;
  }

  states(): McpServerState[] {
    return this.manager?.states() ?? [];
  }

  /** Restarts one server in the background; false when there is no server by that name. */
  restart(name: string): boolean {
    const manager = this.manager;
    if (!manager || !manager.states().some((s) => s.name === name)) return false;
    this.starting = manager.restart(name).then(() => undefined);
    return true;
  }

  /** Starts a remote server's sign-in in the background; false when there is no such remote server. */
  signIn(name: string): boolean {
    return this.manager?.signIn(name) ?? false;
  }

  /** Resolves once the sign-ins under way have ended (tests). */
  whenSignedIn(): Promise<void> {
    return this.manager?.whenSignedIn() ?? Promise.resolve();
  }

  private sync(manager: McpManager): void {
    if (this.disposed || manager !== this.manager) return;
    for (const registration of this.registered.splice(0)) registration.dispose();
    for (const tool of manager.tools()) {
      try {
        this.registered.push(this.registry.register(tool));
      } catch (error) {
        // A name already taken (another server's tool after sanitising): keep the first.
        console.warn(`[waypoint] MCP tool ${tool.name} not registered: ${(error as Error).message}`);
      }
    }
    this.changed.fire(manager.states());
  }

  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    for (const registration of this.registered.splice(0)) registration.dispose();
    this.changed.dispose();
    await this.manager?.dispose();
  }
}
