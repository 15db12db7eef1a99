import type { ContentBlockParam, MessageCreateParamsBase, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { referenceFacts } from '../../attachments/attachment-blocks';
import { turnStarts } from './compaction-cut';

/**
 * A local estimate of a request's input tokens, block by block, generic over block types (text,
 * tool_use/tool_result, thinking, images, documents and whatever comes next). There is no Claude
 * tokenizer offline, so the estimate leans high where tokenizers split finely: letters and spaces
 * at four a token (English prose), digits at two, punctuation at 1.5, other characters one and a
 * half each, and the API's fixed costs (tool-use prompt, images, PDF pages). It is only ever
 * used scaled by what the API reported for an earlier request (context-measure.ts), so its job is
 * to be proportional and never far below; the usage numbers make it exact.
 */

/** The API's tool-use system prompt, added to any request that offers tools. */
const TOOL_USE_TOKENS = 346;
const PER_MESSAGE = 4;
const PER_BLOCK = 3;
/** An image after the API's resize (≤ ~1.15 megapixels, width × height / 750). */
const IMAGE_TOKENS = 1_600;
const PIXELS_PER_TOKEN = 750;
/** A PDF page is sent as its text and an image of the page. */
const TOKENS_PER_PDF_PAGE = 3_000;

export function estimateText(text: string): number {
  let words = 0;
  let digits = 0;
  let marks = 0;
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 32) words++;
    else if (code >= 48 && code <= 57) digits++;
    else if (code < 128) marks++;
    // Outside ASCII (a surrogate pair counts twice: emoji take several tokens).
    else other++;
  }
  return Math.ceil(words / 4 + digits / 2 + marks / 1.5 + other * 1.5);
}

function estimateValue(value: unknown): number {
  return estimateText(typeof value === 'string' ? value : JSON.stringify(value ?? ''));
}

function pdfPages(base64: string): number {
  const pages = Buffer.from(base64, 'base64').toString('latin1').split(/\/Type\s*\/Page[^s]/).length - 1;
  return Math.max(1, pages);
}

/**
 * An attachment as the history holds it (a reference filled in only when sent): an image by its
 * pixels, a PDF by its pages, a text file by its bytes (sent as text); a reference without those
 * facts (logged before they were kept) at the API's maxima for one image or page.
 */
function estimateReference(facts: NonNullable<ReturnType<typeof referenceFacts>>, blockType: string): number {
  if (blockType === 'image' || facts.kind === 'image') {
    return facts.width && facts.height ? Math.min(IMAGE_TOKENS, Math.ceil((facts.width * facts.height) / PIXELS_PER_TOKEN)) : IMAGE_TOKENS;
  }
  // A text file goes as text: about as its text typed in would estimate (prose's four letters a token).
  if (facts.kind === 'text') return facts.bytes !== undefined ? Math.ceil(facts.bytes / 4) : TOKENS_PER_PDF_PAGE;
  return (facts.pages ?? 1) * TOKENS_PER_PDF_PAGE;
}

export function estimateBlock(block: ContentBlockParam | { type: string; [key: string]: unknown }): number {
  const b = block as { type: string; [key: string]: unknown };
  const reference = referenceFacts(b);
  if (reference) return PER_BLOCK + estimateReference(reference, b.type);
  switch (b.type) {
    case 'text':
      return PER_BLOCK + estimateValue(b.text);
    case 'tool_use':
      return PER_BLOCK + estimateValue(b.name) + estimateValue(b.input);
    case 'tool_result':
      return PER_BLOCK + (Array.isArray(b.content) ? estimateBlocks(b.content as ContentBlockParam[]) : estimateValue(b.content ?? ''));
    case 'thinking':
      return PER_BLOCK + estimateValue(b.thinking);
    case 'image':
      return PER_BLOCK + IMAGE_TOKENS;
    case 'document': {
      const source = (b.source ?? {}) as { type?: string; data?: unknown; content?: unknown };
      if (source.type === 'base64' && typeof source.data === 'string') return PER_BLOCK + pdfPages(source.data) * TOKENS_PER_PDF_PAGE;
      return PER_BLOCK + estimateValue(source.data ?? source.content ?? '');
    }
    default: {
      const { cache_control: _breakpoint, ...rest } = b;
      return PER_BLOCK + estimateValue(rest);
    }
  }
}

export function estimateBlocks(blocks: readonly ContentBlockParam[]): number {
  return blocks.reduce((sum, block) => sum + estimateBlock(block), 0);
}

export function estimateMessage(message: MessageParam, withThinking = true): number {
  if (typeof message.content === 'string') return PER_MESSAGE + estimateText(message.content);
  const blocks = withThinking ? message.content : message.content.filter((b) => b.type !== 'thinking' && b.type !== 'redacted_thinking');
  return PER_MESSAGE + estimateBlocks(blocks);
}

/**
 * Each message's estimate. The API drops thinking blocks of turns before the current one from
 * the context, so only the latest user turn's (its tool loop's) thinking counts.
 */
export function estimateMessages(messages: readonly MessageParam[]): number[] {
  const current = turnStarts(messages).at(-1) ?? 0;
  return messages.map((message, i) => estimateMessage(message, i >= current));
}

/** Everything but the messages: the system prompt and the tools. */
export function estimateFixed(request: Pick<MessageCreateParamsBase, 'system' | 'tools'>): number {
  const system = typeof request.system === 'string' ? estimateText(request.system) : estimateBlocks(request.system ?? []);
  const tools = request.tools?.length
    ? TOOL_USE_TOKENS + request.tools.reduce((sum, tool) => sum + estimateValue({ ...tool, cache_control: undefined }), 0)
    : 0;
  return system + tools;
}

export function estimateRequest(request: Pick<MessageCreateParamsBase, 'system' | 'tools' | 'messages'>): number {
  return estimateFixed(request) + estimateMessages(request.messages).reduce((sum, n) => sum + n, 0);
}
