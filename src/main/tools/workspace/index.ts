import type { ToolDefinition } from '../tool';
import { createEditFileTool } from './edit-file';
import { createListDirectoryTool } from './list-directory';
import { createReadFileTool } from './read-file';
import { createRunCommandTool } from './run-command';
import { createSearchFilesTool } from './search-files';
import { createWriteFileTool } from './write-file';

export { confine, canonicalRoot, type Confined, type ConfinedPath } from './confine';
export { hasShellControl } from './command-line';

/** The six workspace tools, all confined to `root` (group 'workspace'). */
export function createWorkspaceTools(root: string): ToolDefinition[] {
  return [
    createReadFileTool(root),
    createWriteFileTool(root),
    createEditFileTool(root),
    createListDirectoryTool(root),
    createSearchFilesTool(root),
    createRunCommandTool(root),
  ];
}
