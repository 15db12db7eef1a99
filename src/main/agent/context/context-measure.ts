import type Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsBase, Usage } from '@anthropic-ai/sdk/resources/messages';
import type { ChatSession } from '../../chats/chat-session';
import { estimateRequest } from './token-estimate';

/**
 * How big a request is before it is sent. Each reply's usage says exactly how many input tokens
 * the request it answered took (input + cache read + cache write); set against the local
 * estimate of that same request it gives a ratio, and the next request is measured as its
 * estimate times that ratio: the API's own count for what was sent before, a scaled estimate for
 * what was added since. That costs no call. Only when the added part is big enough that an
 * error in its estimate could decide whether the request fits (a long paste near the limit, or
 * no reply to learn from yet: a new chat, after a restart, another model) is the count_tokens
 * endpoint asked, and its answer calibrates the chat like a reply's usage would.
 */

interface Calibration {
  model: string;
  /** Reported input tokens per estimated token; never below 1, so the estimate may only err high. */
  ratio: number;
  /** The estimate of the request the ratio came from: what is beyond it is "added" and less sure. */
  estimate: number;
}

const calibrations = new WeakMap<ChatSession, Calibration>();

/** How far off the estimate of newly added content may be (half of it), before count_tokens decides. */
const UNSURE_SHARE = 0.5;

export interface Measured {
  /** Input tokens the request is taken to have. */
  tokens: number;
  /** The raw local estimate of the same request (what the next calibration compares usage with). */
  estimate: number;
  /** The ratio used (reported per estimated token). */
  ratio: number;
  /** How the tokens were found: scaled from earlier usage, or counted by the API. */
  source: 'usage' | 'estimate' | 'count_tokens';
}

/** The ratio for this chat and model, when an earlier reply (or count) gave one. */
export function calibrationOf(session: ChatSession, model: string): number | null {
  const held = calibrations.get(session);
  return held && held.model === model ? held.ratio : null;
}

export function inputTokensOf(usage: Pick<Usage, 'input_tokens'> & Partial<Usage>): number {
  return usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0);
}

/** Learns from the API's count of the request whose raw estimate was `estimate`. */
export function calibrate(session: ChatSession, model: string, estimate: number, reported: number): void {
  if (estimate <= 0 || reported <= 0) return;
  calibrations.set(session, { model, ratio: Math.max(1, reported / estimate), estimate });
}

/** The measure of a request at a known ratio (synchronous: no call). */
export function measureWith(request: Pick<MessageCreateParamsBase, 'system' | 'tools' | 'messages'>, ratio: number): Measured {
  const estimate = estimateRequest(request);
  return { tokens: Math.ceil(estimate * ratio), estimate, ratio, source: 'usage' };
}

export interface MeasureDeps {
  session: ChatSession;
  client: Anthropic;
  signal: AbortSignal;
  /** The input budget the request must fit (context-budget.ts). */
  budget: number;
  /** The request as it can be sent: attachment references filled in (absent: sent as built). */
  resolve?(request: MessageCreateParamsBase): Promise<MessageCreateParamsBase>;
}

/** The measure of the request about to be sent; see the file comment for when it asks count_tokens. */
export async function measureRequest(request: MessageCreateParamsBase, deps: MeasureDeps): Promise<Measured> {
  const held = calibrations.get(deps.session);
  const calibration = held && held.model === request.model ? held : null;
  const ratio = calibration?.ratio ?? 1;
  const measured: Measured = { ...measureWith(request, ratio), source: calibration ? 'usage' : 'estimate' };
  const added = calibration ? Math.max(0, measured.estimate - calibration.estimate) : measured.estimate;
  const unsure = Math.ceil(added * ratio * UNSURE_SHARE);
  // Clearly under, or clearly over (it will be compacted and measured again): no need to count.
  if (measured.tokens + unsure <= deps.budget || measured.tokens - unsure > deps.budget) return measured;
  return countTokens(request, measured, deps, measured.tokens + unsure);
}

/**
 * The measure to compact by: what older turns are cut and summary requests sized with must not
 * rest on the raw estimate (it may err low), so a chat no reply of this model has calibrated yet
 * (after a restart, or another model chosen) is counted by the API first.
 */
export async function measureForCompaction(request: MessageCreateParamsBase, measured: Measured, deps: Omit<MeasureDeps, 'budget'>): Promise<Measured> {
  if (calibrationOf(deps.session, request.model) !== null) return measured;
  return countTokens(request, measured, deps, Math.ceil(measured.estimate * UNCOUNTED_RATIO));
}

/** The ratio assumed when nothing calibrated the estimate and count_tokens could not be asked. */
const UNCOUNTED_RATIO = 1 + UNSURE_SHARE;

/** Asks count_tokens (which calibrates the chat); when it can't be asked, `worst` tokens are assumed. */
async function countTokens(request: MessageCreateParamsBase, measured: Measured, deps: Omit<MeasureDeps, 'budget'>, worst: number): Promise<Measured> {
  try {
    const { model, system, tools, messages, thinking } = deps.resolve ? await deps.resolve(request) : request;
    const params = { model, messages, ...(system ? { system } : {}), ...(tools ? { tools } : {}), ...(thinking ? { thinking } : {}) };
    const counted = await deps.client.messages.countTokens(params, { signal: deps.signal });
    calibrate(deps.session, model, measured.estimate, counted.input_tokens);
    return { tokens: counted.input_tokens, estimate: measured.estimate, ratio: calibrationOf(deps.session, model) ?? 1, source: 'count_tokens' };
  } catch (error) {
    if (deps.signal.aborted) throw error;
    // Not countable (a proxy without the endpoint, a network fault): assume the worst of the estimate.
    return { ...measured, tokens: Math.max(measured.tokens, worst), ratio: Math.max(measured.ratio, worst / Math.max(1, measured.estimate)) };
  }
}
