import { limitsOf, type ScriptedModel } from './models-page';
import { countRequestTokens } from './token-count';

/**
 * The size limits the real Messages API refuses with 400 invalid_request_error, in its words:
 * max_tokens above the model's output cap, a prompt longer than the context window, and a prompt
 * that leaves no room for max_tokens in the window (older models refuse that; newer ones stop
 * with model_context_window_exceeded — the stricter reading is kept, so the client must leave
 * room for the reply). Returns the error message, or null when the request fits.
 */
export function checkWindow(body: { model: string; max_tokens: number }, models: readonly ScriptedModel[]): string | null {
  const limits = limitsOf(models, body.model);
  if (body.max_tokens > limits.max_tokens) {
    return `max_tokens: ${body.max_tokens} > ${limits.max_tokens}, which is the maximum allowed number of output tokens for ${body.model}`;
  }
  const input = countRequestTokens(body);
  if (input > limits.max_input_tokens) return `prompt is too long: ${input} tokens > ${limits.max_input_tokens} maximum`;
  if (input + body.max_tokens > limits.max_input_tokens) {
    return `input length and \`max_tokens\` exceed context limit: ${input} + ${body.max_tokens} > ${limits.max_input_tokens}, decrease input length or \`max_tokens\` and try again`;
  }
  return null;
}
