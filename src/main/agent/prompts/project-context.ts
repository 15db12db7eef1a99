import type { Settings } from '../../../shared/settings';
import type { SkillsView } from '../../../shared/skills';
import type { ToolDefinition } from '../../tools/tool';
import { SkillCatalog } from '../../tools/skills/skill-catalog';
import { createSkillTools, skillListPrompt } from '../../tools/skills/skill-tools';
import { ProjectInstructions, type ProjectInstructionsView } from './instructions/project-instructions';
import type { FileSource } from '../../common/file-source';
import { GitTreeFiles } from '../../common/git-tree-files';
import type { WorkspaceGates } from '../../common/workspace-gates';

/** What a chat's workspace adds to one request: its instructions and skill list (system prompt) and the skill tools. */
export interface ProjectTurn {
  prompt: string;
  tools: ToolDefinition[];
}

/** What the runs need of it (run-controller.ts). */
export type ProjectSource = Pick<ProjectContext, 'forTurn'>;

/**
 * Project instructions and skills for a request, read from disk per request (cheap: stat caches)
 * so an edit applies from the next message. Every shell and `waypoint run` build requests
 * through this one object (app/services.ts).
 */
export class ProjectContext {
  private readonly instructions = new ProjectInstructions();
  private readonly catalog: SkillCatalog;

  /** The tree of the commit each worktree being checked out is made from, one reader per checkout. */
  private readonly trees = new Map<string, GitTreeFiles>();

  /** `gates`: worktrees still being checked out, whose instructions and skills come from their commit meanwhile. */
  constructor(
    dataDir: string,
    private readonly gates?: WorkspaceGates,
  ) {
    this.catalog = new SkillCatalog(dataDir);
  }

  /** Undefined (the disk) unless `workspace` is in a worktree still being checked out: then its commit's tree. */
  private filesOf(workspace: string | null): FileSource | undefined {
    const source = this.gates?.pending(workspace);
    if (!source) {
      if (this.trees.size > 0) for (const root of this.trees.keys()) if (!this.gates?.pending(root)) this.trees.delete(root);
      return undefined;
    }
    let tree = this.trees.get(source.root);
    if (!tree) {
      tree = new GitTreeFiles(source.repo, source.commit, source.root);
      this.trees.set(source.root, tree);
    }
    return tree;
  }

  async forTurn(workspace: string | null, settings: Settings): Promise<ProjectTurn> {
    const files = this.filesOf(workspace);
    const [instructions, found] = await Promise.all([this.instructions.read(workspace, settings.instructionsForEveryChat, files), this.catalog.find(workspace, files)]);
    const off = new Set(settings.skillsTurnedOff);
    // A skill turned off in Settings is neither listed nor loadable; with none in use the tools are not offered.
    const skills = found.skills.filter((s) => !off.has(s.name));
    return {
      prompt: [instructions.prompt, skillListPrompt(skills)].filter(Boolean).join('\n\n'),
      tools: skills.length ? createSkillTools(skills) : [],
    };
  }

  /** The "Instructions" button's list. */
  instructionsIn(workspace: string | null, settings: Settings): Promise<ProjectInstructionsView> {
    return this.instructions.read(workspace, settings.instructionsForEveryChat, this.filesOf(workspace));
  }

  /** Settings "Skills": every skill found, turned on or off, and the broken ones with their reason. */
  async skillsIn(workspace: string | null, settings: Settings): Promise<SkillsView> {
    const found = await this.catalog.find(workspace, this.filesOf(workspace));
    const off = new Set(settings.skillsTurnedOff);
    return {
      skills: found.skills.map((s) => ({ name: s.name, description: s.description, where: s.where, on: !off.has(s.name) })),
      broken: found.broken,
    };
  }
}
