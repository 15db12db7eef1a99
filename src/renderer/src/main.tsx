import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { getApi } from './api/get-api';
import { App } from './components/App';
import { installShortcuts } from './keyboard/install-shortcuts';
import { installNotifications } from './notify/install-notifications';
import { connectStore } from './store/connect';
import { createWaypointStore } from './store/create-store';
import { warmMarkdown } from './markdown/warm-markdown';
import { rememberedOpenChat, rememberOpenChat } from './store/open-chat-memory';
import { StoreProvider } from './store/store-context';
import './styles/base.css';
import './styles/layout.css';
import './styles/chat.css';
import './styles/plan.css';
import './styles/forms.css';
import './styles/highlight.css';
import './styles/responsive.css';

const api = getApi();
const store = createWaypointStore(api);
// Wiring happens outside React: components render the store, they don't orchestrate.
connectStore(api, store, { preferredChat: rememberedOpenChat() });
rememberOpenChat(store);
installShortcuts(store);
installNotifications(api, store);
// Drafts are written a moment after typing stops; a reload or a closed tab must not lose the last words.
window.addEventListener('pagehide', () => store.getState().flushDrafts());

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <StoreProvider store={store}>
        <App />
      </StoreProvider>
    </StrictMode>,
  );
}

// Warm the Markdown lexer and the code grammars while idle, not inside the first reply's commits (issue 15 item 5).
void warmMarkdown();
