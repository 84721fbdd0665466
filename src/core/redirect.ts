/**
 * The message of a redirect the client did not follow. Redirects are never followed: a 307/308
 * would re-send the body and the credentials to whatever address the server names, and a
 * 301/302/303 would turn a POST into a GET whose answer looks like success. The message says
 * where the server pointed (origin and path, never the query string, which may carry tokens)
 * and which base URL would reach it directly.
 */
export function redirectMessage(
  status: number,
  location: string | undefined,
  request: { url: string; path: string; option: string },
): string {
  const what = status === 0 ? "The server redirected the request" : `The server answered ${status} (a redirect)`;
  const rule = "redirects are not followed, so nothing was sent there";
  if (status === 0 || !location)
    return `${what}${status === 0 ? "" : " without a Location header"}; ${rule}. Check \`${request.option}\`: it should be the service's address.`;
  let target: URL;
  try {
    target = new URL(location, request.url);
  } catch {
    return `${what} to an address that is not a valid URL; ${rule}. Check \`${request.option}\`.`;
  }
  const where = target.origin + target.pathname;
  const base = target.pathname.endsWith(request.path)
    ? `set \`${request.option}\` to "${target.origin}${target.pathname.slice(0, -request.path.length)}"`
    : `check \`${request.option}\``;
  return `${what} to ${where}; ${rule}. If the service moved there, ${base}.`;
}
