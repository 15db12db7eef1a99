import type { McpServerState } from '../../../shared/mcp';
import { failed, OK } from './errors';
import type { ActionResult, SliceCreator } from './types';

export interface McpSlice {
  mcpServers: McpServerState[];
  setMcpStates(servers: McpServerState[]): void;
  loadMcpStates(): Promise<void>;
  restartMcpServer(name: string): Promise<ActionResult>;
  /** Starts a remote server's sign-in in main; its page and outcome arrive as mcp_state. */
  signInMcpServer(name: string): Promise<ActionResult>;
}

export const createMcpSlice: SliceCreator<McpSlice> = (set, _get, api) => ({
  mcpServers: [],
  setMcpStates: (mcpServers) => set({ mcpServers }),
  async loadMcpStates() {
    try {
      const { servers } = await api.call('getMcpStates', {});
      set({ mcpServers: servers });
    } catch {
      // Settings still opens; mcp_state events fill the list in when main sends them.
    }
  },
  async restartMcpServer(name) {
    try {
      const { restarted } = await api.call('restartMcpServer', { name });
      return restarted ? OK : { ok: false, message: `There is no MCP server named "${name}" any more.` };
    } catch (error) {
      return failed(error);
    }
  },
  async signInMcpServer(name) {
    try {
      const { started } = await api.call('signInMcpServer', { name });
      return started ? OK : { ok: false, message: `There is no remote MCP server named "${name}" any more.` };
    } catch (error) {
      return failed(error);
    }
  },
});
