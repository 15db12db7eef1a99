import { z } from 'zod';

/**
 * The user's edits of a plan (docs/contract.md §2, §5 "Editing the plan"): what the panel sends, the
 * record each accepted edit leaves on the plan, and the words Claude reads about it. Claude
 * learns of edits in its very next request: "The user edited the plan: …", one clause per edit.
 */

const StepId = z.number().int().positive().max(1_000_000);
/** Titles are checked by the engine (trimmed, non-empty, at most 500 characters); this only bounds the payload. */
const Title = z.string().max(10_000, { error: 'The title is far too long: keep it under 500 characters.' });

export const UserEdit = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('rename'), stepId: StepId, title: Title }).strict(),
  z.object({ kind: z.literal('skip'), stepId: StepId }).strict(),
  z.object({ kind: z.literal('delete'), stepId: StepId }).strict(),
  z.object({ kind: z.literal('move'), stepId: StepId, direction: z.enum(['up', 'down']) }).strict(),
  z.object({ kind: z.literal('add'), title: Title }).strict(),
]);
export type UserEdit = z.infer<typeof UserEdit>;

/** One accepted edit as the plan keeps it: the version it made, the step it touched and its title then. */
export const PlanEditRecord = z.object({
  version: z.number().int().nonnegative(),
  at: z.string(),
  kind: z.enum(['rename', 'skip', 'delete', 'move', 'add']),
  stepId: z.number().int().positive(),
  /** The step's title after the edit (rename: the new title). */
  title: z.string(),
  /** rename: the title before. */
  from: z.string().optional(),
  direction: z.enum(['up', 'down']).optional(),
  /** move: the step it swapped places with. */
  swappedWith: z.number().int().positive().optional(),
});
export type PlanEditRecord = z.infer<typeof PlanEditRecord>;

export const EDIT_NOTE_PREFIX = 'The user edited the plan: ';

const q = (text: string): string => JSON.stringify(text);

/** One clause naming the step's id and title: renamed 3 "old" to "new"; skipped 4 "…"; moved 2 "…" down. */
export function editClause(edit: PlanEditRecord): string {
  switch (edit.kind) {
    case 'rename':
      return `renamed ${edit.stepId} ${q(edit.from ?? '')} to ${q(edit.title)}`;
    case 'move':
      return `moved ${edit.stepId} ${q(edit.title)} ${edit.direction ?? 'down'}`;
    case 'skip':
      return `skipped ${edit.stepId} ${q(edit.title)}`;
    case 'delete':
      return `deleted ${edit.stepId} ${q(edit.title)}`;
    case 'add':
      return `added ${edit.stepId} ${q(edit.title)}`;
  }
}

/**
 * The text block that tells Claude of edits: "The user edited the plan: renamed 3 "a" to "b";
 * skipped 4 "c". (Plan v12.)" The version at the end marks how far Claude has been told.
 */
export function editNote(edits: readonly PlanEditRecord[], version: number): string {
  return `${EDIT_NOTE_PREFIX}${edits.map(editClause).join('; ')}. (Plan v${version}.)`;
}

/** The plan version an edit note told Claude about, or null when the text is not one. */
export function toldVersion(text: string): number | null {
  if (!text.startsWith(EDIT_NOTE_PREFIX)) return null;
  const match = /\(Plan v(\d+)\.\)$/.exec(text);
  return match ? Number(match[1]) : null;
}
