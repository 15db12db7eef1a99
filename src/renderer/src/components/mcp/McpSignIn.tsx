import type { McpServerState } from '../../../../shared/mcp';
import { useWaypoint } from '../../store/store-context';

type SignInState = Extract<McpServerState, { status: 'sign_in' }>;

/**
 * A remote MCP server's sign-in, in its row of Settings' MCP servers: "Sign in" asks main to
 * start it; while it waits, the web shell offers the authorization page as a link (the desktop
 * app has opened the system browser); a refused sign-in says why. No token reaches this page.
 */
export function McpSignIn({ server }: { server: SignInState }) {
  const signIn = useWaypoint((s) => s.signInMcpServer);
  const setLastError = useWaypoint((s) => s.setLastError);
  const desktop = useWaypoint((s) => s.appInfo?.shell === 'electron');
  return (
    <>
      <button
        type="button"
        className="btn btn--small"
        onClick={() =>
          void signIn(server.name).then((r) => {
            if (!r.ok) setLastError(r.message);
          })
        }
      >
        Sign in
      </button>
      {server.signInUrl &&
        (desktop ? (
          <span className="mcp-sign-in-hint">Finish signing in in your browser.</span>
        ) : (
          <a className="mcp-sign-in-link" href={server.signInUrl} target="_blank" rel="noopener noreferrer">
            Open sign-in page
          </a>
        ))}
      {server.error && (
        <p className="mcp-sign-in-error field-error" role="alert">
          {server.error}
        </p>
      )}
    </>
  );
}
