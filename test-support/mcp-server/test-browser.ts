/**
 * A "browser" for sign-in tests: opens the authorization page and follows its redirects the
 * way a browser would, up to the loopback listener's answer page.
 */
export async function completeSignInInBrowser(authorizationUrl: string): Promise<{ status: number; url: string; body: string }> {
  let url = authorizationUrl;
  for (let hop = 0; hop < 5; hop++) {
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'manual' });
    } catch (error) {
      // A redirect to a port nobody listens on: the browser shows its own error page.
      return { status: 0, url, body: String(error) };
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url).href;
      continue;
    }
    return { status: response.status, url, body: await response.text() };
  }
  throw new Error(`too many redirects from ${authorizationUrl}`);
}
