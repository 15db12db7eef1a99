import type { ToolDefinition } from '../tool';
import { createEditFileTool } from './edit-file';
import { createListDirectoryTool } from './list-directory';
import { createReadFileTool } from './read-file';
import { createRunCommandTool } from './run-command';
import { createSearchFilesTool } from './search-files';
import { createWriteFileTool } from './write-file';
import { guardOffLimits, OffLimits } from './off-limits';

export { OffLimits, type OffLimitsPlace } from './off-limits';

/**
 * The six workspace tools, all confined to `root` (group 'workspace'), none of them reaching
 * into Waypoint's own folders when those lie inside it (off-limits.ts).
 */
export function createWorkspaceTools(root: string, offLimits: OffLimits = OffLimits.NONE): ToolDefinition[] {
  return [
    createReadFileTool(root),
    createWriteFileTool(root),
    createEditFileTool(root),
    createListDirectoryTool(root, offLimits),
    createSearchFilesTool(root, offLimits),
    createRunCommandTool(root),
  ].map((tool) => guardOffLimits(tool, root, offLimits));
}
