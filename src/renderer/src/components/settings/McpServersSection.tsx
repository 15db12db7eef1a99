import type { RefObject } from 'react';
import type { McpServerState } from '../../../../shared/mcp';
import { mcpFailureReason } from '../../store/mcp-failure-words';
import { useWaypoint } from '../../store/store-context';
import { McpSignIn } from '../mcp/McpSignIn';
import './McpServersSection.css';

interface Props {
  id: string;
  json: string;
  /** Why the JSON can't be saved, shown under it. */
  error?: string;
  textareaRef?: RefObject<HTMLTextAreaElement | null>;
  onChange(json: string): void;
}

function stateText(server: McpServerState): string {
  switch (server.status) {
    case 'starting':
      return 'starting…';
    case 'ready':
      return `ready, ${server.toolCount} ${server.toolCount === 1 ? 'tool' : 'tools'}`;
    case 'failed':
      return `failed: ${mcpFailureReason(server)}`;
    case 'sign_in':
      return server.signedOut ? 'Signed out' : 'Sign-in needed';
  }
}

/**
 * Settings' "MCP servers": the servers as Claude Desktop's JSON (saved with the dialog's Save,
 * refused with a clear message when invalid) and each running server's state with "Restart".
 */
export function McpServersSection({ id, json, error, textareaRef, onChange }: Props) {
  const servers = useWaypoint((s) => s.mcpServers);
  const restart = useWaypoint((s) => s.restartMcpServer);
  const setLastError = useWaypoint((s) => s.setLastError);

  return (
    <fieldset className="field mcp-section">
      <legend>MCP servers</legend>
      <label htmlFor={`${id}-mcp-json`}>MCP servers JSON</label>
      <textarea
        ref={textareaRef}
        id={`${id}-mcp-json`}
        className="mcp-json"
        spellCheck={false}
        rows={Math.min(14, Math.max(4, json.split('\n').length))}
        value={json}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-mcp-hint ${id}-mcp-error` : `${id}-mcp-hint`}
      />
      {error && (
        <p id={`${id}-mcp-error`} className="field-error" role="alert">
          {error}
        </p>
      )}
      <p id={`${id}-mcp-hint`} className="hint">
        Claude Desktop's format: {'{"mcpServers": {"name": {"command": "npx", "args": […]}}}'} or {'{"url": …}'}. Add{' '}
        <code>"trusted": true</code> to run a server's tools without asking. Servers from --mcp-config are added to these.
      </p>
      {servers.length > 0 && (
        <ul className="mcp-servers" aria-label="MCP server status">
          {servers.map((server) => (
            <li key={server.name} className={`mcp-server mcp-server--${server.status}`} data-status={server.status}>
              <span className="mcp-server-name">{server.name}</span> <span className="mcp-server-transport">({server.transport})</span>{' '}
              <span className="mcp-server-state">{stateText(server)}</span>
              <button
                type="button"
                className="btn btn--small"
                aria-label={`Restart ${server.name}`}
                onClick={() =>
                  void restart(server.name).then((r) => {
                    if (!r.ok) setLastError(r.message);
                  })
                }
              >
                Restart
              </button>
              {server.status === 'sign_in' && <McpSignIn server={server} />}
              {server.status === 'failed' && server.stderrTail && (
                <pre className="mcp-stderr" aria-label={`${server.name} error output`}>
                  {server.stderrTail}
                </pre>
              )}
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
