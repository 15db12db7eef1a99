import { toDisposable, type Disposable } from '../common/emitter';
import type { ToolDefinition, ToolGroup } from './tool';

/** Tools by name. Planning tools are registered per dialect and selected per request. */
export class ToolRegistry {
  private tools = new Map<string, ToolDefinition>();

  register(tool: ToolDefinition): Disposable {
    if (this.tools.has(tool.name)) throw new Error(`Tool "${tool.name}" is already registered`);
    this.tools.set(tool.name, tool);
    return toDisposable(() => {
      if (this.tools.get(tool.name) === tool) this.tools.delete(tool.name);
    });
  }

  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name);
  }

  list(groups?: readonly ToolGroup[]): ToolDefinition[] {
    const all = [...this.tools.values()];
    const picked = groups ? all.filter((t) => groups.includes(t.group)) : all;
    // Sorted by name so the request's tool list is byte-stable from turn to turn (prompt cache).
    return picked.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
