/**
 * The invitation link: the app's own origin, the register page and the code as its `invite`
 * parameter, as the summary contract publishes the parts (issue 20). The register page reads the
 * same parameter and fills the code in.
 */
export function inviteLink(origin: string, link: { registerPath: string; inviteParam: string }, code: string): string {
  const url = new URL(link.registerPath, origin);
  url.searchParams.set(link.inviteParam, code);
  return url.toString();
}

/** The code a register page's address carries (`?invite=`), as the form takes it: trimmed, upper case, at most 16 characters. */
export function inviteCodeFromQuery(value: string | null): string {
  return (value ?? '').trim().toUpperCase().slice(0, 16);
}
