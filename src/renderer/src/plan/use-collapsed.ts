import { useCallback, useState } from 'react';

const KEY = 'waypoint.taskPlan.collapsed';

function read(): boolean {
  try {
    return globalThis.localStorage?.getItem(KEY) === 'true';
  } catch {
    return false; // storage may be disabled; the panel then simply starts expanded
  }
}

/** The plan panel's collapsed state, remembered across reloads and chats. */
export function useCollapsed(): [boolean, () => void] {
  const [collapsed, setCollapsed] = useState(read);
  const toggle = useCallback(() => {
    setCollapsed((was) => {
      const next = !was;
      try {
        globalThis.localStorage?.setItem(KEY, String(next));
      } catch {
        // not remembered, still toggled
      }
      return next;
    });
  }, []);
  return [collapsed, toggle];
}
