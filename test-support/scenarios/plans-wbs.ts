import type { Scenario } from '../scripted-api/scenario';

/**
 * The "Planning Tool - Multi-Action" seed's multiplayer-2048 WBS. planning_initialize returns a
 * random sessionId, so later calls carry WBS_SESSION_PLACEHOLDER: the scripted server must
 * replace it with the `sessionId` of the latest JSON tool_result in the request.
 */
export const WBS_SESSION_PLACEHOLDER = '{{sessionId}}';
const session_id = WBS_SESSION_PLACEHOLDER;

export const plansWbs: Scenario = {
  name: 'plans-wbs',
  description: 'wbs dialect: initialize, 3 add_steps, status, finalize (session_id placeholder substituted by the server)',
  onExhausted: 'echo',
  turns: [
    {
      kind: 'tool_use',
      text: "I'll break this down into a work breakdown structure.",
      calls: [{ name: 'planning_initialize', input: { problem_statement: 'Build a real-time multiplayer 2048 game with Firebase', project_name: 'Multiplayer 2048' } }],
    },
    {
      kind: 'tool_use',
      calls: [
        {
          name: 'planning_add_step',
          input: {
            session_id,
            step_number: 1,
            planning_analysis: 'Identifying main project phases: setup, game logic, multiplayer, UI',
            wbs_items: [
              { id: '1.0', title: 'Project Setup', description: 'Initialize project structure and dependencies', level: 0, priority: 'High' },
              { id: '2.0', title: 'Game Logic Development', description: 'Implement core 2048 game mechanics', level: 0, priority: 'High', order: 1 },
            ],
          },
        },
      ],
    },
    {
      kind: 'tool_use',
      calls: [
        {
          name: 'planning_add_step',
          input: {
            session_id,
            step_number: 2,
            planning_analysis: 'Breaking down project setup into specific tasks',
            wbs_items: [
              { id: '1.1', title: 'Create React Project', description: 'Initialize React app with TypeScript', level: 1, parent_id: '1.0', priority: 'High', order: 1 },
              { id: '1.2', title: 'Setup Firebase', description: 'Configure Firebase project and authentication', level: 1, parent_id: '1.0', priority: 'High', dependencies: ['1.1'], order: 2 },
            ],
          },
        },
      ],
    },
    {
      kind: 'tool_use',
      calls: [
        {
          name: 'planning_add_step',
          input: {
            session_id,
            step_number: 3,
            planning_analysis: 'Detailing game logic implementation tasks',
            wbs_items: [
              { id: '2.1', title: 'Grid State Management', description: 'Implement 4x4 grid state with Redux', level: 1, parent_id: '2.0', priority: 'High', dependencies: ['1.1'], order: 1 },
              { id: '2.2', title: 'Tile Movement Logic', description: 'Implement swipe detection and tile merging', level: 1, parent_id: '2.0', priority: 'High', dependencies: ['2.1'], order: 2 },
            ],
          },
        },
      ],
    },
    { kind: 'tool_use', calls: [{ name: 'planning_status', input: { session_id } }] },
    { kind: 'tool_use', calls: [{ name: 'planning_finalize', input: { session_id } }] },
    { kind: 'text', text: 'The WBS for Multiplayer 2048 is ready in WBS.md: 2 phases, 6 items.' },
  ],
};
