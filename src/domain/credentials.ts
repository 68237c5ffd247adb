/**
 * A URL's password (`scheme://user:password@host`) and credential query parameters (`?password=…`, as PostgreSQL
 * connection strings allow). The password runs to the last `@` of the word: one written unencoded may hold `@`.
 */
const USERINFO_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/?#@]*):[^\s]*@/gi;
const CREDENTIAL_PARAMETER = /([?&][a-z_]*(?:pass|secret|token|key)[a-z_]*=)[^&#\s]*/gi;
const HIDDEN = '***';

/**
 * Any text the process writes (stdout, stderr, a log line, an error message) with the credentials of every URL in
 * it hidden: operators paste output into tickets and chat, and log collectors keep it.
 */
export function redactCredentials(text: string): string {
  return text.replace(USERINFO_PASSWORD, `$1:${HIDDEN}@`).replace(CREDENTIAL_PARAMETER, `$1${HIDDEN}`);
}
