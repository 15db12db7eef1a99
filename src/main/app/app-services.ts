import type { WaypointEvent } from '../../shared/contract';
import type { Disposable } from '../common/emitter';
import type { CallRouter } from './call-router';

/** What a shell needs from the app: one entry for calls, one stream of events, one shutdown. */
export interface AppServices {
  router: CallRouter;
  onEvent(listener: (event: WaypointEvent) => void): Disposable;
  dispose(): Promise<void>;
}
