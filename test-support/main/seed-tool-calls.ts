/**
 * Example inputs of every tool Waypoint offers. The planning tools' examples are those of the
 * documents each dialect comes from (P4-02, Planning Tool - Multi-Action, Planning System, Planning
 * Tool Suite: docs/contract.md §2), completed where a document shows only the parameter list; the
 * workspace tools' follow docs/contract.md §6.
 */
/** Seed P4-02's example create_plan call: a 3×3 structural grid. */
export const SEED_GRID_PLAN = {
  goal: "Create 3x3 structural grid at 25' spacing",
  steps: [
    { step_number: 1, description: "Create vertical grid lines A, B, C at 25' spacing", tools_to_use: ['place_grid'], success_criteria: '3 vertical grids created' },
    { step_number: 2, description: "Create horizontal grid lines 1, 2, 3 at 25' spacing", tools_to_use: ['place_grid'], success_criteria: '3 horizontal grids created' },
    { step_number: 3, description: 'Verify grid layout', tools_to_use: ['capture_screenshot'], success_criteria: 'Screenshot shows 3x3 grid pattern', is_verification: true },
  ],
  verification_approach: 'Screenshot capture and visual inspection',
  estimated_tool_calls: 7,
};

export const SEED_TOOL_CALLS: Record<string, unknown[]> = {
  // P4-02 (structured)
  create_plan: [
    SEED_GRID_PLAN,
    { goal: 'Add a column', steps: [{ step_number: 1, description: 'Place it', depends_on: [] }], rollback_strategy: 'Delete what was placed' },
  ],
  update_plan: [
    { action: 'start_step', step_number: 1 },
    { action: 'complete_step', step_number: 1, result: '3 vertical grids created' },
    { action: 'fail_step', step_number: 2, reason: 'Grid type not found' },
    { action: 'skip_step', step_number: 2, reason: 'No longer needed' },
    { action: 'add_step', new_step: { description: 'Tag the grids', after_step: 2 } },
    { action: 'note', note: 'Spacing is measured centre to centre' },
    // Planning System (checklist): the whole list, the seed's example flow
    {
      explanation: 'Add user preferences endpoint',
      plan: [
        { step: 'Create preferences model', status: 'in_progress' },
        { step: 'Add database migration', status: 'pending' },
        { step: 'Implement GET /preferences endpoint', status: 'pending' },
        { step: 'Implement PUT /preferences endpoint', status: 'pending' },
        { step: 'Add input validation', status: 'pending' },
        { step: 'Write tests', status: 'pending' },
      ],
    },
    { plan: [{ step: 'Create preferences model', status: 'completed' }, { step: 'Add database migration', status: 'in_progress' }] },
  ],
  complete_plan: [
    {
      status: 'partial_success',
      summary: 'Grid created; tags skipped',
      steps_completed: 2,
      steps_failed: 0,
      steps_skipped: 1,
      issues_encountered: ['Tag family missing'],
      elements_created: [316_772, 316_773],
      elements_modified: [],
      recommendations: 'Load the tag family and tag the grids',
    },
    { status: 'success', summary: 'Done' },
  ],
  // Planning Tool - Multi-Action (wbs)
  planning_initialize: [
    { problem_statement: 'Build a real-time multiplayer 2048 game with leaderboards', project_name: 'Multiplayer 2048' },
    { problem_statement: 'Build a real-time multiplayer 2048 game with Firebase' },
  ],
  planning_add_step: [
    {
      session_id: 'planning_1234567890_abcd1234',
      step_number: 1,
      planning_analysis: 'Breaking down project into three main phases: setup, development, deployment',
      wbs_items: [
        { id: '1.0', title: 'Project Setup Phase', description: 'Initialize all project infrastructure', level: 0, priority: 'High' },
        { id: '1.1', title: 'Create Git Repository', description: 'Initialize git repository with proper .gitignore', level: 1, parent_id: '1.0', priority: 'High', order: 1 },
      ],
    },
    {
      session_id: 'planning_1234567890_abcd1234',
      step_number: 2,
      planning_analysis: 'The seed\'s WBS item structure',
      wbs_items: [{ id: '1.0', title: 'Project Setup', description: 'Initialize repository and development environment', level: 0, priority: 'High', dependencies: [], order: 0, parent_id: null }],
    },
    // Planning Tool Suite (session): AddStep(steps)
    { steps: ['Write the migration', 'Run the tests'] },
  ],
  planning_finalize: [{ session_id: 'planning_1234567890_abcd1234' }],
  planning_status: [{ session_id: 'planning_1234567890_abcd1234' }],
  planning_list: [{}],
  // Planning Tool Suite (session)
  planning_setup_plan: [{ objective: 'Ship the release', initial_steps: ['Bump the version', 'Tag it'] }, { objective: 'Ship the release' }],
  planning_update_step: [
    { step_id: 1, status: 'in_progress' },
    { step_id: 1, title: 'Bump the version to 2.0', status: 'done' },
    { step_id: 2, title: 'Tag and push', status: null },
  ],
  planning_read_plan: [{}],
  // Workspace tools (docs/contract.md §6)
  read_file: [{ path: 'src/app.ts' }, { path: 'src/app.ts', start_line: 1, end_line: 80 }],
  write_file: [{ path: 'notes/todo.md', content: '- ship it\n' }],
  edit_file: [{ path: 'src/app.ts', old_text: 'const port = 3000;', new_text: 'const port = 8080;' }],
  list_directory: [{}, { path: 'src', depth: 3 }],
  search_files: [{ pattern: 'TODO' }, { pattern: 'fetch\\(', regex: true, path: 'src', case_sensitive: true, max_results: 20 }],
  run_command: [{ command: 'npm test' }, { command: 'ls -la', cwd: 'src', timeout_ms: 5000 }],
  // A question from Claude (docs/contract.md §5): options to pick from, free text, or both.
  ask_user: [
    { question: 'Which database should the app use?', options: ['PostgreSQL', 'SQLite'], allow_text: true },
    { question: 'What should the new module be called?' },
    { question: 'Deploy now or after the tests?', options: ['Now', 'After the tests', 'Not today'], allow_text: false },
  ],
  // Sub-agents (docs/contract.md §10): a task, with context, reading only.
  delegate: [
    { task: 'Find every caller of parseConfig in src/ and list them with file and line' },
    { task: 'Review the error handling in src/server.ts', context: 'We saw unhandled rejections in the logs.', read_only: true },
  ],
};
