import { type RefObject, useRef, useState } from 'react';
import type { McpServerState } from '../../../../shared/mcp';
import type { McpServers } from '../../../../shared/settings';
import type { ActionResult } from '../../store/types';
import { McpServerForm } from '../mcp/McpServerForm';
import { McpServerRowActions } from '../mcp/McpServerRowActions';
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
  /** The JSON's servers (null while it is not valid, `jsonProblem` saying why): what the form edits. */
  servers: McpServers | null;
  jsonProblem?: string | undefined;
  /** Saves the servers at once (the form and Remove), and shows them in the JSON. */
  onSaveServers(servers: McpServers): Promise<ActionResult>;
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
 * refused with a clear message when invalid), the same servers one at a time with "Add MCP
 * server" / Edit / Remove (saved at once), and each running server's state with "Restart".
 */
export function McpServersSection({ id, json, error, textareaRef, onChange, servers: saved, jsonProblem, onSaveServers }: Props) {
  const servers = useWaypoint((s) => s.mcpServers);
  const restart = useWaypoint((s) => s.restartMcpServer);
  const setLastError = useWaypoint((s) => s.setLastError);
  /** The form: closed, adding (null) or editing a server by name. */
  const [form, setForm] = useState<{ editing: string | null } | null>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const closeForm = () => {
    setForm(null);
    // Its button is where the keyboard was before; the form's fields are gone.
    setTimeout(() => addButton.current?.focus());
  };
  const remove = async (name: string) => {
    if (!saved) return;
    const { [name]: _removed, ...rest } = saved;
    const result = await onSaveServers(rest);
    if (!result.ok) setLastError(result.message);
    else addButton.current?.focus();
  };

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
      {form ? (
        <McpServerForm key={form.editing ?? ''} servers={saved} jsonProblem={jsonProblem} editing={form.editing} onSave={onSaveServers} onClose={closeForm} />
      ) : (
        <button ref={addButton} type="button" className="btn btn--small mcp-add" onClick={() => setForm({ editing: null })}>
          Add MCP server
        </button>
      )}
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
              {saved && Object.hasOwn(saved, server.name) && (
                <McpServerRowActions name={server.name} onEdit={() => setForm({ editing: server.name })} onRemove={() => void remove(server.name)} />
              )}
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
