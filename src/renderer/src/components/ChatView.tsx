import { useWaypoint } from '../store/store-context';
import { Composer } from './Composer';
import { InlineTaskPlan } from './plan/InlineTaskPlan';
import { Transcript } from './transcript/Transcript';

/** The current chat: transcript, the plan panel right above the composer, the composer. */
export function ChatView() {
  const sessionId = useWaypoint((s) => s.currentSessionId);
  const items = useWaypoint((s) => (sessionId ? s.transcripts[sessionId] : undefined));
  const plan = useWaypoint((s) => (sessionId ? s.plans[sessionId] : null));
  const runState = useWaypoint((s) => (sessionId ? s.runStates[sessionId] : undefined));
  const announcement = useWaypoint((s) => s.announcement);
  const composerError = useWaypoint((s) => s.composerError);
  const sendMessage = useWaypoint((s) => s.sendMessage);
  const stop = useWaypoint((s) => s.stop);
  const clearComposerError = useWaypoint((s) => s.clearComposerError);
  const working = !!runState && runState.status !== 'idle';

  return (
    <div className="chat">
      <Transcript items={items} announcement={announcement} />
      <div className="chat-bottom">
        {runState?.status === 'retrying' && (
          <p className="run-note" role="status">
            {runState.reason} — retrying (attempt {runState.attempt} of {runState.maxAttempts})…
          </p>
        )}
        <InlineTaskPlan plan={plan} />
        <Composer
          key={sessionId ?? 'none'}
          working={working}
          error={composerError}
          onSend={sendMessage}
          onStop={() => void stop()}
          onEdit={clearComposerError}
        />
      </div>
    </div>
  );
}
