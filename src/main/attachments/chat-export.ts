import type { Attachment } from '../../shared/attachments';
import { formatBytes } from '../../shared/attachments';
import type { SessionSummary, TranscriptItem, WebSource } from '../../shared/transcript';
import type { AttachmentSource } from './attachment-blocks';
import { codeSpan, fencedBlock, inlineText, markdownBody } from '../common/markdown-safety';

/**
 * A chat as one Markdown file, attachments included: images inline as data: URLs (any Markdown
 * viewer shows them), text files verbatim in a fence, PDFs as data: links. Self-contained, so it
 * can be mailed or archived without the data folder. Bounded: past a total size, files are
 * named with where they live instead of embedded.
 */

export const MAX_EMBEDDED_CHARS = 64 * 1024 * 1024;

export interface ChatExport {
  markdown: string;
  fileName: string;
  savedTo: null;
}

export async function exportChatMarkdown(summary: SessionSummary, transcript: readonly TranscriptItem[], source: AttachmentSource): Promise<ChatExport> {
  let budget = MAX_EMBEDDED_CHARS;
  const embed = async (attachment: Attachment): Promise<string> => {
    const label = `${attachment.name} (${describe(attachment)})`;
    const notEmbedded = (why: string) => `- ${inlineText(label)} — ${why}`;
    if (attachment.kind === 'text') {
      const bytes = await source.read(attachment.id);
      if (!bytes) return notEmbedded('missing from the data folder');
      if (bytes.length > budget) return notEmbedded(`not embedded: the export is at its size limit (attachments/${attachment.id})`);
      budget -= bytes.length;
      const text = bytes.toString('utf8');
      return `**${inlineText(attachment.name)}**\n\n${fencedBlock(text)}`;
    }
    const data = await source.base64(attachment.id);
    if (!data) return notEmbedded('missing from the data folder');
    if (data.length > budget) return notEmbedded(`not embedded: the export is at its size limit (attachments/${attachment.id})`);
    budget -= data.length;
    const url = `data:${attachment.mediaType};base64,${data}`;
    return attachment.kind === 'image' ? `![${inlineText(attachment.name)}](${url})` : `- [${inlineText(label)}](${url})`;
  };

  const parts = [`# ${inlineText(summary.title) || 'Chat'}`, `_Exported from Waypoint, ${new Date().toISOString().slice(0, 10)}._`];
  for (const item of transcript) {
    switch (item.kind) {
      case 'user': {
        const files = await Promise.all((item.attachments ?? []).map(embed));
        parts.push(['## You', markdownBody(item.text), ...(files.length ? ['**Attachments**', ...files] : [])].filter(Boolean).join('\n\n'));
        break;
      }
      case 'assistant':
        if (item.text.trim()) parts.push([`## Claude\n\n${markdownBody(item.text)}`, ...(item.sources?.length ? ['**Sources**', webList(item.sources)] : [])].join('\n\n'));
        break;
      case 'thinking':
        if (item.status !== 'discarded') parts.push(item.redacted ? '> _Thinking (encrypted)_' : `> _Thinking_\n>\n${quote(markdownBody(item.text))}`);
        break;
      case 'tool_call': {
        const images = await Promise.all((item.images ?? []).map(embed));
        const result = item.result ? `\n\n${fencedBlock(item.result)}` : '';
        const found = item.webResults?.length ? [webList(item.webResults)] : [];
        parts.push([`- Tool ${codeSpan(item.name)} (${item.status}): ${inlineText(item.summary)}${result}`, ...images, ...found].join('\n\n'));
        break;
      }
      case 'plan_change':
        parts.push(`- Plan: ${inlineText(item.text)}`);
        break;
      case 'plan_completion':
        parts.push(`- Plan "${inlineText(item.goal)}" ${item.completion.status}: ${inlineText(item.completion.summary)}`);
        break;
      case 'notice':
        parts.push(quote(markdownBody(item.text)));
        break;
    }
  }
  return { markdown: `${parts.join('\n\n')}\n`, fileName: chatFileName(summary.title), savedTo: null };
}

/**
 * Web pages (a search's results, a reply's sources) as a list: titles come from the web, so they
 * are text; a link only for an http(s) URL, percent-encoded so no character of it ends the link.
 */
function webList(pages: readonly WebSource[]): string {
  return pages
    .map((page) => {
      const href = webHref(page.url);
      // Parentheses escaped too: marked ends a link's text early at "](" even after "\]".
      const title = inlineText(page.title).replace(/[()]/g, '\\$&');
      return href ? `- [${title}](${href})` : `- ${title} (${inlineText(page.url)})`;
    })
    .join('\n');
}

function webHref(url: string): string | null {
  try {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
    return parsed.href.replace(/[()<>\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  } catch {
    return null;
  }
}

function describe(attachment: Attachment): string {
  if (attachment.kind === 'pdf') return `PDF, ${attachment.pages ?? '?'} page${attachment.pages === 1 ? '' : 's'}, ${formatBytes(attachment.size)}`;
  if (attachment.kind === 'image') return `${attachment.width ?? '?'}×${attachment.height ?? '?'}, ${formatBytes(attachment.size)}`;
  return formatBytes(attachment.size);
}

function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

/** A file name from the chat's title: letters, digits and dashes. */
export function chatFileName(title: string): string {
  const slug = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${slug || 'chat'}.md`;
}
