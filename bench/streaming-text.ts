/**
 * A long Markdown reply like Claude writes: headings, paragraphs, lists, inline code and fenced
 * code blocks, about `tokens` tokens at ~4 characters each.
 */
export function longReply(tokens: number): string {
  const target = tokens * 4;
  const parts: string[] = [];
  let size = 0;
  for (let section = 1; size < target; section++) {
    const block = [
      `## Part ${section}: handling the \`config\` loader`,
      '',
      `The loader in section ${section} reads **settings.json**, merges the defaults and validates the result. When a field is missing it falls back to the default value, and when a field has the wrong type it reports the path and the expected type so the user can fix it quickly.`,
      '',
      `- step ${section}.1: read the file and parse it`,
      `- step ${section}.2: merge with \`defaults\` and check each field`,
      `- step ${section}.3: write back *only* when something changed`,
      '',
      '```typescript',
      `export function load${section}(path: string): Settings {`,
      '  const raw = JSON.parse(readFileSync(path, "utf8")) as Partial<Settings>;',
      `  return { ...defaults, ...raw, version: ${section} };`,
      '}',
      '```',
      '',
    ].join('\n');
    parts.push(block);
    size += block.length + 1;
  }
  return parts.join('\n').slice(0, target).trimEnd() + '\n\nThat is the whole loader.';
}

/** The same pieces the scripted server streams: `chunkChars` characters per text delta. */
export function deltasOf(text: string, chunkChars: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += chunkChars) out.push(text.slice(i, i + chunkChars));
  return out;
}
