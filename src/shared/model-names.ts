/**
 * People read model names, not ids: "claude-haiku-4-5-20251001" is "Claude Haiku 4.5". The
 * Models API gives display names; these helpers cover ids it did not describe (the saved model,
 * the default, a built-in list) the same way.
 */

export interface ModelName {
  id: string;
  displayName: string;
}

/** "claude-sonnet-4-5-20250929" → "Claude Sonnet 4.5", "claude-3-5-haiku-latest" → "Claude 3.5 Haiku"; other ids unchanged. */
export function displayNameFromId(id: string): string {
  const parts = id.replace(/-(\d{8}|latest)$/, '').split('-');
  if (parts[0] !== 'claude' || parts.length < 2 || parts.some((p) => !/^[a-z0-9]+$/.test(p))) return id;
  const words: string[] = [];
  let version: string[] = [];
  const flush = () => {
    if (version.length) words.push(version.join('.'));
    version = [];
  };
  for (const part of parts) {
    if (/^\d+$/.test(part)) {
      version.push(part);
      continue;
    }
    flush();
    words.push(part.charAt(0).toUpperCase() + part.slice(1));
  }
  flush();
  return words.join(' ');
}

/** The name to show for a model id: the listed display name, else one made from the id. */
export function modelDisplayName(id: string, models: readonly ModelName[] = []): string {
  return models.find((m) => m.id === id)?.displayName || displayNameFromId(id);
}

/**
 * The list a picker offers: `listed` as given, with every id in `required` (the chat's current
 * model, the default) added in front when missing, so it can always be chosen again.
 */
export function withRequiredModels<T extends ModelName>(listed: readonly T[], required: readonly string[]): (T | ModelName)[] {
  const missing: ModelName[] = [];
  for (const id of required) {
    if (!id || listed.some((m) => m.id === id) || missing.some((m) => m.id === id)) continue;
    missing.push({ id, displayName: displayNameFromId(id) });
  }
  return [...missing, ...listed];
}
