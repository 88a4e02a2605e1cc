/**
 * The API key lives in this tab's session storage only: never in a URL (hash routes hold no secret), never in
 * local storage (it ends with the tab), never sent anywhere but this service's API.
 */
const STORAGE_KEY = 'aeq.apiKey';

export function savedKey(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function saveKey(key: string): void {
  sessionStorage.setItem(STORAGE_KEY, key);
}

export function forgetKey(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
