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
  let to = "";
  let fix = `check \`${request.option}\``;
  try {
    // A browser hides the target of a manual redirect (status 0), and a server may omit it.
    if (status && location) {
      const u = new URL(location, request.url);
      to = ` to ${u.origin}${u.pathname}`;
      if (u.pathname.endsWith(request.path))
        fix = `set \`${request.option}\` to "${u.origin}${u.pathname.slice(0, -request.path.length)}"`;
    }
  } catch {
    to = " to an invalid URL";
  }
  return `The server answered ${status || "with"} a redirect${to}; redirects are not followed, so nothing was sent there. If the service moved, ${fix}.`;
}
