/**
 * How many input tokens the scripted server says a request takes: its usage numbers and its
 * context-window check both come from here. There is no Claude tokenizer offline, so the count
 * is built to be no lower than the real API's for the text it sees (a server more lenient than
 * production lets tests pass that users fail): about 1.5× the real count for English prose and
 * code, byte-level for characters outside ASCII, and the API's own fixed costs (the tool-use
 * system prompt, images) at their published upper values.
 */

/** The system prompt the API adds when tools are offered (≈346 tokens for tool_choice auto). */
export const TOOL_USE_SYSTEM_TOKENS = 346;
/** Role markers and separators around each message, and around each block. */
const MESSAGE_OVERHEAD = 4;
const BLOCK_OVERHEAD = 3;
/** An image is resized to at most ~1.15 megapixels: (width × height) / 750 ≤ ~1,600 tokens. */
export const IMAGE_TOKENS = 1_600;
/** A PDF page costs its text plus an image of the page: up to ~3,000 tokens. */
const PDF_PAGE_TOKENS = 3_000;

/**
 * Tokens of a piece of text: letters at three per token (real BPE merges ~4 of English), every
 * digit, punctuation mark and line break one, spaces four per token, other characters by their
 * UTF-8 bytes halved (a CJK character is one or two real tokens) and emoji four.
 */
export function countText(text: string): number {
  let letters = 0;
  let spaces = 0;
  let tokens = 0;
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) letters++;
    else if (code === 32) spaces++;
    else if (code < 128) tokens++;
    else if (code <= 0xffff) tokens += 2;
    else tokens += 4;
  }
  return tokens + Math.ceil(letters / 3) + Math.ceil(spaces / 4);
}

type Json = Record<string, unknown>;

function countBlock(block: unknown): number {
  if (typeof block !== 'object' || block === null) return countText(String(block));
  const b = block as Json;
  switch (b.type) {
    case 'text':
      return BLOCK_OVERHEAD + countText(String(b.text ?? ''));
    case 'image':
      return BLOCK_OVERHEAD + countImage(b.source);
    case 'document':
      return BLOCK_OVERHEAD + countDocument(b.source);
    case 'tool_use':
      return BLOCK_OVERHEAD + countText(String(b.name ?? '')) + countText(JSON.stringify(b.input ?? {}));
    case 'tool_result':
      return BLOCK_OVERHEAD + (typeof b.content === 'string' ? countText(b.content) : countBlocks(b.content));
    case 'thinking':
      return BLOCK_OVERHEAD + countText(String(b.thinking ?? ''));
    default:
      return BLOCK_OVERHEAD + countText(JSON.stringify(withoutCacheControl(b)));
  }
}

/**
 * An image as the API counts it: resized to at most 1568 px on its long edge and ~1.15
 * megapixels, then width × height / 750 tokens. Sizes read from the PNG, GIF or JPEG header;
 * any other image (or a URL) at the maximum.
 */
function countImage(source: unknown): number {
  const s = (source ?? {}) as Json;
  const size = s.type === 'base64' && typeof s.data === 'string' ? imageSize(Buffer.from(s.data.slice(0, 64 * 1024), 'base64')) : null;
  if (!size) return IMAGE_TOKENS;
  const scale = Math.min(1, 1568 / Math.max(size.width, size.height), Math.sqrt(1_150_000 / (size.width * size.height)));
  return Math.min(IMAGE_TOKENS, Math.ceil((size.width * scale * size.height * scale) / 750));
}

function imageSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length >= 24 && bytes.readUInt32BE(0) === 0x89504e47) return positive(bytes.readUInt32BE(16), bytes.readUInt32BE(20));
  if (bytes.length >= 10 && bytes.toString('latin1', 0, 3) === 'GIF') return positive(bytes.readUInt16LE(6), bytes.readUInt16LE(8));
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    // JPEG: the first start-of-frame segment (SOF0–SOF15 but DHT, JPG and DAC) holds the size.
    for (let i = 2; i + 9 < bytes.length; ) {
      if (bytes[i] !== 0xff) return null;
      const marker = bytes[i + 1]!;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) return positive(bytes.readUInt16BE(i + 7), bytes.readUInt16BE(i + 5));
      i += 2 + bytes.readUInt16BE(i + 2);
    }
  }
  return null;
}

const positive = (width: number, height: number) => (width > 0 && height > 0 ? { width, height } : null);

function countBlocks(content: unknown): number {
  if (typeof content === 'string') return countText(content);
  return Array.isArray(content) ? content.reduce((n: number, block) => n + countBlock(block), 0) : 0;
}

function countDocument(source: unknown): number {
  const s = (source ?? {}) as Json;
  if (s.type === 'text') return countText(String(s.data ?? ''));
  if (s.type === 'content') return countBlocks(s.content);
  if (s.type === 'base64' && typeof s.data === 'string') {
    // Page objects of the PDF; a compressed page tree still costs at least one page.
    const pages = Buffer.from(s.data, 'base64').toString('latin1').match(/\/Type\s*\/Page\b/g)?.length ?? 1;
    return Math.max(1, pages) * PDF_PAGE_TOKENS;
  }
  return PDF_PAGE_TOKENS;
}

function withoutCacheControl(value: Json): Json {
  const { cache_control: _ignored, ...rest } = value;
  return rest;
}

/** Input tokens of a Messages (or count_tokens) request body: system, tools and messages. */
export function countRequestTokens(body: unknown): number {
  const b = (body ?? {}) as { system?: unknown; tools?: unknown; messages?: unknown };
  let tokens = 0;
  if (typeof b.system === 'string') tokens += countText(b.system);
  else tokens += countBlocks(b.system);
  if (Array.isArray(b.tools) && b.tools.length > 0) {
    tokens += TOOL_USE_SYSTEM_TOKENS;
    for (const tool of b.tools) tokens += countText(JSON.stringify(withoutCacheControl((tool ?? {}) as Json)));
  }
  if (Array.isArray(b.messages)) {
    const messages = b.messages as { role?: unknown; content?: unknown }[];
    const current = currentTurnStart(messages);
    messages.forEach((message, i) => {
      // The API drops thinking blocks of earlier turns from the context; only the current tool loop's count.
      const content = i < current && Array.isArray(message?.content) ? (message.content as Json[]).filter((x) => x?.type !== 'thinking' && x?.type !== 'redacted_thinking') : message?.content;
      tokens += MESSAGE_OVERHEAD + countBlocks(content);
    });
  }
  return tokens;
}

/** The last user message that answers no tool call: where the current turn (and its tool loop) begins. */
function currentTurnStart(messages: { role?: unknown; content?: unknown }[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    const results = Array.isArray(m.content) && (m.content as Json[]).some((x) => x?.type === 'tool_result');
    if (m.role === 'user' && !results) return i;
  }
  return 0;
}
