import { z } from 'zod';

/** Settings "Skills": the skills found for a chat's workspace and the data folder, each with its checkbox. */
export const SkillsView = z.object({
  skills: z.array(z.object({ name: z.string(), description: z.string(), where: z.string(), on: z.boolean() })),
  /** Folders with a SKILL.md that cannot be used, and why. */
  broken: z.array(z.object({ where: z.string(), problem: z.string() })),
});
export type SkillsView = z.infer<typeof SkillsView>;

/** The "Instructions" button: the files (and Settings text) in the chat's system prompt. */
export const InstructionsView = z.object({
  sources: z.array(z.object({ name: z.string(), chars: z.number().int().nonnegative(), importedBy: z.string().optional(), cut: z.boolean().optional() })),
  notes: z.array(z.string()),
});
export type InstructionsView = z.infer<typeof InstructionsView>;
