import type { WebSearchTool20250305 } from '@anthropic-ai/sdk/resources/messages';
import type { Settings } from '../../../shared/settings';

/**
 * The Messages API's server-side web search, offered when Settings "Web search" is on. The API
 * runs the searches itself: the tool is no part of the tool registry, Waypoint never executes
 * it and never answers it with a tool_result (the reply carries server_tool_use and
 * web_search_tool_result blocks, kept in the history as they came: run-loop.ts). Built in a
 * fixed key order, and last in the tools list, so the cached prefix stays byte-identical from
 * turn to turn (cache-control.ts).
 */
export function webSearchTool(settings: Settings): WebSearchTool20250305 | null {
  if (!settings.webSearch) return null;
  return { type: 'web_search_20250305', name: 'web_search', max_uses: settings.webSearchMaxUses };
}
