import { z } from 'zod';
import { MAX_QUESTION_OPTIONS } from '../../shared/prompts';
import { defineTool } from './define-tool';
import { optionalField } from './json-schema';
import { fail, ok, type ToolDefinition } from './tool';

/**
 * ask_user (docs/contract.md §5 "A question from Claude"): Claude asks the user; the run ends there
 * and the chat awaits the answer, which goes back as the tool result verbatim when the chat runs on. Offered in agentic mode. The tool
 * only validates and words; the loop shows the question and keeps it (ToolContext.askUser).
 */

export const ASK_USER = 'ask_user';
export { QUESTION_CANCELLED } from '../../shared/tool-results';
export const NOBODY_TO_ASK = 'Nobody can answer a question here (a run without a person). Decide yourself and say what you assumed.';

const Option = z.string().trim().min(1, { error: 'options must not be empty' }).max(100, { error: 'each option is a short label (at most 100 characters)' });

const Input = z
  .object({
    question: z.string().trim().min(1).max(2_000).describe('The question as the user will read it: one or two plain sentences'),
    options: optionalField(
      z
        .array(Option)
        .min(2)
        .max(MAX_QUESTION_OPTIONS)
        .refine((options) => new Set(options).size === options.length, { error: 'options must all be different' })
        .describe(`2–${MAX_QUESTION_OPTIONS} short answers to pick from, a few words each; the user gets one button per option`),
    ),
    allow_text: optionalField(z.boolean().describe('Also let the user type an answer of their own (always so when there are no options)')),
  })
  .strict();

export function createAskUserTool(): ToolDefinition {
  return defineTool({
    name: ASK_USER,
    description:
      'Ask the user a question and wait for the answer, which comes back as this tool\'s result, word for word. Use it only for a ' +
      'decision or a fact you cannot find out yourself (a choice between approaches, a preference, a missing detail); offer options ' +
      'when the answers are few. The conversation pauses until the user answers.',
    input: Input,
    group: 'user',
    // Asking changes nothing: under Plan first Claude may ask while it explores, before approval.
    readOnly: true,
    label: 'Ask the user',
    summarize: (v) => `Ask: ${v.question}`,
    describeDryRun(v) {
      return `Would ask the user: ${v.question}${v.options ? `\nOptions: ${v.options.join(' | ')}` : ''}`;
    },
    needsApproval: () => false,
    async execute(input, ctx) {
      if (!ctx.askUser) return fail('unavailable', NOBODY_TO_ASK);
      const { question, options, allow_text } = input;
      ctx.askUser({ question, options: options ?? [], allowText: allow_text === true || !options });
      // Never sent: the run ends at the question, and the answer becomes this call's result.
      return ok('');
    },
  });
}
