import type { ServerResponse } from 'node:http';
import { chunk, outputTokens } from './message-builder';
import type { WireCitation, WireContentBlock, WireError, WireMessage } from './wire-types';

/**
 * Writes a Message as the real API streams it: message_start, one content block after another
 * (text_delta / input_json_delta pieces), message_delta with stop_reason and usage, message_stop,
 * with a ping now and then. Stops quietly when the client goes away.
 */
export class SseWriter {
  private closed = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly delayMs: number,
  ) {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    res.on('close', () => (this.closed = true));
  }

  get isClosed(): boolean {
    return this.closed || this.res.destroyed;
  }

  send(event: string, data: unknown): void {
    if (this.isClosed) return;
    this.res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  async pause(): Promise<void> {
    if (this.delayMs > 0) await new Promise((r) => setTimeout(r, this.delayMs));
  }

  start(message: WireMessage): void {
    const head = { ...message, content: [], stop_reason: null, usage: { ...message.usage, output_tokens: 1 } };
    this.send('message_start', { type: 'message_start', message: head });
  }

  /** Streams a text block at `index`; returns false if the client went away. */
  async textBlock(index: number, text: string, chunkChars: number, close = true): Promise<boolean> {
    this.send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
    this.send('ping', { type: 'ping' });
    for (const piece of chunk(text, chunkChars)) {
      if (this.isClosed) return false;
      if (piece) this.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      await this.pause();
    }
    if (close) this.send('content_block_stop', { type: 'content_block_stop', index });
    return !this.isClosed;
  }

  /** A tool_use, or a server_tool_use (web search): input {} at the start, then its JSON in pieces. */
  async toolUseBlock(index: number, block: { type?: 'tool_use' | 'server_tool_use'; id: string; name: string; input: unknown }, chunkChars: number): Promise<boolean> {
    this.send('content_block_start', {
      type: 'content_block_start',
      index,
      content_block: { type: block.type ?? 'tool_use', id: block.id, name: block.name, input: {} },
    });
    // Like the API: an empty first fragment, then the JSON in several partial pieces.
    const json = JSON.stringify(block.input);
    const size = Math.max(1, Math.min(chunkChars, Math.ceil(json.length / 3)));
    for (const piece of ['', ...chunk(json, size)]) {
      if (this.isClosed) return false;
      this.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
      await this.pause();
    }
    this.send('content_block_stop', { type: 'content_block_stop', index });
    return !this.isClosed;
  }

  /** A thinking block: its text in thinking_delta pieces, then its signature in one signature_delta. */
  async thinkingBlock(index: number, block: { thinking: string; signature: string }, chunkChars: number): Promise<boolean> {
    this.send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } });
    for (const piece of chunk(block.thinking, chunkChars)) {
      if (this.isClosed) return false;
      if (piece) this.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: piece } });
      await this.pause();
    }
    this.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } });
    this.send('content_block_stop', { type: 'content_block_stop', index });
    return !this.isClosed;
  }

  /** A text block with web citations: an empty citations list at the start, each citation as a citations_delta, then the text. */
  async citedTextBlock(index: number, block: { text: string; citations: WireCitation[] }, chunkChars: number): Promise<boolean> {
    this.send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '', citations: [] } });
    for (const citation of block.citations) this.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'citations_delta', citation } });
    for (const piece of chunk(block.text, chunkChars)) {
      if (this.isClosed) return false;
      if (piece) this.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
      await this.pause();
    }
    this.send('content_block_stop', { type: 'content_block_stop', index });
    return !this.isClosed;
  }

  /** A web_search_tool_result arrives whole in its content_block_start, as the API sends it. */
  wholeBlock(index: number, block: WireContentBlock): boolean {
    this.send('content_block_start', { type: 'content_block_start', index, content_block: block });
    this.send('content_block_stop', { type: 'content_block_stop', index });
    return !this.isClosed;
  }

  /** A redacted_thinking block arrives whole in its content_block_start. */
  redactedBlock(index: number, data: string): boolean {
    this.send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'redacted_thinking', data } });
    this.send('content_block_stop', { type: 'content_block_stop', index });
    return !this.isClosed;
  }

  async message(message: WireMessage, chunkChars: number): Promise<void> {
    this.start(message);
    for (const [index, block] of message.content.entries()) {
      const alive =
        block.type === 'text'
          ? block.citations
            ? await this.citedTextBlock(index, { text: block.text, citations: block.citations }, chunkChars)
            : await this.textBlock(index, block.text, chunkChars)
          : block.type === 'web_search_tool_result'
            ? this.wholeBlock(index, block)
          : block.type === 'thinking'
            ? await this.thinkingBlock(index, block, chunkChars)
            : block.type === 'redacted_thinking'
              ? this.redactedBlock(index, block.data)
              : await this.toolUseBlock(index, block, chunkChars);
      if (!alive) return;
    }
    this.send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: message.stop_reason, stop_sequence: null },
      usage: { output_tokens: outputTokens(message.content), ...(message.usage.server_tool_use ? { server_tool_use: message.usage.server_tool_use } : {}) },
    });
    this.send('message_stop', { type: 'message_stop' });
    this.end();
  }

  error(body: WireError): void {
    this.send('error', { type: 'error', error: body.error });
  }

  end(): void {
    if (!this.isClosed) this.res.end();
  }
}
