import { expect } from '@playwright/test';
import { forcedTool } from '../../test-support/scripted-api/forced-tool';
import type { ScriptedServer } from '../../test-support/scripted-api/server';

/**
 * A completed plan's turn is followed by Waypoint's goal check (docs/contract.md §9): waits for
 * it, then checks the whole list of requests — `loop` requests of the run that force no tool, then
 * exactly one that forces `report_goal_check`. An extra request of the run, a second check or
 * none still fails.
 */
export async function expectLoopThenGoalCheck(scripted: ScriptedServer, loop: number): Promise<void> {
  await expect.poll(() => scripted.requests.length).toBeGreaterThanOrEqual(loop + 1);
  expect(scripted.requests.map((r) => forcedTool(r.body as { tool_choice?: unknown }))).toEqual([...Array<null>(loop).fill(null), 'report_goal_check']);
}
