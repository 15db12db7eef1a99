import { useShallow } from 'zustand/react/shallow';
import { mcpFailureInWords } from '../../store/mcp-failure-words';
import { untoldMcpFailures } from '../../store/mcp-notice-slice';
import { useWaypoint } from '../../store/store-context';

/**
 * An MCP server that could not start, told once in words, with the way to Settings to fix it.
 * ("Review MCP servers", not "Open Settings": a second button whose name contains "Settings" would
 * make the header's "Settings" ambiguous for anyone finding it by name.)
 */
export function McpFailureNotice() {
  const failures = useWaypoint(useShallow(untoldMcpFailures));
  const dismiss = useWaypoint((s) => s.dismissMcpNotices);
  const openSettings = useWaypoint((s) => s.openSettings);
  if (failures.length === 0) return null;
  return (
    <div className="banner banner--error mcp-notice" role="alert">
      <div>
        {failures.map((server) => (
          <p key={server.name}>{mcpFailureInWords(server)}</p>
        ))}
      </div>
      <div className="mcp-notice-actions">
        <button
          type="button"
          className="btn"
          onClick={() => {
            dismiss(failures);
            openSettings();
            // Straight to the servers' JSON and states, at the end of the dialog.
            requestAnimationFrame(() => document.querySelector<HTMLElement>('.modal .mcp-json')?.focus());
          }}
        >
          Review MCP servers
        </button>
        <button type="button" className="btn" aria-label="Dismiss MCP notice" onClick={() => dismiss(failures)}>
          Dismiss
        </button>
      </div>
    </div>
  );
}
