import type { ToolDefinition, ToolGroup } from './tool';
import { ToolRegistry } from './tool-registry';
import { createWorkspaceTools, OffLimits } from './workspace';

/** A chat's tools: the workspace tools of its folder on top of the shared ones (MCP). */
class LayeredRegistry extends ToolRegistry {
  constructor(
    private readonly shared: ToolRegistry,
    own: ToolDefinition[],
  ) {
    super();
    for (const tool of own) this.register(tool);
  }

  override get(name: string): ToolDefinition | undefined {
    return super.get(name) ?? this.shared.get(name);
  }

  override list(groups?: readonly ToolGroup[]): ToolDefinition[] {
    const own = super.list(groups);
    const taken = new Set(own.map((t) => t.name));
    // Same order rule as ToolRegistry.list: by name, so the request stays byte-stable.
    return [...own, ...this.shared.list(groups).filter((t) => !taken.has(t.name))].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
  }
}

/**
 * One registry per workspace folder, made on first use: chats in the same folder share it,
 * and a chat without a folder gets only the shared tools (nothing touches the disk).
 */
export class WorkspaceToolRegistries {
  private readonly byRoot = new Map<string, ToolRegistry>();

  constructor(
    private readonly shared: ToolRegistry,
    /** Waypoint's own folders, which no workspace tool touches (workspace/off-limits.ts). */
    private readonly offLimits: OffLimits = OffLimits.NONE,
  ) {}

  forRoot(root: string | null): ToolRegistry {
    if (!root) return this.shared;
    let registry = this.byRoot.get(root);
    if (!registry) {
      registry = new LayeredRegistry(this.shared, createWorkspaceTools(root, this.offLimits));
      this.byRoot.set(root, registry);
    }
    return registry;
  }
}
