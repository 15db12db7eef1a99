import { useCallback } from 'react';
import { useWaypoint } from '../../store/store-context';

/**
 * Whether the transcript disclosure `key` is open, kept in the store (ui-slice `disclosures`) so it
 * outlives its row: the virtualised transcript unmounts rows out of view.
 */
export function useDisclosure(key: string): [open: boolean, setOpen: (open: boolean) => void] {
  const open = useWaypoint((s) => s.disclosures[key]?.open ?? false);
  const setDisclosure = useWaypoint((s) => s.setDisclosure);
  const setOpen = useCallback((next: boolean) => setDisclosure(key, next), [setDisclosure, key]);
  return [open, setOpen];
}
