import { useWaypoint } from '../store/store-context';
import { Icon } from './icons/Icon';

export const SIDEBAR_ID = 'chat-sidebar';
export const CHATS_MENU_ID = 'chats-menu-button';

/** Narrow windows only (responsive.css hides it otherwise): opens and closes the chats drawer. */
export function ChatsMenuButton() {
  const open = useWaypoint((s) => s.sidebarOpen);
  const toggle = useWaypoint((s) => s.toggleSidebar);
  return (
    <button id={CHATS_MENU_ID} type="button" className="btn chats-menu-button" aria-expanded={open} aria-controls={SIDEBAR_ID} onClick={toggle}>
      <Icon name="menu" size={16} />
      <span>Chats</span>
    </button>
  );
}
