import { useWaypoint } from '../store/store-context';

/**
 * The plan panel's collapsed state. It lives in the store (ui-slice) so the header button and
 * the keyboard shortcut toggle the same thing; the store remembers it across reloads and chats.
 */
export function useCollapsed(): [boolean, () => void] {
  const collapsed = useWaypoint((s) => s.planCollapsed);
  const toggle = useWaypoint((s) => s.togglePlanPanel);
  return [collapsed, toggle];
}
