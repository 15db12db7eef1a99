import type { Settings } from '../../../shared/settings';
import type { SkillsView } from '../../../shared/skills';
import type { ToolDefinition } from '../../tools/tool';
import { SkillCatalog } from '../../tools/skills/skill-catalog';
import { createSkillTools, skillListPrompt } from '../../tools/skills/skill-tools';
import { ProjectInstructions, type ProjectInstructionsView } from './instructions/project-instructions';

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

  constructor(dataDir: string) {
    this.catalog = new SkillCatalog(dataDir);
  }

  async forTurn(workspace: string | null, settings: Settings): Promise<ProjectTurn> {
    const [instructions, found] = await Promise.all([this.instructions.read(workspace, settings.instructionsForEveryChat), this.catalog.find(workspace)]);
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
    return this.instructions.read(workspace, settings.instructionsForEveryChat);
  }

  /** Settings "Skills": every skill found, turned on or off, and the broken ones with their reason. */
  async skillsIn(workspace: string | null, settings: Settings): Promise<SkillsView> {
    const found = await this.catalog.find(workspace);
    const off = new Set(settings.skillsTurnedOff);
    return {
      skills: found.skills.map((s) => ({ name: s.name, description: s.description, where: s.where, on: !off.has(s.name) })),
      broken: found.broken,
    };
  }
}
