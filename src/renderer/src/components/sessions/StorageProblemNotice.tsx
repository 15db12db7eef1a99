import { useWaypoint } from '../../store/store-context';

/** The chats folder could not be used at start: the app runs, but says plainly that chats are not saved. */
export function StorageProblemNotice() {
  const problem = useWaypoint((s) => s.appInfo?.storageProblem ?? null);
  if (!problem) return null;
  return (
    <div className="banner banner--error" role="alert">
      <p>{problem}</p>
    </div>
  );
}
