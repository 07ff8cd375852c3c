/**
 * Sign-in: paste a key. It is kept in this tab's sessionStorage only. The form posts nowhere (a failed
 * script cannot turn it into a URL with the key in it). A refused key shows the API's own message; a
 * rate-limited one counts down to when it may ask again, then resumes on the same page.
 */
import { useEffect, useRef, useState } from "preact/hooks";
import { ApiError, retryAt, signIn, signInNotice, storedKey } from "../api.ts";

export function SignIn() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [now, setNow] = useState(Date.now());
  const input = useRef<HTMLInputElement>(null);
  const waitUntil = retryAt.value;
  const waiting = waitUntil !== null && waitUntil > now;

  useEffect(() => {
    input.current?.focus();
  }, []);
  useEffect(() => {
    if (waitUntil === null) return;
    const t = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(t);
  }, [waitUntil]);

  async function submit(key: string) {
    setBusy(true);
    setError(null);
    try {
      await signIn(key);
    } catch (e) {
      setError(e instanceof ApiError ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  const kept = storedKey();
  const notice = error ?? signInNotice.value;
  return (
    <main id="main" class="signin" data-state="signin">
      <h1 tabIndex={-1}>Sign in to the feedbase console</h1>
      <p>
        Paste an API key. It stays in this browser tab only and is forgotten when the tab closes. The console can do exactly what the key can:
        a read key looks, a write key also edits prices and formulas.
      </p>
      {notice ? (
        <div class="note error" role="alert">
          <p>{notice}</p>
          {waiting ? <p>You can continue in {Math.ceil((waitUntil - now) / 1000)} s; your place in the console is kept.</p> : null}
        </div>
      ) : null}
      {kept !== null && waitUntil !== null ? (
        <button type="button" disabled={waiting || busy} onClick={() => submit(kept)}>
          {waiting ? "Waiting for the rate limit…" : "Continue"}
        </button>
      ) : (
        <form
          method="post"
          action="#"
          onSubmit={(e) => {
            e.preventDefault();
            const key = input.current?.value.trim() ?? "";
            if (key) void submit(key);
            else setError("Paste an API key first (it starts with fbk_).");
          }}
        >
          <label for="api-key">API key</label>
          <input id="api-key" ref={input} name="key" type="password" autoComplete="off" spellcheck={false} placeholder="fbk_…" required />
          <button type="submit" disabled={busy}>
            {busy ? "Signing in…" : "Sign in"}
          </button>
        </form>
      )}
      <p class="small">
        An administrator makes keys with <code>feedbase key create</code>; give console users a rate limit that fits a person clicking around (for
        example <code>--rate-limit 2000</code> per hour).
      </p>
    </main>
  );
}
