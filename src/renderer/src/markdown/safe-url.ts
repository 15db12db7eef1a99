/** Only web and mail links are followed; `javascript:`, `data:`, `file:` and the like are not. */
export function safeHref(href: string): string | null {
  try {
    const url = new URL(href);
    return ['http:', 'https:', 'mailto:'].includes(url.protocol) ? url.href : null;
  } catch {
    return null; // relative links have nowhere sensible to go in a chat
  }
}
