import type { Scenario } from '../scripted-api/scenario';

/** Claude asks the user (ask_user): with options and free text, or free text only. */

export const QUESTION = 'Which database should the app use?';
export const QUESTION_OPTIONS = ['PostgreSQL', 'SQLite'];

export const askChoice: Scenario = {
  name: 'ask-choice',
  description: 'Claude asks which database to use (two options, typed answers taken too), then replies.',
  onExhausted: 'echo',
  turns: [
    {
      kind: 'tool_use',
      text: 'One thing first.',
      calls: [{ name: 'ask_user', id: 'toolu_ask', input: { question: QUESTION, options: QUESTION_OPTIONS, allow_text: true } }],
    },
    { kind: 'text', text: 'Thanks, I will set it up that way.' },
  ],
};

export const FREE_QUESTION = 'What should the new module be called?';

export const askFreeText: Scenario = {
  name: 'ask-free-text',
  description: 'Claude asks for a name (no options: the user types it), then replies.',
  onExhausted: 'echo',
  turns: [
    { kind: 'tool_use', calls: [{ name: 'ask_user', id: 'toolu_name', input: { question: FREE_QUESTION } }] },
    { kind: 'text', text: 'Good name. Creating it now.' },
  ],
};

export const questionScenarios: Scenario[] = [askChoice, askFreeText];
